"""MCP gateway: registered agent clients, and an index for counting an actor's recent calls.

Revision ID: 0015_mcp_agents
Revises: 0014_act_receipt_mac
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015_mcp_agents"
down_revision = "0014_act_receipt_mac"
branch_labels = None
depends_on = None

_TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "mcp_agents",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(64), nullable=False, unique=True),
        sa.Column("token_sha256", sa.String(64), nullable=False, unique=True),
        sa.Column("scopes", sa.JSON, nullable=False),
        sa.Column("accounts", sa.JSON, nullable=False),
        sa.Column("rate_per_minute", sa.Integer, nullable=False),
        sa.Column("daily_proposals", sa.Integer, nullable=False),
        sa.Column("created_by", sa.String(200), nullable=False),
        sa.Column("created_at", _TS, nullable=False),
        sa.Column("revoked_at", _TS, nullable=True),
    )
    # The rate limit counts one agent's calls in the last minute from the audit trail.
    op.create_index("ix_act_audit_actor_created", "act_audit", ["actor", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_act_audit_actor_created", table_name="act_audit")
    op.drop_table("mcp_agents")
