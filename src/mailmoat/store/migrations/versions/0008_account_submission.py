"""Authority: each mail account's SMTP submission settings.

Revision ID: 0008_account_submission
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_account_submission"
down_revision = "0004_accounts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "mail_account_submission",
        sa.Column("account_id", sa.Integer,
                  sa.ForeignKey("mail_accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("host", sa.String(255), nullable=False),
        sa.Column("port", sa.Integer, nullable=False),
        sa.Column("tls", sa.String(10), nullable=False),
        sa.Column("from_addr", sa.String(320), nullable=False),
        sa.Column("login", sa.Boolean, nullable=False),
        sa.Column("sent_folder", sa.String(500), nullable=False),
        sa.Column("server_files_sent", sa.Boolean, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("mail_account_submission")
