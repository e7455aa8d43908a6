"""Build the judge from the configuration: the one place the cascade learns about models."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import Engine

from mailmoat.config import LLMConfig, load_llm_config
from mailmoat.core.fewshot import Example, model_examples
from mailmoat.core.message import Message
from mailmoat.judge.cascade import Scorer
from mailmoat.judge.llm import LLMJudge
from mailmoat.judge.state import JudgeState


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


def corrections_from(engine: Engine) -> Callable[[str, Message], list[Example]]:
    """Few-shot examples from the learn store: the account's past lane corrections most
    relevant to a message (same sender, same domain, similar content; core/fewshot.py),
    keeping only those a model may see."""
    from mailmoat.learn.service import Learning
    from mailmoat.store.repository import Store

    store = Store(engine)

    def examples(account: str, message: Message) -> list[Example]:
        # Every relevant correction, in tier order, so that dropping the ones a model may
        # not see still leaves the five best of the rest.
        found = Learning(store, account).examples(
            message.from_addr, f"{message.subject} {message.snippet}", limit=sys.maxsize)
        return model_examples(found)

    return examples


def scorers_for(engine: Engine, environ: Mapping[str, str] | None = None) -> list[Scorer]:
    judge = build_judge(engine, environ=environ)
    return [judge] if judge is not None else []


def build_drafter(engine: Engine, environ: Mapping[str, str] | None = None) -> Any:
    """AUTO's reply drafter on the configured models, or None: no model, no drafts."""
    from mailmoat.judge.drafter import LLMDrafter

    judge = build_judge(engine, environ=environ)
    return LLMDrafter(judge) if judge is not None else None
