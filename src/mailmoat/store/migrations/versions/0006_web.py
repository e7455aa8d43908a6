"""Web interface and notifications: users, sessions, login failures, secrets, account
settings, per-sender preferences, the notification log and Web Push subscriptions.

Revision ID: 0006_web
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_web"
down_revision = "0002_seen"
branch_labels = None
depends_on = None

_TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "web_users",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("username", sa.String(100), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created_at", _TS, nullable=False),
    )
    op.create_table(
        "web_user_accounts",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("web_users.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("account", sa.String(200), primary_key=True),
    )
    op.create_table(
        "web_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("web_users.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("account", sa.String(200), nullable=False),
        sa.Column("csrf_token", sa.String(64), nullable=False),
        sa.Column("created_at", _TS, nullable=False),
        sa.Column("expires_at", _TS, nullable=False),
    )
    op.create_index("ix_web_sessions_user_id", "web_sessions", ["user_id"])
    op.create_table(
        "web_login_failures",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("key", sa.String(300), nullable=False),
        sa.Column("at", _TS, nullable=False),
    )
    op.create_index("ix_web_login_failures_key_at", "web_login_failures", ["key", "at"])
    op.create_table(
        "web_secrets",
        sa.Column("name", sa.String(100), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )
    op.create_table(
        "web_account_settings",
        sa.Column("account", sa.String(200), primary_key=True),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("updated_at", _TS, nullable=False),
    )
    op.create_table(
        "web_sender_prefs",
        sa.Column("account", sa.String(200), primary_key=True),
        sa.Column("sender", sa.String(500), primary_key=True),
        sa.Column("pinned_lane", sa.String(10)),
        sa.Column("allow_images", sa.Boolean, nullable=False),
        sa.Column("muted", sa.Boolean, nullable=False),
        sa.Column("updated_by", sa.String(200), nullable=False),
        sa.Column("updated_at", _TS, nullable=False),
    )
    op.create_table(
        "notify_log",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("account", sa.String(200), nullable=False),
        sa.Column("message_id", sa.Integer, sa.ForeignKey("messages.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("detail", sa.Text, nullable=False),
        sa.Column("due_at", _TS),
        sa.Column("created_at", _TS, nullable=False),
        sa.UniqueConstraint("account", "message_id", "kind", name="uq_notify_log_once"),
    )
    op.create_index("ix_notify_log_account_at", "notify_log", ["account", "created_at"])
    op.create_table(
        "web_push_subscriptions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("web_users.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("account", sa.String(200), nullable=False),
        sa.Column("endpoint", sa.String(2000), nullable=False, unique=True),
        sa.Column("p256dh", sa.String(200), nullable=False),
        sa.Column("auth", sa.String(100), nullable=False),
        sa.Column("created_at", _TS, nullable=False),
    )
    op.create_index("ix_web_push_subscriptions_user_id", "web_push_subscriptions", ["user_id"])


def downgrade() -> None:
    for table in ("web_push_subscriptions", "notify_log", "web_sender_prefs",
                  "web_account_settings", "web_secrets", "web_login_failures", "web_sessions",
                  "web_user_accounts", "web_users"):
        op.drop_table(table)
