"""Tables for authority: proposed actions, the outbox, attachments, settings, triage, audit.

The outbox is where exactly-once lives: one row per approved floor action, unique on an
idempotency key derived from the receipt, holding the exact bytes that will be sent (and
replayed on every retry). The audit table is append-only, like the decision ledger.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
)
from sqlalchemy.orm import Mapped, mapped_column

from mailmoat.store.tables.messages import Base

_TS = DateTime(timezone=True)


class ActionRow(Base):
    """A proposal: the exact payload that would run, and (once approved) its receipt."""

    __tablename__ = "act_actions"
    __table_args__ = (Index("ix_act_actions_account_status", "account", "status", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account: Mapped[str] = mapped_column(String(200))
    action: Mapped[str] = mapped_column(String(40))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    # pending | approved | rejected | done | failed | cancelled
    status: Mapped[str] = mapped_column(String(20))
    source: Mapped[str] = mapped_column(String(20))  # cli | api | web | auto | mcp | sync
    proposed_by: Mapped[str] = mapped_column(String(200))
    proposed_at: Mapped[datetime] = mapped_column(_TS)
    reply_to_message: Mapped[int | None] = mapped_column(
        ForeignKey("messages.id", ondelete="SET NULL"), nullable=True
    )
    receipt: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    decided_by: Mapped[str | None] = mapped_column(String(200), nullable=True)
    decided_at: Mapped[datetime | None] = mapped_column(_TS, nullable=True)
    revision: Mapped[int] = mapped_column(Integer, default=1)  # bumped on every edit
    note: Mapped[str] = mapped_column(Text, default="")


class OutboxRow(Base):
    """One approved floor action on its way out. States:

    queued   ready to run at `next_attempt_at`
    claimed  a worker took it (lease until `lease_until`); nothing was attempted yet
    sending  the worker is about to hand the bytes over; after a crash: outcome unknown
    done     executed (sent, deleted, forwarded) and recorded
    dead     terminal: receipt mismatch, permanent refusal, retries exhausted, outcome unknown
    cancelled  withdrawn before it ran (AUTO switched off, draft edited)
    """

    __tablename__ = "act_outbox"
    __table_args__ = (Index("ix_act_outbox_due", "state", "next_attempt_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    action_id: Mapped[int] = mapped_column(ForeignKey("act_actions.id"), index=True)
    idempotency_key: Mapped[str] = mapped_column(String(64), unique=True)
    account: Mapped[str] = mapped_column(String(200))
    action: Mapped[str] = mapped_column(String(40))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    receipt: Mapped[dict[str, Any]] = mapped_column(JSON)
    message_id: Mapped[str] = mapped_column(String(300), default="")  # ours, for sends
    raw: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True)  # bytes to replay
    state: Mapped[str] = mapped_column(String(20))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(_TS)
    claimed_by: Mapped[str | None] = mapped_column(String(200), nullable=True)
    lease_until: Mapped[datetime | None] = mapped_column(_TS, nullable=True)
    last_error: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(_TS)
    finished_at: Mapped[datetime | None] = mapped_column(_TS, nullable=True)
    # The Sent copy is staged before submission (core.outbox.SentCopy): with no copy found
    # after a crash, nothing was submitted. False for rows from before staging existed.
    staged: Mapped[bool] = mapped_column(Boolean, default=False)


class AttachmentBlobRow(Base):
    """Attachment bytes by sha256: the payload names the hash, the executor re-checks it."""

    __tablename__ = "act_attachments"

    sha256: Mapped[str] = mapped_column(String(64), primary_key=True)
    content: Mapped[bytes] = mapped_column(LargeBinary)


class AccountModeRow(Base):
    """Per-account autonomy: SUGGEST (default) or AUTO, the user's guidelines, the daily cap."""

    __tablename__ = "act_account_modes"

    account: Mapped[str] = mapped_column(String(200), primary_key=True)
    mode: Mapped[str] = mapped_column(String(10))
    guidelines: Mapped[str] = mapped_column(Text, default="")
    daily_cap: Mapped[int] = mapped_column(Integer, default=5)
    updated_by: Mapped[str] = mapped_column(String(200))
    updated_at: Mapped[datetime] = mapped_column(_TS)


class TriageRow(Base):
    """A decision a person should look at: a confidence canary fired."""

    __tablename__ = "act_triage"
    __table_args__ = (Index("ix_act_triage_account_open", "account", "resolved_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account: Mapped[str] = mapped_column(String(200))
    message_id: Mapped[int] = mapped_column(
        ForeignKey("messages.id", ondelete="CASCADE"), unique=True
    )
    reason: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(_TS)
    resolved_by: Mapped[str | None] = mapped_column(String(200), nullable=True)
    resolved_at: Mapped[datetime | None] = mapped_column(_TS, nullable=True)


class AuditRow(Base):
    """Everything authority did or refused, ever. Triggers reject UPDATE and DELETE."""

    __tablename__ = "act_audit"
    # An agent's calls in the last minute are counted here (MCP rate limit; migration 0014).
    __table_args__ = (Index("ix_act_audit_actor_created", "actor", "created_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    action_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    outbox_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    event: Mapped[str] = mapped_column(String(40))
    actor: Mapped[str] = mapped_column(String(200))
    detail: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(_TS)
