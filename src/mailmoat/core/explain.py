"""One line, in a person's words, for why a message is where it is: read off its stored
decision trace (core/trace.py), never recomputed. The numbers and sources stay on the trace
page; this is what the decision queue shows beside each row.

Pure: a trace dict in, a short sentence out. A trace the explainer does not recognise (an
older shape, a branch added later) falls back to the policy's own reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mailmoat.core.policy import THRESHOLDS

_TOPIC = (  # signal -> what the mail is about, most telling first
    ("security_alert", "a security notice"),
    ("urgent_wording", "urgent wording"),
    ("action_requested", "a request to act"),
    ("scheduling", "a question of when to meet"),
)


def _who(signals: Mapping[str, Any], external: Mapping[str, Any]) -> str:
    if signals.get("same_org"):
        return "a colleague"
    if int(external.get("replies_sent") or 0) > 0:
        return "someone you write to"
    if int(external.get("messages_received") or 0) > 1:
        return "a sender you hear from but never answer"
    if signals.get("automated_sender"):
        return "an automated sender"
    return "a sender you have not written to"


def _topic(signals: Mapping[str, Any], default: str) -> str:
    return next((words for name, words in _TOPIC if signals.get(name)), default)


def _suspect(evidence: Mapping[str, Any]) -> str:
    reasons = [str(r).strip() for r in evidence.get("phishing_reasons") or [] if str(r).strip()]
    return "looks like a scam" + (f": {reasons[0]}" if reasons else ", so it is never pushed")


def _record(signals: Mapping[str, Any]) -> str:
    if signals.get("auto_reply"):
        return "an automatic reply (out of office or similar): nothing to answer"
    if signals.get("list_discussion"):
        return "a mailing-list discussion: kept as a record"
    return "a receipt, confirmation or status notice: nothing to answer"


def _held_back(trace: Mapping[str, Any], signals: Mapping[str, Any]) -> bool:
    """Urgent enough to push, but the policy's no-push evidence held it in the queue."""
    urgency = float((trace.get("features") or {}).get("urgency") or 0.0)
    return urgency >= THRESHOLDS.push_urgency and any(
        signals.get(name) for name in ("unsolicited", "cold_unsolicited", "spam_verdict",
                                       "auto_reply"))


def why(trace: Mapping[str, Any]) -> str:
    """The one-line reason for a stored decision, e.g. "urgent wording from a colleague"."""
    branch = str(trace.get("branch") or "")
    lane = str(trace.get("lane") or "")
    signals: Mapping[str, Any] = trace.get("signals") or {}
    external: Mapping[str, Any] = trace.get("external") or {}
    evidence: Mapping[str, Any] = trace.get("evidence") or {}
    reason = str(trace.get("reason") or "")
    who = _who(signals, external)
    if branch == "pin":
        line = f"you always put this sender in {lane}"
    elif branch == "suspect" or signals.get("phishing"):
        line = _suspect(evidence)
    elif branch == "rule":
        line = f"you moved this sender's mail to {lane} before"
    elif branch == "unsure":
        line = "unclear what this is, so it stays in view"
    elif branch == "push":
        line = f"{_topic(signals, 'urgent')} from {who}"
    elif branch == "meeting":
        line = f"asks about a time to meet, from {who}"
    elif branch == "info":
        line = _record(signals)
    elif branch == "silent":
        line = f"bulk or promotional mail from {who}"
    elif branch == "queue" and _held_back(trace, signals):
        line = (f"{_topic(signals, 'urgent-sounding mail')} from {who}; this sender may not "
                "interrupt you, so it waits")
    elif branch == "queue":
        line = (f"a person writing to you, nothing urgent ({who})" if signals.get("personal")
                else "nothing urgent: read it when you have time")
    else:
        return reason or "no reason recorded"
    if "kept visible" in reason and branch not in ("unsure", "suspect"):
        line += "; it sounds urgent, so it stays in view"
    elif "may not interrupt" in reason:
        line += "; this sender may not interrupt you, so it waits"
    return line
