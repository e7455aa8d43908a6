"""Tables for learning: the append-only corrections ledger and the recipients of sent mail."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from mailmoat.store.tables.messages import Base


class CorrectionRow(Base):
    """Every lane change, approval, rejection, dismissal, pin, unpin and rule removal a
    person made, with the decision trace it corrected. Triggers reject UPDATE and DELETE;
    rules and pins are derived from these rows (core/rules.py), never stored beside them."""

    __tablename__ = "learn_corrections"
    __table_args__ = (
        Index("ix_learn_corrections_account_addr", "account", "sender_addr"),
        Index("ix_learn_corrections_account_domain", "account", "sender_domain"),
        Index("ix_learn_corrections_account_target", "account", "target"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account: Mapped[str] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(20))
    message_id: Mapped[int | None] = mapped_column(ForeignKey("messages.id"), nullable=True)
    sender_addr: Mapped[str] = mapped_column(String(500), default="")
    sender_domain: Mapped[str] = mapped_column(String(255), default="")
    target_scope: Mapped[str | None] = mapped_column(String(10), nullable=True)
    target: Mapped[str | None] = mapped_column(String(500), nullable=True)
    lane: Mapped[str | None] = mapped_column(String(10), nullable=True)
    shown_lane: Mapped[str | None] = mapped_column(String(10), nullable=True)
    trace: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    actor: Mapped[str] = mapped_column(String(200))
    note: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # An undo names the lane change it takes back (core/rules.standing).
    withdraws: Mapped[int | None] = mapped_column(Integer, nullable=True)


class SentRecipientRow(Base):
    """Who the user wrote to: one row per recipient of each message found in a Sent folder."""

    __tablename__ = "learn_sent_recipients"
    __table_args__ = (Index("ix_learn_sent_recipients_account_addr", "account", "address"),)

    message_id: Mapped[int] = mapped_column(
        ForeignKey("messages.id", ondelete="CASCADE"), primary_key=True
    )
    address: Mapped[str] = mapped_column(String(500), primary_key=True)
    account: Mapped[str] = mapped_column(String(200))
