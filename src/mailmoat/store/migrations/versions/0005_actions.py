"""Authority: proposed actions, the outbox, attachment blobs, account modes, triage, audit.

Revision ID: 0005_actions
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_actions"
down_revision = "0002_seen"
branch_labels = None
depends_on = None

_TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "act_actions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("account", sa.String(200), nullable=False),
        sa.Column("action", sa.String(40), nullable=False),
        sa.Column("payload", sa.JSON, nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("source", sa.String(20), nullable=False),
        sa.Column("proposed_by", sa.String(200), nullable=False),
        sa.Column("proposed_at", _TS, nullable=False),
        sa.Column(
            "reply_to_message",
            sa.Integer,
            sa.ForeignKey("messages.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("receipt", sa.JSON, nullable=True),
        sa.Column("decided_by", sa.String(200), nullable=True),
        sa.Column("decided_at", _TS, nullable=True),
        sa.Column("revision", sa.Integer, nullable=False),
        sa.Column("note", sa.Text, nullable=False),
    )
    op.create_index("ix_act_actions_account_status", "act_actions", ["account", "status", "id"])
    op.create_table(
        "act_outbox",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("action_id", sa.Integer, sa.ForeignKey("act_actions.id"), nullable=False),
        sa.Column("idempotency_key", sa.String(64), nullable=False, unique=True),
        sa.Column("account", sa.String(200), nullable=False),
        sa.Column("action", sa.String(40), nullable=False),
        sa.Column("payload", sa.JSON, nullable=False),
        sa.Column("receipt", sa.JSON, nullable=False),
        sa.Column("message_id", sa.String(300), nullable=False),
        sa.Column("raw", sa.LargeBinary, nullable=True),
        sa.Column("state", sa.String(20), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("next_attempt_at", _TS, nullable=False),
        sa.Column("claimed_by", sa.String(200), nullable=True),
        sa.Column("lease_until", _TS, nullable=True),
        sa.Column("last_error", sa.Text, nullable=False),
        sa.Column("created_at", _TS, nullable=False),
        sa.Column("finished_at", _TS, nullable=True),
    )
    op.create_index("ix_act_outbox_action_id", "act_outbox", ["action_id"])
    op.create_index("ix_act_outbox_due", "act_outbox", ["state", "next_attempt_at"])
    op.create_table(
        "act_attachments",
        sa.Column("sha256", sa.String(64), primary_key=True),
        sa.Column("content", sa.LargeBinary, nullable=False),
    )
    op.create_table(
        "act_account_modes",
        sa.Column("account", sa.String(200), primary_key=True),
        sa.Column("mode", sa.String(10), nullable=False),
        sa.Column("guidelines", sa.Text, nullable=False),
        sa.Column("daily_cap", sa.Integer, nullable=False),
        sa.Column("updated_by", sa.String(200), nullable=False),
        sa.Column("updated_at", _TS, nullable=False),
    )
    op.create_table(
        "act_triage",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("account", sa.String(200), nullable=False),
        sa.Column(
            "message_id",
            sa.Integer,
            sa.ForeignKey("messages.id", ondelete="CASCADE"),
            nullable=False,
            unique=True,
        ),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("created_at", _TS, nullable=False),
        sa.Column("resolved_by", sa.String(200), nullable=True),
        sa.Column("resolved_at", _TS, nullable=True),
    )
    op.create_index("ix_act_triage_account_open", "act_triage", ["account", "resolved_at"])
    op.create_table(
        "act_audit",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("action_id", sa.Integer, nullable=True),
        sa.Column("outbox_id", sa.Integer, nullable=True),
        sa.Column("event", sa.String(40), nullable=False),
        sa.Column("actor", sa.String(200), nullable=False),
        sa.Column("detail", sa.JSON, nullable=False),
        sa.Column("created_at", _TS, nullable=False),
    )
    op.create_index("ix_act_audit_action_id", "act_audit", ["action_id"])
    _append_only("act_audit")


def _append_only(table: str) -> None:
    """The audit trail is history: the database itself refuses to rewrite it."""
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        for verb in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER {table}_no_{verb.lower()} BEFORE {verb} ON {table} "
                f"BEGIN SELECT RAISE(ABORT, '{table} is append-only'); END"
            )
    elif dialect == "postgresql":
        op.execute(
            f"CREATE FUNCTION {table}_append_only() RETURNS trigger AS $$ BEGIN "
            f"RAISE EXCEPTION '{table} is append-only'; END; $$ LANGUAGE plpgsql"
        )
        op.execute(
            f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
            f"FOR EACH ROW EXECUTE FUNCTION {table}_append_only()"
        )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS act_audit_append_only ON act_audit")
        op.execute("DROP FUNCTION IF EXISTS act_audit_append_only()")
    for table in ("act_audit", "act_triage", "act_account_modes", "act_attachments",
                  "act_outbox", "act_actions"):
        op.drop_table(table)
