"""The authority audit trail (append-only in the database) and the clock it is stamped with."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.orm import Session

from mailmoat.store.tables.act import AuditRow

Clock = Callable[[], datetime]


def utcnow() -> datetime:
    return datetime.now(UTC)


def audit(session: Session, event: str, actor: str, now: datetime, *, action_id: int | None,
          outbox_id: int | None = None, **detail: Any) -> None:
    """Add one audit entry to the caller's transaction: it commits with what it records."""
    session.add(AuditRow(action_id=action_id, outbox_id=outbox_id, event=event, actor=actor,
                         detail=detail, created_at=now))
