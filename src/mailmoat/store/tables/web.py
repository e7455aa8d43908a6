"""Tables for the web interface and notifications: people, sessions, their settings, and what
was notified. Mail rows stay in
store/tables/messages.py; everything here is keyed by a user or by the
mail account string those rows carry, so every read can be scoped to its owner."""

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


class UserRow(Base):
    __tablename__ = "web_users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(100), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200))  # argon2id, encoded with salt
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class UserAccountRow(Base):
    """Which mail accounts (the `account` string on messages) a user may read."""

    __tablename__ = "web_user_accounts"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("web_users.id", ondelete="CASCADE"), primary_key=True
    )
    account: Mapped[str] = mapped_column(String(200), primary_key=True)


class SessionRow(Base):
    """A signed-in browser. Only the sha256 of the cookie value is stored."""

    __tablename__ = "web_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("web_users.id", ondelete="CASCADE"),
                                         index=True)
    account: Mapped[str] = mapped_column(String(200))  # the account this session is viewing
    csrf_token: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LoginFailureRow(Base):
    """Failed sign-ins per key ("user:<name>" or "ip:<addr>"), for throttling."""

    __tablename__ = "web_login_failures"
    __table_args__ = (Index("ix_web_login_failures_key_at", "key", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(300))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SecretRow(Base):
    """Keys made on first run (link-signing key, VAPID key pair). Never shown or logged."""

    __tablename__ = "web_secrets"

    name: Mapped[str] = mapped_column(String(100), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class AccountSettingsRow(Base):
    """Per mail account: mode, notification channels and windows (a validated JSON document)."""

    __tablename__ = "web_account_settings"

    account: Mapped[str] = mapped_column(String(200), primary_key=True)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SenderPrefRow(Base):
    """Per account and sender: a human lane pin, remote images allowed, notifications muted."""

    __tablename__ = "web_sender_prefs"

    account: Mapped[str] = mapped_column(String(200), primary_key=True)
    sender: Mapped[str] = mapped_column(String(500), primary_key=True)  # lower-case address
    pinned_lane: Mapped[str | None] = mapped_column(String(10), nullable=True)
    allow_images: Mapped[bool] = mapped_column(Boolean, default=False)
    muted: Mapped[bool] = mapped_column(Boolean, default=False)
    updated_by: Mapped[str] = mapped_column(String(200))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class NotificationRow(Base):
    """What the notifier did with each message: sent, held (for the digest), later, digested.

    At most one "sent" row per (account, message): the database itself refuses a duplicate.
    """

    __tablename__ = "notify_log"
    __table_args__ = (
        UniqueConstraint("account", "message_id", "kind", name="uq_notify_log_once"),
        Index("ix_notify_log_account_at", "account", "created_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account: Mapped[str] = mapped_column(String(200))
    message_id: Mapped[int] = mapped_column(ForeignKey("messages.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(20))  # sent | held | digested | later
    detail: Mapped[str] = mapped_column(Text, default="")
    due_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PushSubscriptionRow(Base):
    """A browser's Web Push subscription (endpoint and its public keys), owned by a user."""

    __tablename__ = "web_push_subscriptions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("web_users.id", ondelete="CASCADE"),
                                         index=True)
    account: Mapped[str] = mapped_column(String(200))
    endpoint: Mapped[str] = mapped_column(String(2000), unique=True)
    p256dh: Mapped[str] = mapped_column(String(200))
    auth: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
