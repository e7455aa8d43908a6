"""The decision queue's one-line reasons, read off stored traces."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from mailmoat.core.explain import why
from mailmoat.core.features import Features
from mailmoat.core.lanes import Lane
from mailmoat.core.policy import Facts, decide
from mailmoat.core.signals import Signals
from mailmoat.core.trace import Trace


def _trace(features: Features, signals: Signals, facts: Facts = Facts(),
           evidence: dict[str, Any] | None = None) -> dict[str, Any]:
    return Trace(decide(features, signals, facts), features, signals, facts, "local", "",
                 "0" * 64, evidence=evidence or {}).as_dict()


URGENT = Features(confidence=0.9, sender_trust=0.7, reversibility=0.8, urgency=0.9)


def test_urgent_wording_from_a_colleague() -> None:
    trace = _trace(URGENT, Signals(urgent_wording=True, same_org=True))
    assert trace["lane"] == "PUSH"
    assert why(trace) == "urgent wording from a colleague"


def test_a_scam_names_the_evidence() -> None:
    trace = _trace(URGENT, Signals(phishing=True, urgent_wording=True),
                   evidence={"phishing_reasons": ["brand name from an unrelated domain"]})
    assert trace["lane"] == "QUEUE"
    assert why(trace) == "looks like a scam: brand name from an unrelated domain"


def test_a_pin_and_a_meeting_and_a_stranger_who_may_not_interrupt() -> None:
    pinned = _trace(URGENT, Signals(), Facts(pinned_lane=Lane.PUSH, replies_sent=2))
    assert why(pinned) == "you always put this sender in PUSH"
    calm = Features(confidence=0.8, sender_trust=0.6, reversibility=0.8, urgency=0.3)
    meeting = _trace(calm, Signals(scheduling=True), Facts(replies_sent=3))
    assert why(meeting) == "asks about a time to meet, from someone you write to"
    held = _trace(URGENT, Signals(urgent_wording=True, unsolicited=True))
    assert held["lane"] == "QUEUE"
    assert why(held).endswith("this sender may not interrupt you, so it waits")


def test_an_unknown_shape_falls_back_to_the_policy_reason() -> None:
    assert why({"branch": "new-branch", "reason": "some reason"}) == "some reason"
    assert why({}) == "no reason recorded"


unit = st.floats(0, 1)


@given(unit, unit, unit, unit, st.builds(Signals, **{
    name: st.booleans() for name in Signals.__dataclass_fields__}))
def test_every_decision_gets_one_short_line(c: float, t: float, r: float, u: float,
                                            signals: Signals) -> None:
    line = why(_trace(Features(confidence=c, sender_trust=t, reversibility=r, urgency=u),
                      signals))
    assert line and "\n" not in line and len(line) <= 160
