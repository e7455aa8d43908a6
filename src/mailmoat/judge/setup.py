"""Build the judge from the configuration: the one place the cascade learns about models."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Engine

from mailmoat.judge.cascade import Scorer
from mailmoat.judge.config import LLMConfig, load_llm_config
from mailmoat.judge.examples import corrections_from
from mailmoat.judge.llm import LLMJudge
from mailmoat.judge.state import JudgeState
from mailmoat.learn.live import LiveLearnedScorer


def build_judge(
    engine: Engine, config: LLMConfig | None = None, user: str = "local",
    environ: Mapping[str, str] | None = None,
) -> LLMJudge | None:
    """The LLM judge when a model is configured, else None (the local scorer decides)."""
    env = os.environ if environ is None else environ
    config = load_llm_config(env) if config is None else config
    if not config.configured:
        return None
    return LLMJudge(config=config, state=JudgeState(engine), user=user, environ=env,
                    examples=corrections_from(engine))


def scorers_for(
    engine: Engine, environ: Mapping[str, str] | None = None, config: LLMConfig | None = None,
) -> list[Scorer]:
    """The cascade's scorers for a store. With a model: the LLM judge, and the local scorer
    when it is unavailable (`local:degraded`). Without one: the scorer learned from this
    store's corrections, which answers exactly like the local scorer until it has learned."""
    judge = build_judge(engine, config, environ=environ)
    return [judge] if judge is not None else [LiveLearnedScorer(engine)]


def model_scorers(scorers: Sequence[Scorer]) -> list[Scorer]:
    """The scorers that ask a model, without the on-device learned scorer: what the heal
    sweep re-judges with, and what status calls "model configured"."""
    return [s for s in scorers if not isinstance(s, LiveLearnedScorer)]


def build_drafter(engine: Engine, environ: Mapping[str, str] | None = None) -> Any:
    """AUTO's reply drafter on the configured models, or None: no model, no drafts."""
    from mailmoat.judge.drafter import LLMDrafter

    judge = build_judge(engine, environ=environ)
    return LLMDrafter(judge) if judge is not None else None
