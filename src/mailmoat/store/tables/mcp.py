"""Tables for the MCP gateway: the outside agents a person registered, each with a hashed
token, the scopes and accounts granted, and its limits. Calls are recorded in the authority
audit trail (act_audit), under the agent's name."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, DateTime, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from mailmoat.store.tables.messages import Base

_TS = DateTime(timezone=True)


class AgentRow(Base):
    """One agent client. The token itself is never stored: only its sha256."""

    __tablename__ = "mcp_agents"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    token_sha256: Mapped[str] = mapped_column(String(64), unique=True)
    scopes: Mapped[list[str]] = mapped_column(JSON)  # "read", "propose"
    accounts: Mapped[list[str]] = mapped_column(JSON)  # the accounts granted
    rate_per_minute: Mapped[int] = mapped_column(Integer)
    daily_proposals: Mapped[int] = mapped_column(Integer)
    created_by: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(_TS)
    revoked_at: Mapped[datetime | None] = mapped_column(_TS, nullable=True)
