"""Tables for calendars: the linked calendars (CalDAV collections and read-only ICS feeds),
their incremental-sync state, and the events synced from them."""

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
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from mailmoat.store.tables.messages import Base


class CalendarRow(Base):
    __tablename__ = "calendars"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    kind: Mapped[str] = mapped_column(String(10))  # caldav | ics
    url: Mapped[str] = mapped_column(String(2000))
    username: Mapped[str] = mapped_column(String(320), default="")
    # Sealed with accounts.secrets (AES-256-GCM); None for a public feed.
    secret: Mapped[str | None] = mapped_column(Text, nullable=True)
    account: Mapped[str | None] = mapped_column(String(200), nullable=True)  # linked mail account
    zone: Mapped[str] = mapped_column(String(100), default="UTC")  # the user's IANA zone
    sync_token: Mapped[str | None] = mapped_column(Text, nullable=True)  # RFC 6578
    ctag: Mapped[str | None] = mapped_column(Text, nullable=True)  # getctag / feed ETag
    last_sync_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class CalendarEventRow(Base):
    """One calendar object (by its href) as last synced. Times are stored in UTC."""

    __tablename__ = "calendar_events"
    __table_args__ = (
        UniqueConstraint("calendar_id", "href", name="uq_calendar_events_href"),
        Index("ix_calendar_events_start", "calendar_id", "start_at"),
        Index("ix_calendar_events_uid", "calendar_id", "uid"),
        Index("ix_calendar_events_wide", "calendar_id", "wide", "start_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    calendar_id: Mapped[int] = mapped_column(ForeignKey("calendars.id", ondelete="CASCADE"))
    href: Mapped[str] = mapped_column(String(2000))
    uid: Mapped[str] = mapped_column(String(500), default="")
    etag: Mapped[str] = mapped_column(String(500), default="")
    summary: Mapped[str] = mapped_column(String(2000), default="")  # untrusted calendar text
    start_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    end_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    all_day: Mapped[bool] = mapped_column(Boolean, default=False)
    transparent: Mapped[bool] = mapped_column(Boolean, default=False)
    rrule: Mapped[str] = mapped_column(String(500), default="")
    # Recurring, or longer than WIDE_DAYS: found by its own index, so the read of a few days
    # never scans every event that started before them.
    wide: Mapped[bool] = mapped_column(Boolean, default=False)
    problem: Mapped[str] = mapped_column(String(500), default="")  # why it has no slot
    raw: Mapped[str] = mapped_column(Text, default="")
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class MeetingProposalRow(Base):
    """The proposals made for one meeting mail: the reply and the calendar write, pending
    together so one approval can fire both (each keeps its own receipt)."""

    __tablename__ = "meeting_proposals"
    __table_args__ = (Index("ix_meeting_proposals_message", "message_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    message_id: Mapped[int] = mapped_column(ForeignKey("messages.id", ondelete="CASCADE"))
    account: Mapped[str] = mapped_column(String(200))
    answer: Mapped[str] = mapped_column(String(20))  # accept | decline | alternatives | cancel
    reply_action_id: Mapped[int | None] = mapped_column(
        ForeignKey("act_actions.id", ondelete="SET NULL"), nullable=True)
    event_action_id: Mapped[int | None] = mapped_column(
        ForeignKey("act_actions.id", ondelete="SET NULL"), nullable=True)
    context: Mapped[dict[str, Any]] = mapped_column(JSON)  # the meeting check it was built on
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
