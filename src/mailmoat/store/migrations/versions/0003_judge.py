"""LLM judge tables: usage, budget ledger, reply cache, cooldowns.

Revision ID: 0003_judge
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_judge"
down_revision = "0002_seen"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "llm_usage",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("user_id", sa.String(200), nullable=False),
        sa.Column("provider", sa.String(200), nullable=False),
        sa.Column("model", sa.String(300), nullable=False),
        sa.Column("outcome", sa.String(30), nullable=False),
        sa.Column("prompt_tokens", sa.Integer, nullable=False),
        sa.Column("completion_tokens", sa.Integer, nullable=False),
        sa.Column("tokens_estimated", sa.Boolean, nullable=False),
        sa.Column("cost_usd", sa.Float, nullable=False),
        sa.Column("provider_cost_usd", sa.Float, nullable=True),
        sa.Column("latency_ms", sa.Integer, nullable=False),
    )
    op.create_index("ix_llm_usage_day_user", "llm_usage", ["day", "user_id"])
    op.create_table(
        "llm_budget_ledger",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("user_id", sa.String(200), nullable=False),
        sa.Column("call_id", sa.String(40), nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("amount_usd", sa.Float, nullable=False),
    )
    op.create_index("ix_llm_budget_day_user", "llm_budget_ledger", ["day", "user_id"])
    op.create_table(
        "llm_cache",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("model", sa.String(300), nullable=False),
        sa.Column("reply", sa.JSON, nullable=False),
        sa.Column("prompt_tokens", sa.Integer, nullable=False),
        sa.Column("completion_tokens", sa.Integer, nullable=False),
        sa.Column("created_at", TZ, nullable=False),
    )
    op.create_table(
        "llm_cooldowns",
        sa.Column("key", sa.String(600), primary_key=True),
        sa.Column("until", TZ, nullable=False),
        sa.Column("reason", sa.String(30), nullable=False),
        sa.Column("set_at", TZ, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("llm_cooldowns")
    op.drop_table("llm_cache")
    op.drop_index("ix_llm_budget_day_user", "llm_budget_ledger")
    op.drop_table("llm_budget_ledger")
    op.drop_index("ix_llm_usage_day_user", "llm_usage")
    op.drop_table("llm_usage")
