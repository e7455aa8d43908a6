"""The address an account sends as: what the approvals page shows in From (the same address
services/outbox.py gives the SMTP transport: the submission's From, stored as the login name
when none was given)."""

from __future__ import annotations

from sqlalchemy import Engine, select

from mailmoat.store.tables.accounts import AccountRow, SubmissionRow


def sending_address(engine: Engine, account: str) -> str | None:
    """None: the account has no SMTP submission (or is not a mail account at all)."""
    with engine.connect() as conn:
        found = conn.execute(
            select(SubmissionRow.from_addr).join(AccountRow, AccountRow.id ==
                                                 SubmissionRow.account_id)
            .where(AccountRow.name == account)).scalar()
    return str(found) if found else None
