"""One head: join the five feature branches (judge, web, outbox, learning, live mailboxes).

Revision ID: 0013_one_head
Revises: 0003_judge, 0006_web, 0009_outbox_staged, 0011_sender_index, 0012_action_message_index

Every later migration hangs off this one, so `alembic heads` names exactly one revision.
It changes no table.
"""

from __future__ import annotations

revision = "0013_one_head"
down_revision = (
    "0003_judge",
    "0006_web",
    "0009_outbox_staged",
    "0011_sender_index",
    "0012_action_message_index",
)
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
