"""Message views: the parsed form of each message the views show, stored once at ingest.

Messages stored before this revision have no view; the views parse them as before.

Revision ID: 0018_message_views
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018_message_views"
down_revision = "0017_jobs_leases"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "message_views",
        sa.Column("message_id", sa.Integer,
                  sa.ForeignKey("messages.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("raw_sha256", sa.String(64), nullable=False),
        sa.Column("labels", sa.JSON, nullable=False),
        sa.Column("view", sa.LargeBinary, nullable=False)  # zlib-compressed JSON,
    )


def downgrade() -> None:
    op.drop_table("message_views")
