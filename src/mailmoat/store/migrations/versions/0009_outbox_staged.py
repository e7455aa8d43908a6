"""Authority: outbox rows whose Sent copy is staged before submission.

Revision ID: 0009_outbox_staged
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_outbox_staged"
down_revision = "0005_actions"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("act_outbox", sa.Column("staged", sa.Boolean, nullable=False,
                                          server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("act_outbox") as batch:
        batch.drop_column("staged")
