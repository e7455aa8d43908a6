"""The judge's status and metrics over HTTP: the same figures as `mailmoat status`. Signed-in
users only: status names providers and budgets, never keys."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import PlainTextResponse

from mailmoat.entrypoints.web.routes.common import Me
from mailmoat.judge.config import ConfigError, load_llm_config
from mailmoat.judge.status import judge_status, prometheus

pages = APIRouter(include_in_schema=False)  # no page: /status shows the judge's figures
api = APIRouter(prefix="/api/judge", dependencies=[Me])


def _current(request: Request, check: bool) -> dict[str, Any]:
    try:
        config = load_llm_config()
    except ConfigError as exc:
        raise HTTPException(500, f"config error: {exc}") from exc
    return judge_status(config, request.app.state.store.engine, check=check)


@api.get("/status")
def status(request: Request, check: bool = False) -> dict[str, Any]:
    return _current(request, check)


@api.get("/metrics", response_class=PlainTextResponse)
def metrics(request: Request) -> str:
    return prometheus(_current(request, False))
