"""The rows the decision queue (the home page) lists: a lane's newest mail with what the
explainer reads (the stored trace), the arrival time and the read state. Persists nothing,
decides nothing: which lanes count as "needs you" is the web layer's."""

from __future__ import annotations

from collections.abc import Collection
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select, true

from mailmoat.store.messages import Store
from mailmoat.store.tables.messages import DecisionRow, MessageRow


def _aware(moment: datetime) -> datetime:
    # SQLite hands back naive datetimes for timezone-aware columns; they were stored as UTC.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def lane_rows(store: Store, accounts: Collection[str], lane: str, limit: int,
              hide: Collection[int] = (), offset: int = 0) -> list[dict[str, Any]]:
    """The lane's rows across `accounts`, newest first, `offset` rows skipped. One query
    per account, each read off ix_decisions_account_lane (no sort of the whole lane),
    merged here: an IN over the accounts would make the database sort every matching
    row."""
    found: list[dict[str, Any]] = []
    names = list(dict.fromkeys(accounts))
    # One account: the database skips the offset; several: each gives its first
    # offset + limit rows and the merge skips.
    skip, take = (offset, limit) if len(names) == 1 else (0, limit + offset)
    with store.sessions() as session:
        for account in names:
            rows = session.execute(
                select(MessageRow.id, MessageRow.from_name, MessageRow.from_addr,
                       MessageRow.subject, MessageRow.created_at, MessageRow.seen,
                       DecisionRow.lane, DecisionRow.trace)
                .join(DecisionRow, DecisionRow.message_id == MessageRow.id)
                .where(DecisionRow.account == account, DecisionRow.lane == lane,
                       DecisionRow.message_id.not_in(sorted(hide)) if hide else true())
                .order_by(DecisionRow.message_id.desc())
                .limit(take).offset(skip))
            found.extend({"id": r.id, "account": account, "from_name": r.from_name,
                          "from_addr": r.from_addr, "subject": r.subject,
                          "received": _aware(r.created_at), "seen": r.seen, "lane": r.lane,
                          "trace": r.trace} for r in rows)
    found.sort(key=lambda row: row["id"], reverse=True)
    return found[offset - skip:offset - skip + limit]
