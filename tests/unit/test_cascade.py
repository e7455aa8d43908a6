"""The cascade: scorers give features, the policy gives the lane, failures degrade to local."""

from __future__ import annotations

import pytest

from mailmoat.core.features import Features
from mailmoat.core.hashing import input_hash
from mailmoat.core.lanes import Lane
from mailmoat.core.local_scorer import Scored
from mailmoat.core.message import Message, message_from_fields, parse_message
from mailmoat.core.policy import Facts
from mailmoat.core.signals import Signals
from mailmoat.judge.cascade import ScorerUnavailable, classify


class FixedScorer:
    def __init__(self, name: str, features: Features, reason: str = "fixed") -> None:
        self.name = name
        self.features = features
        self.reason = reason
        self.calls = 0

    def score(self, message: Message, signals: Signals, facts: Facts) -> Scored:
        self.calls += 1
        return Scored(self.features, self.reason, source=f"llm:{self.name}")


class DownScorer:
    name = "down"

    def __init__(self) -> None:
        self.calls = 0

    def score(self, message: Message, signals: Signals, facts: Facts) -> Scored:
        self.calls += 1
        raise ScorerUnavailable("connection refused")


PROMO = message_from_fields(
    sender="MegaMart <deals@mail.megamart.example>",
    subject="Black Friday: 70% off everything",
    snippet="Shop now, limited time",
)


def test_no_scorers_means_local_source() -> None:
    trace = classify(PROMO)
    assert trace.source == "local"
    assert not trace.degraded
    assert trace.decision.lane == Lane.SILENT


def test_first_available_scorer_decides() -> None:
    urgent = Features(confidence=0.9, sender_trust=0.8, reversibility=0.5, urgency=0.9)
    first, second = FixedScorer("a", urgent), FixedScorer("b", urgent)
    trace = classify(PROMO, scorers=[first, second])
    assert trace.source == "llm:a"
    assert (first.calls, second.calls) == (1, 0)
    assert trace.decision.lane == Lane.PUSH


def test_every_scorer_down_degrades_to_local_with_a_lane() -> None:
    down1, down2 = DownScorer(), DownScorer()
    trace = classify(PROMO, scorers=[down1, down2])
    assert (down1.calls, down2.calls) == (1, 1)
    assert trace.source == "local:degraded"
    assert trace.degraded
    assert trace.decision.lane in set(Lane)


def test_scorer_cannot_name_a_lane() -> None:
    """A scorer's reason text that argues for a lane changes nothing: lanes come from numbers."""
    calm = Features(confidence=0.9, sender_trust=0.05, reversibility=0.95, urgency=0.05)
    honest = classify(PROMO, scorers=[FixedScorer("a", calm, "marketing")])
    arguing = classify(PROMO, scorers=[FixedScorer("a", calm, "lane=PUSH, this is PUSH")])
    assert honest.decision == arguing.decision
    assert arguing.decision.lane == Lane.SILENT


def test_pin_skips_scorers_and_is_traced() -> None:
    scorer = FixedScorer("a", Features(0.9, 0.9, 0.9, 0.1))
    trace = classify(PROMO, Facts(pinned_lane=Lane.QUEUE), scorers=[scorer])
    assert scorer.calls == 0
    assert trace.source == "pin"
    assert trace.decision.lane == Lane.QUEUE
    assert trace.as_dict()["external"]["pinned_lane"] == "QUEUE"


def test_trace_carries_everything_invariant_7_names() -> None:
    trace = classify(PROMO).as_dict()
    for key in ("features", "signals", "external", "source", "policy_version", "input_hash"):
        assert trace[key] not in (None, "", {}), key
    assert trace["input_hash"] == input_hash(PROMO)
    assert set(trace["features"]) == {"confidence", "sender_trust", "reversibility", "urgency"}


@pytest.mark.parametrize(
    "raw",
    [b"", b"\x00\xff\xfe garbage", b"Subject: =?bogus?Q?x?=\n\n", b"From: <>\n\n\n"],
)
def test_garbage_still_gets_a_lane(raw: bytes) -> None:
    trace = classify(parse_message(raw))
    assert trace.decision.lane in set(Lane)


class LocalBasedScorer:
    """Like the learned scorer: starts from the local scorer's answer."""

    name = "on-local"

    def __init__(self) -> None:
        self.given: list[Scored] = []

    def score(self, message: Message, signals: Signals, facts: Facts) -> Scored:
        raise AssertionError("the cascade should hand over the local answer (score_on)")

    def score_on(self, local: Scored, message: Message, signals: Signals,
                 facts: Facts) -> Scored:
        self.given.append(local)
        return Scored(local.features, f"{local.reason}; nudged", source="on-local")


def test_a_scorer_building_on_local_gets_the_perceived_local_answer() -> None:
    from mailmoat.judge.cascade import perceive

    perception = perceive(PROMO)
    scorer = LocalBasedScorer()
    trace = classify(PROMO, scorers=[scorer], perception=perception)
    assert scorer.given == [perception.local]
    assert scorer.given[0] is perception.local  # not scored locally a second time
    assert trace.source == "on-local"
    # Without a perception the cascade scores locally once and hands that over.
    classify(PROMO, scorers=[scorer])
    assert scorer.given[1] == perception.local


def test_learned_scorer_score_is_score_on_the_local_answer() -> None:
    from mailmoat.core.local_scorer import score_local
    from mailmoat.core.signals import detect_signals
    from mailmoat.learn.model import LinearModel
    from mailmoat.learn.scorer import LearnedScorer

    scorer = LearnedScorer(LinearModel(), min_corrections=0, min_probability=0.0)
    signals = detect_signals(PROMO)
    assert scorer.score(PROMO, signals, Facts()) == scorer.score_on(
        score_local(PROMO, signals), PROMO, signals, Facts())
