"""A person's changes to a message's decision: re-file it (the same rule as a correction,
core/relabel.py), undo the latest correction, list the corrections, and how decisions were
made (degraded, by which source). Every method takes the account and filters by it, so a
caller cannot read or change another account's message by passing its id."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from mailmoat.core.lanes import Lane
from mailmoat.core.relabel import relabelled
from mailmoat.store.db import aware, now
from mailmoat.store.messages import Store, replace_decision
from mailmoat.store.tables.messages import DecisionRow, LedgerRow, MessageRow


class Decisions:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.sessions = store.sessions

    def _owned(self, message_id: int, account: str) -> bool:
        with self.sessions() as s:
            row = s.get(DecisionRow, message_id)
            return row is not None and row.account == account

    def move(self, message_id: int, account: str, lane: Lane, actor: str) -> str | None:
        """Re-file one message into `lane` as a person's relabel (core/relabel.py: the same
        rule as a correction, so urgent mail asked into a hidden lane lands QUEUE). The lane
        it got, or None if the message is not this account's. A person's own move also
        records a correction (services/relabel.py); this re-files a pinned sender's mail.
        """
        with self.sessions.begin() as s:
            row = s.get(DecisionRow, message_id)
            if row is None or row.account != account:
                return None
            trace = relabelled(row.trace, lane, actor)
            replace_decision(s, row, trace, actor, now())
            return str(trace["lane"])

    def undo(
        self, message_id: int, account: str, actor: str,
        also: Callable[[Session, dict[str, Any]], object] | None = None,
    ) -> str | None:
        """Put back the decision in force before the latest correction, recorded as a new
        "corrected" ledger entry (history is append-only). The lane now, or None when the
        message is not this account's or has nothing to undo. `also` runs in the same
        transaction with the trace being undone (learn/ withdraws the correction behind it)."""
        if not self._owned(message_id, account):
            return None
        history = self.store.ledger(message_id)
        if not history or history[-1]["event"] != "corrected":
            return None
        # Walk back over corrections that were themselves undos of the entries before them.
        index, skip = len(history) - 1, 0
        while index >= 0:
            entry = history[index]
            if entry["event"] == "corrected" and entry["trace"].get("undo"):
                skip += 1
            elif skip:
                skip -= 1
            else:
                break
            index -= 1
        if index <= 0:
            return None
        previous = dict(history[index - 1]["trace"])
        previous["undo"] = True
        at = now()
        with self.sessions.begin() as s:
            row = s.get(DecisionRow, message_id)
            assert row is not None
            if also is not None:
                also(s, dict(row.trace))
            row.lane, row.reason = previous["lane"], previous["reason"]
            row.auto_eligible, row.branch = previous["auto_eligible"], previous["branch"]
            row.policy_version, row.source = previous["policy_version"], previous["source"]
            row.degraded, row.trace, row.actor, row.updated_at = (
                previous["degraded"], previous, actor, at)
            s.add(LedgerRow(message_id=message_id, event="corrected", lane=previous["lane"],
                            trace=previous, actor=actor, created_at=at))
        return str(previous["lane"])

    def corrections(self, account: str, limit: int = 50) -> list[dict[str, Any]]:
        with self.sessions() as s:
            rows = s.execute(
                select(LedgerRow.message_id, LedgerRow.lane, LedgerRow.actor,
                       LedgerRow.created_at, MessageRow.subject)
                .join(MessageRow, MessageRow.id == LedgerRow.message_id)
                .where(MessageRow.account == account, LedgerRow.event == "corrected")
                .order_by(LedgerRow.id.desc()).limit(limit))
            return [{"message_id": m, "lane": lane, "actor": actor,
                     "at": aware(at).isoformat(), "subject": subject}
                    for m, lane, actor, at, subject in rows]

    def health(self, account: str) -> dict[str, int]:
        with self.sessions() as s:
            total, degraded = s.execute(
                select(func.count(), func.count().filter(DecisionRow.degraded.is_(True)))
                .where(DecisionRow.account == account)).one()
            sources = dict(s.execute(select(DecisionRow.source, func.count())
                                     .where(DecisionRow.account == account)
                                     .group_by(DecisionRow.source)).all())
        return {"total": int(total), "degraded": int(degraded),
                **{f"source:{k}": int(v) for k, v in sources.items()}}
