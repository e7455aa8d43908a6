"""SQLAlchemy models: messages, their current decision, and the append-only decision ledger."""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Table,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


def table_of(row: type[Base]) -> Table:
    """A mapped class's Table for Core statements, typed as one (DeclarativeBase types
    `__table__` as the wider FromClause, which `insert`/`update` do not accept)."""
    return cast(Table, row.__table__)


class MessageRow(Base):
    __tablename__ = "messages"
    __table_args__ = (
        UniqueConstraint("account", "content_sha256", name="uq_messages_account_content"),
        Index("ix_messages_account_created", "account", "created_at"),
        # Sender facts (learn/history.py) read these columns by sender for every stored
        # batch; the index covers them, so those reads never walk a row's raw bytes
        # (migration 0011).
        Index("ix_messages_account_from", "account", "from_addr", "created_at", "seen"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account: Mapped[str] = mapped_column(String(200), default="local")
    content_sha256: Mapped[str] = mapped_column(String(64))
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    origin: Mapped[str] = mapped_column(String(20))
    folder: Mapped[str | None] = mapped_column(String(500), nullable=True)
    labels: Mapped[list[str]] = mapped_column(JSON, default=list)
    from_addr: Mapped[str] = mapped_column(String(500), default="")
    from_name: Mapped[str] = mapped_column(String(500), default="")
    subject: Mapped[str] = mapped_column(Text, default="")
    date: Mapped[str | None] = mapped_column(String(40), nullable=True)
    snippet: Mapped[str] = mapped_column(Text, default="")
    # The server's \Seen flag, kept in step by sync; None when unknown (imported from disk).
    seen: Mapped[bool | None] = mapped_column(Boolean, nullable=True, default=None)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class MessageViewRow(Base):
    """A message as its views show it, parsed once at ingest (migration 0018): sender,
    recipients, subject, date, text, attachment list, HTML parts, and the scorer-input hash
    of that parse. It holds for the raw bytes it was made from (`raw_sha256`), the labels it
    was parsed with and its `version`; when any differs (or a message stored before 0018
    has none) the views parse the bytes again, as before."""

    __tablename__ = "message_views"

    message_id: Mapped[int] = mapped_column(
        ForeignKey("messages.id", ondelete="CASCADE"), primary_key=True
    )
    version: Mapped[int] = mapped_column(Integer)
    raw_sha256: Mapped[str] = mapped_column(String(64))
    labels: Mapped[list[str]] = mapped_column(JSON, default=list)
    view: Mapped[bytes] = mapped_column(LargeBinary)  # zlib-compressed JSON


class DecisionRow(Base):
    """The current decision for a message (one row per message)."""

    __tablename__ = "decisions"
    __table_args__ = (Index("ix_decisions_account_lane", "account", "lane", "message_id"),)

    message_id: Mapped[int] = mapped_column(
        ForeignKey("messages.id", ondelete="CASCADE"), primary_key=True
    )
    account: Mapped[str] = mapped_column(String(200), default="local")
    lane: Mapped[str] = mapped_column(String(10))
    reason: Mapped[str] = mapped_column(Text)
    auto_eligible: Mapped[bool] = mapped_column(Boolean)
    branch: Mapped[str] = mapped_column(String(20))
    policy_version: Mapped[str] = mapped_column(String(40))
    source: Mapped[str] = mapped_column(String(200))
    input_hash: Mapped[str] = mapped_column(String(64))
    degraded: Mapped[bool] = mapped_column(Boolean, default=False)
    trace: Mapped[dict[str, Any]] = mapped_column(JSON)
    actor: Mapped[str] = mapped_column(String(200), default="system")
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LedgerRow(Base):
    """Every decision and every lane change, ever. Triggers reject UPDATE and DELETE."""

    __tablename__ = "decision_ledger"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    message_id: Mapped[int] = mapped_column(ForeignKey("messages.id"), index=True)
    event: Mapped[str] = mapped_column(String(30))  # decided | rejudged | corrected
    lane: Mapped[str] = mapped_column(String(10))
    trace: Mapped[dict[str, Any]] = mapped_column(JSON)
    actor: Mapped[str] = mapped_column(String(200))  # "system" or a person / policy identity
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

