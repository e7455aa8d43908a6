"""Tables of the LLM judge: usage per call, the budget ledger, the reply cache, cooldowns."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, Float, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from mailmoat.store.tables.messages import Base


class LLMUsageRow(Base):
    """One model call (or cache hit): tokens and what it cost."""

    __tablename__ = "llm_usage"
    __table_args__ = (Index("ix_llm_usage_day_user", "day", "user_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    day: Mapped[str] = mapped_column(String(10))  # UTC date, the budget's unit
    user_id: Mapped[str] = mapped_column(String(200))
    provider: Mapped[str] = mapped_column(String(200))
    model: Mapped[str] = mapped_column(String(300))
    outcome: Mapped[str] = mapped_column(String(30))  # ok | cached | a Failure value
    prompt_tokens: Mapped[int] = mapped_column(Integer, default=0)
    completion_tokens: Mapped[int] = mapped_column(Integer, default=0)
    tokens_estimated: Mapped[bool] = mapped_column(Boolean, default=False)
    cost_usd: Mapped[float] = mapped_column(Float, default=0.0)  # from our rate table
    provider_cost_usd: Mapped[float | None] = mapped_column(Float, nullable=True)  # as billed
    latency_ms: Mapped[int] = mapped_column(Integer, default=0)


class BudgetLedgerRow(Base):
    """Append-only: a pre-bill reservation per call, then a true-up of (actual - estimate)."""

    __tablename__ = "llm_budget_ledger"
    __table_args__ = (Index("ix_llm_budget_day_user", "day", "user_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    day: Mapped[str] = mapped_column(String(10))
    user_id: Mapped[str] = mapped_column(String(200))
    call_id: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(10))  # reserve | trueup
    amount_usd: Mapped[float] = mapped_column(Float)


class LLMCacheRow(Base):
    """A validated reply, keyed by sha256(model, prompt): identical content costs nothing."""

    __tablename__ = "llm_cache"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    model: Mapped[str] = mapped_column(String(300))
    reply: Mapped[dict[str, Any]] = mapped_column(JSON)
    prompt_tokens: Mapped[int] = mapped_column(Integer, default=0)
    completion_tokens: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LLMCooldownRow(Base):
    """A model (key "model:<provider>/<model>") or provider ("provider:<name>") on hold."""

    __tablename__ = "llm_cooldowns"

    key: Mapped[str] = mapped_column(String(600), primary_key=True)
    until: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    reason: Mapped[str] = mapped_column(String(30))
    set_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
