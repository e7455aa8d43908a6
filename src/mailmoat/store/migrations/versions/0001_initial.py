"""Messages, current decisions and the append-only decision ledger.

Revision ID: 0001_initial
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001_initial"
down_revision = None
branch_labels = None
depends_on = None

_TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "messages",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("account", sa.String(200), nullable=False),
        sa.Column("content_sha256", sa.String(64), nullable=False),
        sa.Column("raw", sa.LargeBinary, nullable=False),
        sa.Column("origin", sa.String(20), nullable=False),
        sa.Column("folder", sa.String(500)),
        sa.Column("labels", sa.JSON, nullable=False),
        sa.Column("from_addr", sa.String(500), nullable=False),
        sa.Column("from_name", sa.String(500), nullable=False),
        sa.Column("subject", sa.Text, nullable=False),
        sa.Column("date", sa.String(40)),
        sa.Column("snippet", sa.Text, nullable=False),
        sa.Column("created_at", _TS, nullable=False),
        sa.UniqueConstraint("account", "content_sha256", name="uq_messages_account_content"),
    )
    op.create_index("ix_messages_account_created", "messages", ["account", "created_at"])
    op.create_table(
        "decisions",
        sa.Column(
            "message_id",
            sa.Integer,
            sa.ForeignKey("messages.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("account", sa.String(200), nullable=False),
        sa.Column("lane", sa.String(10), nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("auto_eligible", sa.Boolean, nullable=False),
        sa.Column("branch", sa.String(20), nullable=False),
        sa.Column("policy_version", sa.String(40), nullable=False),
        sa.Column("source", sa.String(200), nullable=False),
        sa.Column("input_hash", sa.String(64), nullable=False),
        sa.Column("degraded", sa.Boolean, nullable=False),
        sa.Column("trace", sa.JSON, nullable=False),
        sa.Column("actor", sa.String(200), nullable=False),
        sa.Column("updated_at", _TS, nullable=False),
    )
    op.create_index("ix_decisions_account_lane", "decisions", ["account", "lane", "message_id"])
    op.create_table(
        "decision_ledger",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("message_id", sa.Integer, sa.ForeignKey("messages.id"), nullable=False),
        sa.Column("event", sa.String(30), nullable=False),
        sa.Column("lane", sa.String(10), nullable=False),
        sa.Column("trace", sa.JSON, nullable=False),
        sa.Column("actor", sa.String(200), nullable=False),
        sa.Column("created_at", _TS, nullable=False),
    )
    op.create_index("ix_decision_ledger_message_id", "decision_ledger", ["message_id"])
    _append_only("decision_ledger")


def _append_only(table: str) -> None:
    """The ledger is history: the database itself refuses to rewrite it."""
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
    dialect = op.get_bind().dialect.name
    if dialect == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS decision_ledger_append_only ON decision_ledger")
        op.execute("DROP FUNCTION IF EXISTS decision_ledger_append_only()")
    op.drop_table("decision_ledger")
    op.drop_table("decisions")
    op.drop_table("messages")
