"""Bootstrap: the one way to open things. The store (migrated, with the ingest decider and
the configured scorers), the judge built from the configuration (the one place the cascade
learns about models), AUTO's drafter, and the key ring that opens sealed account secrets.

Every entrypoint (CLI, web, jobs, worker) and every service opens the store here."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Engine

from mailmoat.accounts.secrets import KeyRing, load_key_ring
from mailmoat.act.drafter import LLMDrafter
from mailmoat.judge.cascade import Scorer
from mailmoat.judge.config import LLMConfig, load_llm_config
from mailmoat.judge.examples import corrections_from
from mailmoat.judge.llm import LLMJudge
from mailmoat.judge.state import JudgeState
from mailmoat.learn.live import LiveLearnedScorer
from mailmoat.services.ingest import DECIDER
from mailmoat.store.messages import Store
from mailmoat.store.messages import open_store as _open_migrated


def open_store(url: str | None = None, scorers: Sequence[Scorer] = ()) -> Store:
    """Open (and migrate) the store at `url` (default MAILMOAT_DATABASE_URL, else SQLite in
    the user data directory), ingesting through the cascade with `scorers` (none: the local
    scorer). Raises StoreError when the database cannot be opened."""
    return _open_migrated(url, scorers, decider=DECIDER)


def open_configured_store(url: str | None = None,
                          environ: Mapping[str, str] | None = None) -> Store:
    """The store as the running system uses it: the configured model, else the scorer
    learned from this store's corrections (scorers_for)."""
    store = open_store(url)
    store.scorers = scorers_for(store.engine, environ)
    return store


def key_ring() -> KeyRing:
    """The key ring that opens sealed account secrets (MAILMOAT_SECRET_KEY or the key file).
    Raises SecretKeyError with what to fix."""
    return load_key_ring()


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

    judge = build_judge(engine, environ=environ)
    return LLMDrafter(judge) if judge is not None else None
