"""The rate table: USD per million tokens, first matching row wins (pure).

Specific rows come before generic ones. A paid model no row names is billed at the
conservative DEFAULT_RATE (high on purpose: an unknown price should hit the budget cap
early, not late). Local endpoints are free. Rows from the config file are checked first.
Rates are the providers' list prices when this table was written; `mailmoat status` shows
the metering ratio, so a stale row shows up as a ratio far from 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase

from mailmoat.judge.config import RateRow

RATES: tuple[RateRow, ...] = (
    RateRow("openai/gpt-4o-mini*", 0.15, 0.60),
    RateRow("gpt-4o-mini*", 0.15, 0.60),
    RateRow("openai/gpt-4.1-nano*", 0.10, 0.40),
    RateRow("gpt-4.1-nano*", 0.10, 0.40),
    RateRow("openai/gpt-4.1-mini*", 0.40, 1.60),
    RateRow("gpt-4.1-mini*", 0.40, 1.60),
    RateRow("openai/gpt-4o*", 2.50, 10.00),
    RateRow("gpt-4o*", 2.50, 10.00),
    RateRow("anthropic/claude-3.5-haiku*", 0.80, 4.00),
    RateRow("anthropic/claude-3-haiku*", 0.25, 1.25),
    RateRow("google/gemini-2.0-flash-lite*", 0.075, 0.30),
    RateRow("google/gemini-2.0-flash*", 0.10, 0.40),
    RateRow("meta-llama/llama-3.1-8b-instruct*", 0.02, 0.05),
    RateRow("meta-llama/llama-3.3-70b-instruct*", 0.13, 0.40),
    RateRow("mistralai/mistral-small*", 0.10, 0.30),
    RateRow("qwen/qwen-2.5-7b-instruct*", 0.05, 0.10),
)
DEFAULT_RATE = RateRow("*", 15.00, 75.00)
FREE = RateRow("(local)", 0.0, 0.0)


@dataclass(frozen=True, slots=True)
class Priced:
    rate: RateRow
    generic: bool  # True when only the conservative default matched


def rate_for(model: str, local: bool, extra: Sequence[RateRow] = ()) -> Priced:
    if local:
        return Priced(FREE, generic=False)
    name = model.lower()
    for row in (*extra, *RATES):
        if fnmatchcase(name, row.pattern.lower()):
            return Priced(row, generic=False)
    return Priced(DEFAULT_RATE, generic=True)


def cost_usd(rate: RateRow, prompt_tokens: int, completion_tokens: int) -> float:
    return (prompt_tokens * rate.input_per_mtok + completion_tokens * rate.output_per_mtok) / 1e6
