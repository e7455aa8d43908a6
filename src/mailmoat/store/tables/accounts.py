"""Tables for live mailboxes: accounts, per-folder sync state, where each message sits on
the server, and every server action mailmoat took (the record that makes them reversible)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
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


class AccountRow(Base):
    __tablename__ = "mail_accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    host: Mapped[str] = mapped_column(String(255))
    port: Mapped[int] = mapped_column(Integer)
    tls: Mapped[str] = mapped_column(String(10))  # implicit | starttls | plain
    username: Mapped[str] = mapped_column(String(320))
    auth: Mapped[str] = mapped_column(String(10))  # password | xoauth2
    # Sealed with accounts.secrets (AES-256-GCM): the password or the OAuth refresh token.
    secret: Mapped[str] = mapped_column(Text)
    token_endpoint: Mapped[str | None] = mapped_column(String(1000), nullable=True)
    client_id: Mapped[str | None] = mapped_column(String(500), nullable=True)
    client_secret: Mapped[str | None] = mapped_column(Text, nullable=True)  # sealed
    scope: Mapped[str | None] = mapped_column(String(1000), nullable=True)
    folders: Mapped[list[str]] = mapped_column(JSON, default=lambda: ["INBOX"])
    lane_actions: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    backfill_days: Mapped[int] = mapped_column(Integer, default=30)
    max_body_bytes: Mapped[int] = mapped_column(Integer, default=2 * 1024 * 1024)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class FolderStateRow(Base):
    __tablename__ = "mail_folder_state"

    account_id: Mapped[int] = mapped_column(
        ForeignKey("mail_accounts.id", ondelete="CASCADE"), primary_key=True
    )
    folder: Mapped[str] = mapped_column(String(500), primary_key=True)
    uidvalidity: Mapped[int] = mapped_column(BigInteger)
    high_uid: Mapped[int] = mapped_column(BigInteger)
    backfill_done: Mapped[bool] = mapped_column(Boolean, default=False)
    highest_modseq: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LocationRow(Base):
    """One message at one UID in one folder under one UIDVALIDITY."""

    __tablename__ = "mail_locations"
    __table_args__ = (
        UniqueConstraint("account_id", "folder", "uidvalidity", "uid", name="uq_mail_locations"),
        Index("ix_mail_locations_message", "message_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("mail_accounts.id", ondelete="CASCADE"))
    folder: Mapped[str] = mapped_column(String(500))
    uidvalidity: Mapped[int] = mapped_column(BigInteger)
    uid: Mapped[int] = mapped_column(BigInteger)
    message_id: Mapped[int] = mapped_column(ForeignKey("messages.id", ondelete="CASCADE"))
    flags: Mapped[list[str]] = mapped_column(JSON, default=list)


class ServerActionRow(Base):
    """Planned and applied server actions; `key` makes planning the same action twice a no-op."""

    __tablename__ = "mail_server_actions"
    __table_args__ = (
        Index("ix_mail_server_actions_pending", "account_id", "status"),
        Index("ix_mail_server_actions_message", "message_id", "status"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(300), unique=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("mail_accounts.id", ondelete="CASCADE"))
    message_id: Mapped[int] = mapped_column(ForeignKey("messages.id", ondelete="CASCADE"))
    lane: Mapped[str] = mapped_column(String(10))
    kind: Mapped[str] = mapped_column(String(20))
    argument: Mapped[str] = mapped_column(String(500), default="")
    status: Mapped[str] = mapped_column(String(10), default="pending")  # pending | done | failed
    detail: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    done_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class AppliedLaneRow(Base):
    """The lane whose server actions were last planned for a message. When the message's
    decision says another lane (a person, a re-judge, a learned rule changed it), the next
    sync pass plans the reversal: this row is how lane changes reach the server."""

    __tablename__ = "mail_applied_lanes"

    account_id: Mapped[int] = mapped_column(
        ForeignKey("mail_accounts.id", ondelete="CASCADE"), primary_key=True
    )
    message_id: Mapped[int] = mapped_column(
        ForeignKey("messages.id", ondelete="CASCADE"), primary_key=True
    )
    lane: Mapped[str] = mapped_column(String(10))
    # What that lane's actions were when planned, so a reversal undoes exactly them even
    # after the account's lane configuration changed.
    keyword: Mapped[str | None] = mapped_column(String(200), nullable=True)
    folder: Mapped[str | None] = mapped_column(String(500), nullable=True)
    mark_read: Mapped[bool] = mapped_column(Boolean, default=False)
    marked_read_by_us: Mapped[bool] = mapped_column(Boolean, default=False)


class SubmissionRow(Base):
    """The account's SMTP submission side. It logs in with the account's own secret (the
    password, or the XOAUTH2 token refreshed for IMAP): no second credential to keep."""

    __tablename__ = "mail_account_submission"

    account_id: Mapped[int] = mapped_column(
        ForeignKey("mail_accounts.id", ondelete="CASCADE"), primary_key=True
    )
    host: Mapped[str] = mapped_column(String(255))
    port: Mapped[int] = mapped_column(Integer)
    tls: Mapped[str] = mapped_column(String(10))  # implicit | starttls | plain
    from_addr: Mapped[str] = mapped_column(String(320))
    login: Mapped[bool] = mapped_column(Boolean, default=True)  # False: a relay without AUTH
    sent_folder: Mapped[str] = mapped_column(String(500), default="Sent")
    server_files_sent: Mapped[bool] = mapped_column(Boolean, default=False)
