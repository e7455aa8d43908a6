"""Jobs: leases (one row per name) and the append-only record of every grant.

Revision ID: 0017_jobs_leases
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017_jobs_leases"
down_revision = "0016_calendar"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "job_leases",
        sa.Column("name", sa.String(300), primary_key=True),
        sa.Column("holder", sa.String(200), nullable=True),
        sa.Column("token", sa.String(64), nullable=True),
        sa.Column("acquired_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
        sa.Column("rerun", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "job_lease_grants",
        sa.Column("token", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(300), nullable=False),
        sa.Column("holder", sa.String(200), nullable=False),
        sa.Column("acquired_at", sa.Float, nullable=False),
        sa.Column("renewed_until", sa.Float, nullable=False),
        sa.Column("released_at", sa.Float, nullable=True),
    )
    op.create_index("ix_job_lease_grants_name", "job_lease_grants", ["name", "acquired_at"])


def downgrade() -> None:
    op.drop_index("ix_job_lease_grants_name", "job_lease_grants")
    op.drop_table("job_lease_grants")
    op.drop_table("job_leases")
