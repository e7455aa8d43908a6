"""Learning: the append-only corrections ledger and recipients of the user's sent mail.

Revision ID: 0007_learn
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_learn"
down_revision = "0002_seen"
branch_labels = None
depends_on = None

_TS = sa.DateTime(timezone=True)
_LEDGER = "learn_corrections"


def upgrade() -> None:
    # Sender facts are read per sender address on every ingest batch.
    op.create_index("ix_learn_messages_account_from", "messages", ["account", "from_addr"])
    op.create_table(
        _LEDGER,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("account", sa.String(200), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("message_id", sa.Integer, sa.ForeignKey("messages.id")),
        sa.Column("sender_addr", sa.String(500), nullable=False),
        sa.Column("sender_domain", sa.String(255), nullable=False),
        sa.Column("target_scope", sa.String(10)),
        sa.Column("target", sa.String(500)),
        sa.Column("lane", sa.String(10)),
        sa.Column("shown_lane", sa.String(10)),
        sa.Column("trace", sa.JSON),
        sa.Column("actor", sa.String(200), nullable=False),
        sa.Column("note", sa.Text, nullable=False),
        sa.Column("created_at", _TS, nullable=False),
    )
    op.create_index("ix_learn_corrections_account_addr", _LEDGER, ["account", "sender_addr"])
    op.create_index(
        "ix_learn_corrections_account_domain", _LEDGER, ["account", "sender_domain"]
    )
    op.create_index("ix_learn_corrections_account_target", _LEDGER, ["account", "target"])
    _append_only(_LEDGER)
    op.create_table(
        "learn_sent_recipients",
        sa.Column(
            "message_id",
            sa.Integer,
            sa.ForeignKey("messages.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("address", sa.String(500), primary_key=True),
        sa.Column("account", sa.String(200), nullable=False),
    )
    op.create_index(
        "ix_learn_sent_recipients_account_addr",
        "learn_sent_recipients",
        ["account", "address"],
    )


def _append_only(table: str) -> None:
    """Corrections are history: the database itself refuses to rewrite them."""
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
        op.execute(f"DROP TRIGGER IF EXISTS {_LEDGER}_append_only ON {_LEDGER}")
        op.execute(f"DROP FUNCTION IF EXISTS {_LEDGER}_append_only()")
    op.drop_table("learn_sent_recipients")
    op.drop_table(_LEDGER)
    op.drop_index("ix_learn_messages_account_from", table_name="messages")
