"""Small reads of one account's messages: a message's sender, subject and lane, the subjects
of several, the raw bytes. Another account's id reads as missing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select

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
