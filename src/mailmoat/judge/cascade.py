"""The scorer cascade: pinned rule -> learned rule -> model scorers -> local scorer.

Pins and learned rules are facts handed to the policy (they need no scorer opinion to be
applied, but features are still computed locally so the trace stays complete and urgency
can still keep mail visible). Model scorers are tried in order; when every one of them is
unavailable the local scorer decides and the trace says `local:degraded`. Whatever happens,
the message gets a lane (invariant 6).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Protocol, runtime_checkable

from mailmoat.core.evidence import Evidence
from mailmoat.core.hashing import input_hash
from mailmoat.core.local_scorer import LOCAL_SOURCE, Scored, score_local
from mailmoat.core.message import Message
from mailmoat.core.policy import Facts, decide
from mailmoat.core.signals import Signals, Texts, perceive_signals, read_texts
from mailmoat.core.trace import Trace

log = logging.getLogger(__name__)


class ScorerUnavailable(Exception):
    """The scorer could not produce features for this message (down, budget, bad output)."""


class Scorer(Protocol):
    name: str

    def score(self, message: Message, signals: Signals, facts: Facts) -> Scored:
        """Return features, or raise ScorerUnavailable."""
        ...


@runtime_checkable
class BuildsOnLocal(Protocol):
    """A scorer that starts from the local scorer's answer (the learned scorer): the
    cascade hands it that answer, often computed ahead (`Perception.local`), instead of it
    scoring locally a second time."""

    def score_on(self, local: Scored, message: Message, signals: Signals,
                 facts: Facts) -> Scored:
        ...


@runtime_checkable
class PerAccount(Protocol):
    """A scorer whose work depends on the mail account (the LLM judge: budget, examples)."""

    def for_account(self, account: str) -> Scorer:
        ...


@cache
def _implements(kind: type, protocol: type) -> bool:
    # A runtime protocol check inspects the class every time (~30 us); classify asks per
    # message, and a class does not change what it implements.
    return issubclass(kind, protocol)


def for_account(scorers: Sequence[Scorer], account: str | None) -> list[Scorer]:
    """The scorers serving `account`; scorers that do not care are used as they are."""
    if account is None:
        return list(scorers)
    # the ignore below: _implements checks it at run time; mypy cannot narrow
    return [s.for_account(account) if _implements(type(s), PerAccount) else s  # type: ignore[attr-defined]
            for s in scorers]


@dataclass(frozen=True, slots=True)
class Perception:
    """What `classify` reads off the message alone (no facts, no model): computable ahead,
    in another process, and handed in."""

    signals: Signals
    local: Scored
    input_hash: str
    evidence: Evidence = field(default_factory=Evidence)


def perceive(message: Message) -> Perception:
    texts = read_texts(message)
    signals, evidence = perceive_signals(message, texts)
    return Perception(signals, score_local(message, signals, texts), input_hash(message),
                      evidence)


def classify(
    message: Message,
    facts: Facts = Facts(),
    scorers: Sequence[Scorer] = (),
    account: str | None = None,
    perception: Perception | None = None,
) -> Trace:
    """One lane for `message`. `account` is the mail account it belongs to: a per-account
    scorer bills and learns for that account (None: each scorer as it was built).
    `perception` is the message-only part, when it was computed ahead (mail/parse_pool)."""
    texts: Texts | None = None
    if perception is None:
        texts = read_texts(message)
        signals, evidence = perceive_signals(message, texts)
    else:
        signals, evidence = perception.signals, perception.evidence
    local = perception.local if perception else None
    scored: Scored | None = None
    degraded = False
    if facts.pinned_lane is None and facts.rule_lane is None:
        for scorer in for_account(scorers, account):
            try:
                if _implements(type(scorer), BuildsOnLocal):
                    if local is None:
                        local = score_local(message, signals, texts)
                    # the ignore below: _implements checks it at run time; mypy cannot narrow
                    scored = scorer.score_on(local, message, signals, facts)  # type: ignore[attr-defined]
                else:
                    scored = scorer.score(message, signals, facts)
                break
            except ScorerUnavailable as exc:
                log.info("scorer %s unavailable: %s", scorer.name, exc)
        degraded = bool(scorers) and scored is None
    if scored is None:
        scored = local if local is not None else score_local(message, signals, texts)
    source = f"{LOCAL_SOURCE}:degraded" if degraded else scored.source
    if facts.pinned_lane is not None:
        source = "pin"
    elif facts.rule_lane is not None:
        source = "rule"
    decision = decide(scored.features, signals, facts)
    return Trace(
        decision=decision,
        features=scored.features,
        signals=signals,
        external=facts,
        source=source,
        scorer_reason=scored.reason,
        input_hash=perception.input_hash if perception else input_hash(message),
        degraded=degraded,
        evidence=evidence.as_dict(),
    )
