"""When unattended work may happen, and when a decision deserves a human look.

Three switches, all required for an unattended reply: the account's mode is AUTO, the
message's `auto_eligible` flag is set (policy), and the reply goes only to the original
sender within the daily cap. Even then the reply runs through the same guarded executor
with a receipt minted under a policy identity.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from mailmoat.core.features import Features
from mailmoat.core.policy import AUTO_LANES, THRESHOLDS, Decision, Facts


class Mode(StrEnum):
    SUGGEST = "SUGGEST"  # read and propose only: the default
    AUTO = "AUTO"  # opt-in per account


def policy_identity(account: str) -> str:
    """The approver name on receipts minted for unattended replies."""
    return f"auto:{account}"


@dataclass(frozen=True, slots=True)
class AutoReplyRequest:
    mode: Mode
    decision: Decision
    original_sender: str  # normalised address of the message's From
    recipient: str  # normalised address the draft would go to
    sent_today: int
    daily_cap: int
    model_available: bool


def may_auto_reply(req: AutoReplyRequest) -> tuple[bool, str]:
    """(allowed, reason). Pure: the caller supplies counts and the current mode."""
    if req.mode is not Mode.AUTO:
        return False, "account is in SUGGEST mode"
    if not req.model_available:
        return False, "no model available: AUTO drafts nothing"
    if not req.decision.auto_eligible:
        return False, "message is not auto-eligible"
    if req.decision.lane not in AUTO_LANES:
        return False, f"lane {req.decision.lane.value} is not eligible for replies"
    if not req.original_sender or req.recipient != req.original_sender:
        return False, "a reply may go only to the original sender"
    if req.sent_today >= req.daily_cap:
        return False, f"daily cap of {req.daily_cap} unattended replies reached"
    return True, "eligible"


def is_automated_mail(auto_submitted: str, precedence: str) -> bool:
    """Mail a machine sent (RFC 3834 Auto-Submitted, bulk/list/junk Precedence). An unattended
    reply to it could start a loop between two responders, so AUTO never answers it."""
    marked = auto_submitted.strip().lower()
    return bool(marked and marked != "no") or precedence.strip().lower() in {
        "bulk", "list", "junk", "auto_reply"}


def may_run_unattended(mode: Mode, action_is_floor: bool) -> bool:
    """Reversible lane actions may run unattended in AUTO; floor actions never do this way."""
    return mode is Mode.AUTO and not action_is_floor


# A model "strongly disagrees" with history when it rates trust this far from what the
# observed facts support.
TRUST_DISAGREEMENT = 0.5
HIGH_CONFIDENCE = 0.85


def observed_trust(facts: Facts) -> float:
    """Trust the world supports: replies the user sent and human corrections, nothing else."""
    if facts.replies_sent >= 3:
        return 0.9
    if facts.replies_sent >= 1:
        return 0.7
    if facts.human_corrections >= 1 or facts.messages_received >= 5:
        return 0.3
    return 0.0


def canary(features: Features, decision: Decision, facts: Facts) -> str | None:
    """A reason to put this decision in the triage list, or None.

    Confidence is a canary, not a credential: high confidence that the gate refuses, or a
    model trust far above what history supports, is what impersonation looks like.
    """
    high = features.confidence >= HIGH_CONFIDENCE
    would_be_eligible = (
        decision.lane in AUTO_LANES
        and features.reversibility >= THRESHOLDS.auto_min_reversibility
        and features.urgency < THRESHOLDS.auto_max_urgency
        and features.sender_trust >= THRESHOLDS.auto_min_trust
    )
    if high and would_be_eligible and not decision.auto_eligible:
        return "high confidence, but no history corroborates this sender"
    gap = features.sender_trust - observed_trust(facts)
    if gap >= TRUST_DISAGREEMENT:
        return f"model trust {features.sender_trust:.2f} far above observed history"
    return None
