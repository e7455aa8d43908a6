"""The judge's status and metrics over HTTP: the same figures as `mailmoat status`."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, HTTPException
from fastapi.responses import PlainTextResponse

from mailmoat.entrypoints.web.security.auth import api_user
from mailmoat.judge.config import ConfigError, load_llm_config
from mailmoat.judge.status import judge_status, prometheus


def judge_router(store: Any) -> APIRouter:
    # Signed-in users only: status names providers and budgets, never keys.
    router = APIRouter(dependencies=[Depends(api_user)])

    def current(check: bool) -> dict[str, Any]:
        try:
            config = load_llm_config()
        except ConfigError as exc:
            raise HTTPException(500, f"config error: {exc}") from exc
        return judge_status(config, store.engine, check=check)

    @router.get("/api/judge/status")
    def status(check: bool = False) -> dict[str, Any]:
        return current(check)

    @router.get("/api/judge/metrics", response_class=PlainTextResponse)
    def metrics() -> str:
        return prometheus(current(False))

    return router
