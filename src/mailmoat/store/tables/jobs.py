"""Tables for work that several processes share: leases and the record of every grant.

`job_leases` holds one row per lease name (`sync:<account>`, `watch:<account>`, ...): its
current holder, token and expiry, and whether another job asked for a further pass while
it was held. `job_lease_grants` is append-only per grant (token): when it was granted, how
far heartbeats carried it, and when it was released (never, if its holder died). It is the
record that shows no two holders of one lease overlapped.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Float, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from mailmoat.store.tables.messages import Base


class LeaseRow(Base):
    __tablename__ = "job_leases"

    name: Mapped[str] = mapped_column(String(300), primary_key=True)
    holder: Mapped[str | None] = mapped_column(String(200), nullable=True)
    token: Mapped[str | None] = mapped_column(String(64), nullable=True)
    acquired_at: Mapped[float] = mapped_column(Float, default=0.0)
    expires_at: Mapped[float] = mapped_column(Float, default=0.0)
    rerun: Mapped[bool] = mapped_column(Boolean, default=False)


class LeaseGrantRow(Base):
    __tablename__ = "job_lease_grants"
    __table_args__ = (Index("ix_job_lease_grants_name", "name", "acquired_at"),)

    token: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(300))
    holder: Mapped[str] = mapped_column(String(200))
    acquired_at: Mapped[float] = mapped_column(Float)
    renewed_until: Mapped[float] = mapped_column(Float)
    released_at: Mapped[float | None] = mapped_column(Float, nullable=True)
