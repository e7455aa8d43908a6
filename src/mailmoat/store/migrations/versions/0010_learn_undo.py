"""Learning: an undo names the lane change it takes back.

Revision ID: 0010_learn_undo
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_learn_undo"
down_revision = "0007_learn"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Adding a column rewrites no row, so the ledger's append-only triggers stay as they are.
    op.add_column("learn_corrections", sa.Column("withdraws", sa.Integer, nullable=True))


def downgrade() -> None:
    op.drop_column("learn_corrections", "withdraws")
