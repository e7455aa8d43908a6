"""A person's relabel of one message, as the decision that replaces the stored one.

The one rule for every way a person puts mail in a lane (a move on the page or over the API,
`mailmoat correct`, a pin re-filing the sender's mail, a move on the IMAP server): the lane
still comes from the policy, with the person's choice as a pin for this message, so urgent
mail asked into a hidden lane stays visible in QUEUE (invariants 1 and 3) and PUSH asked for
mail some evidence speaks against (a suspect or cold sender) stays in QUEUE; the reason
says which re-check refused the person's lane. The branch is
"human", nothing a person filed is handled unattended (auto_eligible false), and the trace
keeps the scorer's numbers and cites the correction behind it when there is one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mailmoat.core.features import Features
from mailmoat.core.lanes import Lane
from mailmoat.core.policy import Facts, decide
from mailmoat.core.signals import Signals


def relabelled(stored: Mapping[str, Any], lane: Lane, actor: str,
               correction: int | None = None) -> dict[str, Any]:
    """The trace (`Trace.as_dict()` form) after `actor` put the message in `lane`."""
    try:
        decision = decide(Features.from_raw(stored["features"]),
                          Signals(**stored["signals"]), Facts(pinned_lane=lane))
        got, why = decision.lane, decision.reason.partition("; ")[2]
    except (KeyError, TypeError, ValueError):  # a trace from before features were stored
        got, why = lane, ""
    reason = f"moved to {lane.value} by {actor}"
    if got != lane:  # the policy's own re-check says why (urgent; or may not interrupt)
        reason += f"; {why or 'refused by the policy'} in {got.value}"
    # "undo" marks a restored trace; a fresh relabel is no restoration.
    kept = {k: v for k, v in stored.items() if k not in ("undo", "correction")}
    trace = {**kept, "lane": got.value, "branch": "human", "reason": reason,
             "auto_eligible": False}
    if correction is not None:
        trace["correction"] = correction
    return trace
