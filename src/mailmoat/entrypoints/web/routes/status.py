"""Status of the signed-in person's account: scorers and their health, decisions and how many
were degraded, lanes, pending approvals, model budget and the outbox depth."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from mailmoat.entrypoints.web import views
from mailmoat.entrypoints.web.routes.common import ERRORS, Me, User, render
from mailmoat.entrypoints.web.security.auth import repos
from mailmoat.store.user_sessions import SessionInfo

pages = APIRouter(include_in_schema=False)
api = APIRouter(prefix="/api", responses=ERRORS)


def _status(request: Request, me: SessionInfo) -> dict[str, Any]:
    pending = len(request.app.state.approvals.list(me.account))
    return views.status(request.app.state.store, repos(request), me.account, pending)


@pages.get("/status", response_class=HTMLResponse)
def status_page(request: Request, me: SessionInfo = User) -> HTMLResponse:
    return render(request, "status.html", {"s": _status(request, me)})


@api.get("/status")
def api_status(request: Request, me: SessionInfo = Me) -> dict[str, Any]:
    return _status(request, me)
