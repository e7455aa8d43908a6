"""Whether the person has read a message (messages.seen: True read, False unread, None not
known: mail imported from files). The IMAP sync keeps it in step with the server's \\Seen
flag (mailbox_state.py); this is the person's own toggle. Persists; never decides."""

from __future__ import annotations

from sqlalchemy import select, update

from mailmoat.store.messages import Store
from mailmoat.store.tables.messages import MessageRow


class ReadState:
    def __init__(self, store: Store) -> None:
        self.sessions = store.sessions

    def get(self, message_id: int, account: str) -> bool | None:
        with self.sessions() as s:
            return s.scalar(select(MessageRow.seen).where(MessageRow.id == message_id,
                                                          MessageRow.account == account))

    def set(self, message_id: int, account: str, seen: bool) -> bool:
        """Mark the account's message read or unread; True when that changed anything."""
        with self.sessions.begin() as s:
            done = s.execute(update(MessageRow).where(
                MessageRow.id == message_id, MessageRow.account == account,
                MessageRow.seen.is_not(seen)).values(seen=seen))
            return bool(getattr(done, "rowcount", 0))
