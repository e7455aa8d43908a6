"""The heal sweep: once a provider answers again, re-judge degraded decisions.

Only decisions that are still degraded and were written by the system are touched; a
decision a person corrected (actor is not the system, or a `corrected` ledger event) is
never rewritten. The guard is re-checked inside the write transaction, so a correction that
lands mid-sweep wins. A re-judge is recorded as a `rejudged` ledger event, never a new
`decided` one, and it never re-notifies: the sweep calls no notifier, and the notifier's
own log (one `sent` per message) keeps a message it already announced from being announced
again whatever lane it moves to. Every mail account is swept, each message judged for its
own account (budget, examples) with the same sender facts ingest uses. Work is done in
bounded batches and stops at the first message that is still degraded (the provider is not
back yet).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import exists, select

from mailmoat.core.message import parse_message
from mailmoat.core.policy import Facts
from mailmoat.judge.cascade import Scorer, classify
from mailmoat.store.messages import SYSTEM, Store, _decision_row
from mailmoat.store.tables.messages import DecisionRow, LedgerRow, MessageRow

REJUDGED = "rejudged"
HUMAN_EVENTS = ("corrected",)


@dataclass
class HealReport:
    rejudged: int = 0
    still_degraded: int = 0
    skipped_human: int = 0
    lanes_changed: list[tuple[int, str, str]] = field(default_factory=list)


def degraded_ids(store: Store, account: str | None, limit: int) -> list[tuple[int, str]]:
    """(message id, account) of untouched degraded decisions, oldest first; every account
    when `account` is None."""
    touched = exists().where(LedgerRow.message_id == DecisionRow.message_id,
                             LedgerRow.event.in_(HUMAN_EVENTS))
    query = (select(DecisionRow.message_id, DecisionRow.account)
             .where(DecisionRow.degraded.is_(True), DecisionRow.actor == SYSTEM, ~touched))
    if account is not None:
        query = query.where(DecisionRow.account == account)
    with store.sessions() as session:
        rows = session.execute(query.order_by(DecisionRow.message_id).limit(limit))
        return [(mid, acct) for mid, acct in rows]


def heal(
    store: Store, scorers: Sequence[Scorer], account: str | None = None, batch: int = 50,
    max_batches: int = 20,
) -> HealReport:
    """Re-judge degraded decisions of `account` (None: every account)."""
    report = HealReport()
    if not scorers:
        return report
    after: set[int] = set()
    for _ in range(max_batches):
        found = [(i, a) for i, a in degraded_ids(store, account, batch + len(after))
                 if i not in after]
        if not found:
            break
        for mid, owner in found[:batch]:
            outcome = _rejudge(store, scorers, mid, owner)
            if outcome is STILL_DEGRADED:
                report.still_degraded += 1
                return report  # the provider is not back: try again on the next sweep
            if outcome is PERSON_DECIDED:
                report.skipped_human += 1
                after.add(mid)
                continue
            assert isinstance(outcome, tuple)  # both string outcomes are handled above
            old, new = outcome
            report.rejudged += 1
            if old != new:
                report.lanes_changed.append((mid, old, new))
    return report


STILL_DEGRADED = "still degraded"
PERSON_DECIDED = "a person decided"


def _rejudge(
    store: Store, scorers: Sequence[Scorer], mid: int, account: str
) -> tuple[str, str] | str:
    """(old lane, new lane), or why the decision was left alone."""
    # Here, not at the top: learn.history imports the store, which is mid-import when
    # this module is loaded first.
    from mailmoat.learn.history import load_sender_facts

    with store.sessions() as session:
        raw_row = session.get(MessageRow, mid)
        if raw_row is None:
            return PERSON_DECIDED
        message = parse_message(raw_row.raw, labels=tuple(raw_row.labels or ()))
        now = datetime.now(UTC)
        # The same facts ingest reads (history, pins, learned rules), as they stand now.
        sender = load_sender_facts(session, account, [message.from_addr], now).get(
            message.from_addr)
    trace = classify(message, sender.to_policy() if sender else Facts(), scorers,
                     account=account)
    if trace.degraded:
        return STILL_DEGRADED
    with store.sessions.begin() as session:
        row = session.get(DecisionRow, mid, with_for_update=True)
        corrected = session.scalar(select(exists().where(
            LedgerRow.message_id == mid, LedgerRow.event.in_(HUMAN_EVENTS))))
        if row is None or row.actor != SYSTEM or not row.degraded or corrected:
            return PERSON_DECIDED  # a person got there first: their decision stands
        old = row.lane
        session.merge(_decision_row(mid, account, trace, now))
        session.add(Store._ledger(mid, REJUDGED, trace, SYSTEM, now))
    return old, trace.decision.lane.value
