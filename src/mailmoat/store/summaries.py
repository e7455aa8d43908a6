"""Small reads of one account's messages: a message's sender, subject and lane, the subjects
of several, the raw bytes, what arrived in a span (the daily digest). Another account's id
reads as missing."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import func, select

from mailmoat.store.messages import Store
from mailmoat.store.tables.messages import DecisionRow, MessageRow


class Summaries:
    def __init__(self, store: Store) -> None:
        self.sessions = store.sessions

    def get(self, message_id: int, account: str) -> dict[str, Any] | None:
        with self.sessions() as s:
            row = s.execute(
                select(MessageRow.id, MessageRow.from_addr, MessageRow.subject, DecisionRow.lane)
                .join(DecisionRow, DecisionRow.message_id == MessageRow.id)
                .where(MessageRow.id == message_id, MessageRow.account == account)).first()
            return None if row is None else {"id": row.id, "from_addr": row.from_addr,
                                              "subject": row.subject, "lane": row.lane}

    def owner(self, message_id: int, accounts: Sequence[str]) -> str | None:
        """The account the message belongs to, when it is one of `accounts`; else None."""
        if not accounts:
            return None
        with self.sessions() as s:
            account = s.scalar(select(MessageRow.account).where(MessageRow.id == message_id))
        return account if account in accounts else None

    def subjects(self, message_ids: Sequence[int], account: str) -> dict[int, str]:
        """Subjects of the account's messages among `message_ids`, in one query."""
        wanted = sorted(set(message_ids))
        if not wanted:
            return {}
        with self.sessions() as s:
            rows = s.execute(select(MessageRow.id, MessageRow.subject).where(
                MessageRow.account == account, MessageRow.id.in_(wanted)))
            return {row.id: row.subject for row in rows}

    def raw(self, message_id: int, account: str) -> bytes | None:
        with self.sessions() as s:
            row = s.get(MessageRow, message_id)
            return row.raw if row is not None and row.account == account else None

    def arrivals(self, account: str, since: datetime, until: datetime,
                 listed_lanes: Sequence[str], limit: int) -> tuple[dict[str, int],
                                                                  list[dict[str, Any]]]:
        """Mail stored in [since, until): how many per lane, and the newest `limit` of each
        lane in `listed_lanes` (id, lane, sender, subject; never a body)."""
        span = (MessageRow.account == account, MessageRow.created_at >= since,
                MessageRow.created_at < until)
        with self.sessions() as s:
            counts = {lane: int(n) for lane, n in s.execute(
                select(DecisionRow.lane, func.count())
                .join(MessageRow, DecisionRow.message_id == MessageRow.id)
                .where(*span).group_by(DecisionRow.lane))}
            listed: list[dict[str, Any]] = []
            for lane in listed_lanes:
                listed += [{"id": r.id, "lane": r.lane, "from_addr": r.from_addr,
                            "subject": r.subject} for r in s.execute(
                    select(MessageRow.id, MessageRow.from_addr, MessageRow.subject,
                           DecisionRow.lane)
                    .join(DecisionRow, DecisionRow.message_id == MessageRow.id)
                    .where(*span, DecisionRow.lane == lane)
                    .order_by(MessageRow.id.desc()).limit(limit))]
        return counts, listed
