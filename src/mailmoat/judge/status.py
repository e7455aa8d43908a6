"""What the judge is configured with and how it is doing, for `mailmoat status` and the API.

Never shows a key: only whether the named variable is set.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import httpx
from sqlalchemy import Engine, func, select

from mailmoat.judge.config import LLMConfig
from mailmoat.judge.llm import BUDGET
from mailmoat.judge.pricing import rate_for
from mailmoat.judge.state import JudgeState, day_of, model_key, provider_key
from mailmoat.store.tables.judge import LLMUsageRow
from mailmoat.store.tables.messages import DecisionRow


def probe(base_url: str, key: str | None, timeout: float = 3.0) -> str:
    """GET {base_url}/models: "ok" or why not (status code or error type, never a body)."""
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    try:
        response = httpx.get(f"{base_url}/models", headers=headers, timeout=timeout)
    except httpx.HTTPError as exc:
        return f"down ({type(exc).__name__})"
    return "ok" if response.status_code < 400 else f"HTTP {response.status_code}"


def judge_status(
    config: LLMConfig, engine: Engine, user: str = "local", check: bool = True,
    now: datetime | None = None, environ: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    env = os.environ if environ is None else environ
    now = now or datetime.now(UTC)
    state = JudgeState(engine)
    day = day_of(now)
    providers = []
    for p in config.providers:
        key = env.get(p.api_key_env) if p.api_key_env else None
        held = state.cooling(provider_key(p), now)
        models = []
        for m in p.models:
            cooling = state.cooling(model_key(p, m), now)
            priced = rate_for(m, p.is_local, config.pricing)
            models.append({
                "model": m,
                "cooldown": None if cooling is None else
                {"reason": cooling.reason, "until": cooling.until.isoformat()},
                "rate_per_mtok": [priced.rate.input_per_mtok, priced.rate.output_per_mtok],
                "rate_row": priced.rate.pattern,
                "rate_is_default": priced.generic,
            })
        providers.append({
            "name": p.name,
            "base_url": p.base_url,
            "local": p.is_local,
            "api_key": ("not needed" if not p.api_key_env
                        else f"${p.api_key_env} " + ("set" if key else "MISSING")),
            "health": probe(p.base_url, key) if check else "not checked",
            "backoff": None if held is None else held.until.isoformat(),
            "models": models,
        })
    spent_global, spent_user = state.spent(day), state.spent(day, user)
    caps = config.budget
    global_reached = caps.global_daily_usd is not None and spent_global >= caps.global_daily_usd

    settled = LLMUsageRow.outcome.in_(("ok", "cached", BUDGET))
    with state.sessions() as session:
        answered: dict[str, int] = {}
        held_back: dict[str, int] = {}
        for u, outcome, n in session.execute(
            select(LLMUsageRow.user_id, LLMUsageRow.outcome, func.count())
            .where(LLMUsageRow.day == day, settled)
            .group_by(LLMUsageRow.user_id, LLMUsageRow.outcome)):
            tally = held_back if outcome == BUDGET else answered
            tally[u] = tally.get(u, 0) + int(n)
        # A call is refused once the spend plus its estimate would pass the cap, before
        # the spend itself reaches it: a user whose latest call was refused is at the cap.
        latest = (select(func.max(LLMUsageRow.id)).where(LLMUsageRow.day == day, settled)
                  .group_by(LLMUsageRow.user_id))
        last_refused = set(session.scalars(select(LLMUsageRow.user_id).where(
            LLMUsageRow.id.in_(latest), LLMUsageRow.outcome == BUDGET)))
        blocked = int(session.scalar(select(func.count()).select_from(LLMUsageRow).where(
            LLMUsageRow.day == day, LLMUsageRow.outcome == BUDGET)) or 0)
        degraded = int(session.scalar(select(func.count()).select_from(DecisionRow).where(
            DecisionRow.degraded.is_(True))) or 0)
    # Each mail account's judge books its own spend: one row per account that used the
    # model today (local models are free, so calls are counted as well as dollars).
    spent_by = state.spent_by_user(day)

    def reached(u: str, spent: float) -> bool:
        return global_reached or u in last_refused or (
            caps.user_daily_usd is not None and spent >= caps.user_daily_usd)

    per_user = [{"user": u, "calls": answered.get(u, 0), "spent_usd": spent_by.get(u, 0.0),
                 "calls_blocked": held_back.get(u, 0),
                 "cap_reached": reached(u, spent_by.get(u, 0.0))}
                for u in sorted(set(spent_by) | set(answered) | set(held_back))]
    return {
        "configured": config.configured,
        "providers": providers,
        "escalation": None if config.escalation is None else
        {"provider": config.escalation.provider, "model": config.escalation.model},
        "cooldown_hours": config.cooldown_hours,
        "budget": {
            "day": day,
            "user": user,
            "spent_global_usd": spent_global,
            "spent_user_usd": spent_user,
            "global_daily_usd": caps.global_daily_usd,
            "user_daily_usd": caps.user_daily_usd,
            "cap_reached": reached(user, spent_user),
            "calls_blocked_today": blocked,
            "per_user": per_user,
        },
        "usage_today": state.usage_totals(day),
        "degraded_decisions": degraded,
    }


def prometheus(status: Mapping[str, Any]) -> str:
    """The same figures as Prometheus text exposition."""
    usage, budget = status["usage_today"], status["budget"]
    ratio = usage["metering_ratio"]
    lines = [
        "# HELP mailmoat_llm_metering_ratio Metered cost / provider-billed cost (1 = right).",
        "# TYPE mailmoat_llm_metering_ratio gauge",
        f"mailmoat_llm_metering_ratio {'NaN' if ratio is None else repr(float(ratio))}",
        "# TYPE mailmoat_llm_spent_usd gauge",
        f"mailmoat_llm_spent_usd {budget['spent_global_usd']!r}",
        "# TYPE mailmoat_llm_budget_cap_reached gauge",
        f"mailmoat_llm_budget_cap_reached {int(budget['cap_reached'])}",
        "# TYPE mailmoat_llm_calls_today gauge",
        f"mailmoat_llm_calls_today {usage['calls']}",
        "# TYPE mailmoat_degraded_decisions gauge",
        f"mailmoat_degraded_decisions {status['degraded_decisions']}",
    ]
    return "\n".join(lines) + "\n"
