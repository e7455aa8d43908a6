"""The judge's persistent state in the store's database: usage, budget ledger, cache,
cooldowns. Shared by every process using the same database, so a cooldown set by one
worker is honoured by all."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import Engine, delete, func, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import sessionmaker

from mailmoat.judge.config import ProviderConfig
from mailmoat.store.tables.judge import (
    BudgetLedgerRow,
    LLMCacheRow,
    LLMCooldownRow,
    LLMUsageRow,
)

BUDGET_LOCK_KEY = 0x6D6D_6A75  # "mmju": one advisory lock for the budget ledger


def day_of(now: datetime) -> str:
    return now.date().isoformat()


def endpoint(provider: ProviderConfig) -> str:
    """What a cooldown, a backoff or a cached verdict belongs to: the server (base URL), not
    the name the config gives it, so correcting a base URL starts clean and two names for
    one server share what is known about it."""
    parts = urlsplit(provider.base_url.strip())
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}{parts.path.rstrip('/')}"


def model_key(provider: ProviderConfig, model: str) -> str:
    return f"model:{endpoint(provider)}|{model}"


def provider_key(provider: ProviderConfig) -> str:
    return f"provider:{endpoint(provider)}"


@dataclass(frozen=True, slots=True)
class Usage:
    provider: str
    model: str
    outcome: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    tokens_estimated: bool = False
    cost_usd: float = 0.0
    provider_cost_usd: float | None = None
    latency_ms: int = 0


@dataclass(frozen=True, slots=True)
class Cooldown:
    key: str
    until: datetime
    reason: str


@dataclass(frozen=True, slots=True)
class CachedReply:
    reply: dict[str, Any]
    prompt_tokens: int
    completion_tokens: int


class JudgeState:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    # -- cooldowns -------------------------------------------------------------------------

    def cooling(self, key: str, now: datetime) -> Cooldown | None:
        with self.sessions() as session:
            row = session.get(LLMCooldownRow, key)
            if row is None or _aware(row.until) <= now:
                return None  # an expired cooldown means: try it again
            return Cooldown(row.key, _aware(row.until), row.reason)

    def cool(self, key: str, seconds: float, reason: str, now: datetime) -> None:
        until = now + timedelta(seconds=seconds)
        with self.sessions.begin() as session:
            row = session.get(LLMCooldownRow, key)
            if row is None:
                session.add(LLMCooldownRow(key=key, until=until, reason=reason, set_at=now))
            else:
                row.until, row.reason, row.set_at = until, reason, now

    def clear(self, key: str) -> None:
        with self.sessions.begin() as session:
            session.execute(delete(LLMCooldownRow).where(LLMCooldownRow.key == key))

    def cooldowns(self, now: datetime) -> list[Cooldown]:
        with self.sessions() as session:
            rows = session.scalars(select(LLMCooldownRow).order_by(LLMCooldownRow.key))
            return [Cooldown(r.key, _aware(r.until), r.reason) for r in rows
                    if _aware(r.until) > now]

    # -- cache -----------------------------------------------------------------------------

    def cached(self, key: str) -> CachedReply | None:
        with self.sessions() as session:
            row = session.get(LLMCacheRow, key)
            if row is None:
                return None
            return CachedReply(dict(row.reply), row.prompt_tokens, row.completion_tokens)

    def remember(self, key: str, model: str, reply: dict[str, Any], prompt_tokens: int,
                 completion_tokens: int, now: datetime) -> None:
        try:
            with self.sessions.begin() as session:
                if session.get(LLMCacheRow, key) is None:
                    session.add(LLMCacheRow(key=key, model=model, reply=reply,
                                            prompt_tokens=prompt_tokens,
                                            completion_tokens=completion_tokens,
                                            created_at=now))
        except IntegrityError:
            pass  # another worker cached the same reply first: same content, same answer

    # -- usage and budget ------------------------------------------------------------------

    def record_usage(self, user: str, usage: Usage, now: datetime) -> None:
        with self.sessions.begin() as session:
            session.add(LLMUsageRow(created_at=now, day=day_of(now), user_id=user,
                                    provider=usage.provider, model=usage.model,
                                    outcome=usage.outcome, prompt_tokens=usage.prompt_tokens,
                                    completion_tokens=usage.completion_tokens,
                                    tokens_estimated=usage.tokens_estimated,
                                    cost_usd=usage.cost_usd,
                                    provider_cost_usd=usage.provider_cost_usd,
                                    latency_ms=usage.latency_ms))

    def failing_streak(self, provider: str, model: str, outcome: str, since: datetime,
                       limit: int) -> int:
        """How many of this model's latest calls since `since` (up to `limit`, cached answers
        aside) ended with `outcome`, counted back from the newest until another outcome."""
        with self.sessions() as session:
            rows = session.scalars(
                select(LLMUsageRow.outcome)
                .where(LLMUsageRow.provider == provider, LLMUsageRow.model == model,
                       LLMUsageRow.created_at > since, LLMUsageRow.outcome != "cached")
                .order_by(LLMUsageRow.id.desc()).limit(limit))
            streak = 0
            for row in rows:
                if row != outcome:
                    break
                streak += 1
            return streak

    def spent(self, day: str, user: str | None = None) -> float:
        """Ledger total for a day (reservations still open count in full)."""
        with self.sessions() as session:
            query = select(func.coalesce(func.sum(BudgetLedgerRow.amount_usd), 0.0)).where(
                BudgetLedgerRow.day == day)
            if user is not None:
                query = query.where(BudgetLedgerRow.user_id == user)
            return float(session.scalar(query) or 0.0)

    def spent_by_user(self, day: str) -> dict[str, float]:
        """Each user's ledger total for a day (users who spent nothing are absent)."""
        with self.sessions() as session:
            rows = session.execute(
                select(BudgetLedgerRow.user_id, func.sum(BudgetLedgerRow.amount_usd))
                .where(BudgetLedgerRow.day == day)
                .group_by(BudgetLedgerRow.user_id)
                .order_by(BudgetLedgerRow.user_id))
            return {user: float(total or 0.0) for user, total in rows}

    def reserve(self, user: str, amount: float, now: datetime,
                global_cap: float | None = None, user_cap: float | None = None) -> str | None:
        """Book a pre-bill reservation unless it would pass a cap; None when it would.

        Check and booking are one transaction, serialised across workers (SQLite: the first
        write takes the database's write lock; PostgreSQL: a transaction-scoped advisory
        lock), so parallel workers cannot all pass the same remaining budget.
        """
        call_id = uuid.uuid4().hex
        day = day_of(now)
        try:
            self._reserve(call_id, day, user, amount, now, global_cap, user_cap)
        except _OverCap:
            return None  # the transaction rolled back: nothing was booked
        return call_id

    def _reserve(self, call_id: str, day: str, user: str, amount: float, now: datetime,
                 global_cap: float | None, user_cap: float | None) -> None:
        with self.sessions.begin() as session:
            if session.get_bind().dialect.name == "postgresql":
                session.execute(text("SELECT pg_advisory_xact_lock(:k)"),
                                {"k": BUDGET_LOCK_KEY})
            session.add(BudgetLedgerRow(created_at=now, day=day, user_id=user,
                                        call_id=call_id, kind="reserve", amount_usd=amount))
            session.flush()
            total = select(func.coalesce(func.sum(BudgetLedgerRow.amount_usd), 0.0)).where(
                BudgetLedgerRow.day == day)
            over = (
                (global_cap is not None and float(session.scalar(total) or 0) > global_cap)
                or (user_cap is not None and float(session.scalar(
                    total.where(BudgetLedgerRow.user_id == user)) or 0) > user_cap)
            )
            if over:
                raise _OverCap

    def true_up(self, user: str, call_id: str, estimate: float, actual: float,
                reserved_at: datetime, now: datetime) -> None:
        """Book (actual - estimate) on the reservation's day, so the day's total is exact."""
        with self.sessions.begin() as session:
            session.add(BudgetLedgerRow(created_at=now, day=day_of(reserved_at), user_id=user,
                                        call_id=call_id, kind="trueup",
                                        amount_usd=actual - estimate))

    def usage_totals(self, day: str | None = None) -> dict[str, Any]:
        with self.sessions() as session:
            query = select(
                func.count(),
                func.coalesce(func.sum(LLMUsageRow.prompt_tokens), 0),
                func.coalesce(func.sum(LLMUsageRow.completion_tokens), 0),
                func.coalesce(func.sum(LLMUsageRow.cost_usd), 0.0),
            ).where(LLMUsageRow.outcome.in_(("ok", "cached")))
            ratio_query = select(
                func.coalesce(func.sum(LLMUsageRow.cost_usd), 0.0),
                func.coalesce(func.sum(LLMUsageRow.provider_cost_usd), 0.0),
            ).where(LLMUsageRow.provider_cost_usd.is_not(None), LLMUsageRow.outcome == "ok")
            if day is not None:
                query = query.where(LLMUsageRow.day == day)
                ratio_query = ratio_query.where(LLMUsageRow.day == day)
            calls, prompt, completion, cost = session.execute(query).one()
            metered, billed = session.execute(ratio_query).one()
        return {
            "calls": int(calls),
            "prompt_tokens": int(prompt),
            "completion_tokens": int(completion),
            "cost_usd": float(cost),
            "metering_ratio": (float(metered) / float(billed)) if billed else None,
        }


class _OverCap(Exception):
    """Raised inside the reservation transaction to roll it back."""


def _aware(value: datetime) -> datetime:
    # SQLite hands back naive datetimes even for timezone=True columns; they were UTC.
    return value if value.tzinfo else value.replace(tzinfo=UTC)
