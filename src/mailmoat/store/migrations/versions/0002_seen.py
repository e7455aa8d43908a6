"""Messages remember the server's \\Seen flag (None: not known, e.g. imported from disk).

Revision ID: 0002_seen
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_seen"
down_revision = "0001_initial"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("messages") as batch:
        batch.add_column(sa.Column("seen", sa.Boolean, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("messages") as batch:
        batch.drop_column("seen")
