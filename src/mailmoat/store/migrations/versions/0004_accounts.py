"""Live mailboxes: accounts, folder sync state, message locations, server actions.

Revision ID: 0004_accounts
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_accounts"
down_revision = "0002_seen"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "mail_accounts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(200), nullable=False, unique=True),
        sa.Column("host", sa.String(255), nullable=False),
        sa.Column("port", sa.Integer, nullable=False),
        sa.Column("tls", sa.String(10), nullable=False),
        sa.Column("username", sa.String(320), nullable=False),
        sa.Column("auth", sa.String(10), nullable=False),
        sa.Column("secret", sa.Text, nullable=False),
        sa.Column("token_endpoint", sa.String(1000), nullable=True),
        sa.Column("client_id", sa.String(500), nullable=True),
        sa.Column("client_secret", sa.Text, nullable=True),
        sa.Column("scope", sa.String(1000), nullable=True),
        sa.Column("folders", sa.JSON, nullable=False),
        sa.Column("lane_actions", sa.JSON, nullable=False),
        sa.Column("backfill_days", sa.Integer, nullable=False),
        sa.Column("max_body_bytes", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "mail_folder_state",
        sa.Column("account_id", sa.Integer,
                  sa.ForeignKey("mail_accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("folder", sa.String(500), primary_key=True),
        sa.Column("uidvalidity", sa.BigInteger, nullable=False),
        sa.Column("high_uid", sa.BigInteger, nullable=False),
        sa.Column("backfill_done", sa.Boolean, nullable=False),
        sa.Column("highest_modseq", sa.BigInteger, nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "mail_locations",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer,
                  sa.ForeignKey("mail_accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("folder", sa.String(500), nullable=False),
        sa.Column("uidvalidity", sa.BigInteger, nullable=False),
        sa.Column("uid", sa.BigInteger, nullable=False),
        sa.Column("message_id", sa.Integer,
                  sa.ForeignKey("messages.id", ondelete="CASCADE"), nullable=False),
        sa.Column("flags", sa.JSON, nullable=False),
        sa.UniqueConstraint("account_id", "folder", "uidvalidity", "uid", name="uq_mail_locations"),
    )
    op.create_index("ix_mail_locations_message", "mail_locations", ["message_id"])
    op.create_table(
        "mail_server_actions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("key", sa.String(300), nullable=False, unique=True),
        sa.Column("account_id", sa.Integer,
                  sa.ForeignKey("mail_accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("message_id", sa.Integer,
                  sa.ForeignKey("messages.id", ondelete="CASCADE"), nullable=False),
        sa.Column("lane", sa.String(10), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("argument", sa.String(500), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("detail", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("done_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_mail_server_actions_pending", "mail_server_actions",
                    ["account_id", "status"])
    op.create_table(
        "mail_applied_lanes",
        sa.Column("account_id", sa.Integer,
                  sa.ForeignKey("mail_accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("message_id", sa.Integer,
                  sa.ForeignKey("messages.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("lane", sa.String(10), nullable=False),
        sa.Column("keyword", sa.String(200), nullable=True),
        sa.Column("folder", sa.String(500), nullable=True),
        sa.Column("mark_read", sa.Boolean, nullable=False),
        sa.Column("marked_read_by_us", sa.Boolean, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("mail_applied_lanes")
    op.drop_table("mail_server_actions")
    op.drop_table("mail_locations")
    op.drop_table("mail_folder_state")
    op.drop_table("mail_accounts")
