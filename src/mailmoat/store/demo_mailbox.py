"""The demo mailbox in a person's view: whether an account holds demo mail only, and taking
it out of one person's accounts. The mail itself stays stored (its decisions are in the
append-only ledger); it is just no longer shown to that person."""

from __future__ import annotations

from sqlalchemy import delete, func, select

from mailmoat.store.messages import Store
from mailmoat.store.tables.messages import MessageRow
from mailmoat.store.tables.web import UserAccountRow, UserRow

DEMO_ORIGIN = "demo"  # what demo.import_demo stores as a message's origin


def demo_only(store: Store, account: str) -> bool:
    """True when the account holds mail and all of it came from the demo import."""
    with store.sessions() as session:
        rows = session.execute(
            select(MessageRow.origin == DEMO_ORIGIN, func.count())
            .where(MessageRow.account == account)
            .group_by(MessageRow.origin == DEMO_ORIGIN)).all()
    found = {bool(demo): int(n) for demo, n in rows}
    return found.get(True, 0) > 0 and found.get(False, 0) == 0


def leave_account(store: Store, username: str, account: str) -> bool:
    """The person no longer reads `account`. False when they did not."""
    with store.sessions.begin() as session:
        user_id = session.scalar(select(UserRow.id).where(UserRow.username == username))
        if user_id is None:
            return False
        done = session.execute(delete(UserAccountRow).where(
            UserAccountRow.user_id == user_id, UserAccountRow.account == account))
        return bool(getattr(done, "rowcount", 0))
