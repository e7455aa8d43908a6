"""The policy: features + signals + facts -> exactly one lane. Read top to bottom.

Branch order (first match wins) and why:
  1. pin       a human pinned this sender; only a person may silence a sender.
  2. suspect   flagged as phishing/scam (core/evidence.py): QUEUE, visible so a real bank
               alert is not lost, never PUSH, never AUTO.
  3. rule      a learned sender rule; it may promote (PUSH/QUEUE/MEETING), never hide.
  4. unsure    low confidence degrades to visibility: QUEUE, never a hidden lane.
  5. push      urgent and confident enough to interrupt, from a sender nothing speaks
               against: no server spam verdict, no local spam engine verdict, not shaped
               like unsolicited bulk mail from someone the user never wrote to (two shapes,
               or one in a mail that answers no thread) nor a stranger's sales pitch, not
               an automatic reply.
  6. silent    clear noise: untrusted, calm, and cheap to undo.
  7. meeting   scheduling mail, unless it is also marketing (webinar blasts) or a pitch, or
               its sender may not interrupt (as for PUSH: a meeting lure from a stranger is
               not scheduled, and the calendar loop proposes nothing for it).
  8. info      a calm record: transactional, a person on a mailing list, an auto-reply; or
               a promotion or a stranger's sales pitch, not calm enough for SILENT and with
               urgency below info_max_urgency (the local scorer keeps a promotion that
               shouts urgency with account words at 0.5: it may be a phish, QUEUE).
  9. queue     the default.
Two re-checks run on every outcome, a pin's included: a hidden lane for urgent mail becomes
QUEUE (invariant 3); PUSH for a flagged, spam-judged or auto-replied mail becomes QUEUE (a
spoofed pinned sender interrupts no one).
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import asdict, dataclass, field
from types import MappingProxyType
from typing import Any

from mailmoat.core.features import Features
from mailmoat.core.lanes import HIDDEN_LANES, Lane
from mailmoat.core.records import flat_dict
from mailmoat.core.signals import Signals


@dataclass(frozen=True, slots=True)
class Thresholds:
    min_confidence: float = 0.5  # below: QUEUE
    push_urgency: float = 0.7  # at or above, with push_confidence: PUSH
    push_confidence: float = 0.7
    silent_max_trust: float = 0.2  # SILENT needs trust below ...
    silent_max_urgency: float = 0.2  # ... and urgency below ...
    silent_min_reversibility: float = 0.9  # ... and reversibility above
    info_max_urgency: float = 0.5  # INFO: transactional and calmer than this
    auto_min_reversibility: float = 0.85
    auto_min_confidence: float = 0.85
    auto_max_urgency: float = 0.5
    auto_min_trust: float = 0.5
    auto_min_replies_sent: int = 1  # observed history the model cannot author
    spam_engine_no_push: float = 6.0  # a local spam engine score at or above: never PUSH


THRESHOLDS = Thresholds()
BRANCH_ORDER: tuple[str, ...] = (
    "pin", "suspect", "rule", "unsure", "push", "silent", "meeting", "info", "queue",
)
PROMOTING_RULE_LANES: frozenset[Lane] = frozenset({Lane.PUSH, Lane.QUEUE, Lane.MEETING})
AUTO_LANES: frozenset[Lane] = frozenset({Lane.QUEUE, Lane.MEETING})


@dataclass(frozen=True, slots=True)
class Facts:
    """World-anchored facts about the sender. Message content can never set these."""

    pinned_lane: Lane | None = None  # set only by a person
    rule_lane: Lane | None = None  # from learned sender rules
    messages_received: int = 0
    replies_sent: int = 0  # messages the user sent to this sender
    human_corrections: int = 0
    read_rate: float | None = None
    spam_score: float | None = None  # the local spam engine's score (rspamd), when it ran

    def __post_init__(self) -> None:
        # Lanes loaded from a store arrive as strings; a str lane would reach the Decision.
        for name in ("pinned_lane", "rule_lane"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, Lane):
                object.__setattr__(self, name, Lane(value))

    def as_dict(self) -> dict[str, Any]:
        return flat_dict(self)


@dataclass(frozen=True, slots=True)
class Decision:
    lane: Lane
    reason: str
    auto_eligible: bool
    branch: str
    policy_version: str = field(default="")

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "lane": self.lane.value}


@functools.lru_cache(maxsize=16)  # called for every decision; thresholds are frozen
def _version(thresholds: Thresholds) -> str:
    blob = json.dumps({"t": asdict(thresholds), "order": BRANCH_ORDER}, sort_keys=True)
    return "policy-1." + hashlib.sha256(blob.encode()).hexdigest()[:8]


POLICY_VERSION = _version(THRESHOLDS)


def describe_policy(thresholds: Thresholds = THRESHOLDS) -> MappingProxyType[str, Any]:
    """An immutable snapshot of exactly what `decide` runs with."""
    return MappingProxyType(
        {
            "version": _version(thresholds),
            "branch_order": BRANCH_ORDER,
            "thresholds": MappingProxyType(asdict(thresholds)),
        }
    )


def _urgent(f: Features, t: Thresholds) -> bool:
    return f.urgency >= t.push_urgency and f.confidence >= t.min_confidence


def _no_push(s: Signals, facts: Facts, t: Thresholds) -> bool:
    """Evidence that this sender must not interrupt (PUSH) nor be scheduled (MEETING),
    whatever the wording says."""
    engine = facts.spam_score is not None and facts.spam_score >= t.spam_engine_no_push
    # Someone the user has written to is not an unsolicited stranger (history, not content).
    # One bulk shape is enough when the mail also answers no thread (a cold contact).
    # A stranger's sales pitch is not urgent for the reader, whatever words it borrows
    # ("ransomware readiness assessment").
    stranger_bulk = ((s.unsolicited or s.cold_unsolicited or s.cold_pitch)
                     and facts.replies_sent == 0)
    return s.phishing or s.spam_verdict or stranger_bulk or s.auto_reply or engine


def _auto_eligible(lane: Lane, f: Features, s: Signals, facts: Facts, t: Thresholds) -> bool:
    return (
        lane in AUTO_LANES
        and not (s.phishing or s.spam_verdict)
        and f.reversibility >= t.auto_min_reversibility
        and f.confidence >= t.auto_min_confidence
        and f.urgency < t.auto_max_urgency
        and f.sender_trust >= t.auto_min_trust
        and facts.replies_sent >= t.auto_min_replies_sent
    )


def _choose(f: Features, s: Signals, facts: Facts, t: Thresholds) -> tuple[Lane, str, str]:
    if facts.pinned_lane is not None:
        return facts.pinned_lane, "pin", f"sender pinned to {facts.pinned_lane.value}"
    if s.phishing:
        return Lane.QUEUE, "suspect", "possible phishing or scam: kept visible, never pushed"
    if facts.rule_lane in PROMOTING_RULE_LANES:
        return facts.rule_lane, "rule", f"learned sender rule: {facts.rule_lane.value}"
    if f.confidence < t.min_confidence:
        return Lane.QUEUE, "unsure", "low confidence: kept visible"
    if (f.urgency >= t.push_urgency and f.confidence >= t.push_confidence
            and not _no_push(s, facts, t)):
        return Lane.PUSH, "push", "urgent and confident"
    if (
        f.sender_trust < t.silent_max_trust
        and f.urgency < t.silent_max_urgency
        and f.reversibility > t.silent_min_reversibility
    ):
        return Lane.SILENT, "silent", "untrusted, calm, reversible: noise"
    if s.scheduling and not (s.marketing or s.cold_pitch or _no_push(s, facts, t)):
        return Lane.MEETING, "meeting", "scheduling"
    if (s.transactional or s.list_discussion or s.auto_reply) and f.urgency < t.info_max_urgency:
        return Lane.INFO, "info", "calm record"
    if (s.marketing or s.cold_pitch) and f.urgency < t.info_max_urgency:
        return Lane.INFO, "info", "a promotion or a sales pitch: a record"
    return Lane.QUEUE, "queue", "default"


def decide(
    features: Features,
    signals: Signals,
    facts: Facts = Facts(),
    thresholds: Thresholds = THRESHOLDS,
) -> Decision:
    lane, branch, reason = _choose(features, signals, facts, thresholds)
    if lane in HIDDEN_LANES and _urgent(features, thresholds):
        lane, reason = Lane.QUEUE, f"{reason}; urgent, so kept visible"
    if lane is Lane.PUSH and _no_push(signals, facts, thresholds):
        lane, reason = Lane.QUEUE, f"{reason}; the sender may not interrupt, so queued"
    return _decision(
        lane,
        reason,
        _auto_eligible(lane, features, signals, facts, thresholds),
        branch,
        # Hashing the thresholds to look the version up costs more than the rest of `decide`.
        POLICY_VERSION if thresholds is THRESHOLDS else _version(thresholds),
    )


@functools.lru_cache(maxsize=256, typed=True)  # a few dozen lanes, branches and reasons
def _decision(lane: Lane, reason: str, auto_eligible: bool, branch: str,
              policy_version: str) -> Decision:
    """The Decision of these values: one frozen value for each, instead of a frozen
    dataclass made (a call of `object.__setattr__` a field) for every message."""
    return Decision(lane=lane, reason=reason, auto_eligible=auto_eligible, branch=branch,
                    policy_version=policy_version)
