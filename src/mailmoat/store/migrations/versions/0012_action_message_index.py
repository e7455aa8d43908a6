"""Server actions are found by message through an index.

A sync asks, for each batch, which of its messages' actions are planned already, and for
each message found again whether it has an action pending; the web page lists one
message's actions. Server actions were indexed only by (account, status), so each such
question read every pending action of the account. An index on (message_id, status)
answers them directly.

Revision ID: 0012_action_message_index
"""

from __future__ import annotations

from alembic import op

revision = "0012_action_message_index"
down_revision = "0008_account_submission"  # the live-mailbox branch
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_mail_server_actions_message", "mail_server_actions",
                    ["message_id", "status"])


def downgrade() -> None:
    op.drop_index("ix_mail_server_actions_message", table_name="mail_server_actions")
