"""Model comparison on an eval set: the local metrics plus tokens and cost, one row per model."""

from __future__ import annotations

import dataclasses
import os
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine

from mailmoat.core.message import Message
from mailmoat.core.policy import Facts
from mailmoat.core.trace import Trace
from mailmoat.eval.runner import EvalItem, EvalReport, evaluate
from mailmoat.judge.cascade import classify
from mailmoat.judge.config import ConfigError, LLMConfig, ProviderConfig
from mailmoat.judge.llm import LLMJudge
from mailmoat.judge.pricing import cost_usd, rate_for
from mailmoat.judge.state import JudgeState, Usage

ANSWERED = ("ok", "cached")


@dataclass(frozen=True, slots=True)
class ModelRun:
    provider: str
    model: str
    report: EvalReport
    prompt_tokens: list[int]  # per email that the model answered
    completion_tokens: list[int]
    cost_usd: float  # at the rate table, cache hits priced as if called
    degraded: int  # emails the model did not answer (local scorer decided)

    @property
    def median_prompt_tokens(self) -> float | None:
        return statistics.median(self.prompt_tokens) if self.prompt_tokens else None

    @property
    def median_completion_tokens(self) -> float | None:
        return statistics.median(self.completion_tokens) if self.completion_tokens else None

    @property
    def cost_per_1000(self) -> float:
        answered = len(self.prompt_tokens)
        return self.cost_usd / answered * 1000 if answered else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "provider": self.provider,
            "model": self.model,
            **self.report.as_dict(),
            "median_prompt_tokens": self.median_prompt_tokens,
            "median_completion_tokens": self.median_completion_tokens,
            "mean_prompt_tokens": statistics.fmean(self.prompt_tokens)
            if self.prompt_tokens else None,
            "cost_per_1000_emails_usd": self.cost_per_1000,
            "degraded": self.degraded,
        }


def models_to_compare(config: LLMConfig, model: str | None) -> list[tuple[ProviderConfig, str]]:
    """(provider, model) pairs to compare: one model, or every configured model."""
    if model is None:
        return [(p, m) for p in config.providers for m in p.models]
    for p in config.providers:
        if model in p.models:
            return [(p, model)]
    if not config.providers:
        raise ConfigError("no LLM provider configured (set MAILMOAT_LLM_BASE_URL)")
    return [(config.providers[0], model)]


def compare_models(
    name: str, items: Sequence[EvalItem], config: LLMConfig, engine: Engine,
    models: Sequence[str] = (), environ: Mapping[str, str] | None = None,
) -> list[ModelRun]:
    choices: list[str | None] = [*models] or [None]
    pairs = [pair for m in choices for pair in models_to_compare(config, m)]
    runs = []
    for provider, model in pairs:
        only = dataclasses.replace(provider, models=(model,))
        judge = LLMJudge(config=dataclasses.replace(config, providers=(only,), escalation=None),
                         state=JudgeState(engine), usage_log=[],
                         environ=environ or os.environ)  # LLMJudge's own default
        per_email: list[list[Usage]] = []

        def run(message: Message, facts: Facts, judge: LLMJudge = judge,
                per_email: list[list[Usage]] = per_email) -> Trace:
            log = judge.usage_log if judge.usage_log is not None else []
            start = len(log)
            trace = classify(message, facts, scorers=[judge])
            per_email.append(log[start:])
            return trace

        report = evaluate(name, items, judge=run)
        rate = rate_for(model, provider.is_local, config.pricing).rate
        prompt, completion, cost, degraded = [], [], 0.0, 0
        for calls in per_email:
            answered = [u for u in calls if u.outcome in ANSWERED]
            if not answered:
                degraded += 1
                continue
            p = sum(u.prompt_tokens for u in calls)
            c = sum(u.completion_tokens for u in calls)
            prompt.append(p)
            completion.append(c)
            cost += cost_usd(rate, p, c)
        runs.append(ModelRun(provider.name, model, report, prompt, completion, cost, degraded))
    return runs
