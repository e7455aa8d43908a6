"""Approvals and triage: pending actions with the exact bytes they would run, approve or reject
each (the approval binds the payload hash the person was shown), settle a send whose outcome
is unknown, and the confidence-canary triage list. app.state.approvals and .triage provide
the data (web/approvals.py)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, Field

from mailmoat.entrypoints.web.routes.common import ERRORS, DoneOut, Me, User, back, render
from mailmoat.store.user_sessions import SessionInfo

pages = APIRouter(include_in_schema=False)
api = APIRouter(prefix="/api", responses=ERRORS)


class ApproveIn(BaseModel):
    expected_sha256: str | None = Field(None, pattern="^[0-9a-f]{64}$",
                                        description="the payload hash you reviewed")


class RejectIn(BaseModel):
    reason: str = Field("", max_length=2000)


def acting_for(request: Request, me: SessionInfo, action_id: str) -> SessionInfo:
    """The session as the account the action belongs to, when the person may see it; else
    unchanged, so the adapter answers "no such pending action" as for a missing id."""
    approvals = request.app.state.approvals
    owner = approvals.owner(action_id) if hasattr(approvals, "owner") else None
    if owner is None or owner == me.account or owner not in me.accounts:
        return me
    return replace(me, account=owner)


def pending_everywhere(request: Request, me: SessionInfo) -> list[Any]:
    """Pending actions of every account the person can see, the session's first."""
    approvals = request.app.state.approvals
    return [item for account in dict.fromkeys((me.account, *me.accounts))
            for item in approvals.list(account)]


def _action(item: Any) -> dict[str, Any]:
    return {k: getattr(item, k) for k in item.__slots__}


# -- pages ------------------------------------------------------------------------------

@pages.get("/approvals", response_class=HTMLResponse)
def approvals_page(request: Request, me: SessionInfo = User) -> HTMLResponse:
    approvals = request.app.state.approvals
    unknown = [u for account in dict.fromkeys((me.account, *me.accounts))
               for u in approvals.unknown(account)] if hasattr(approvals, "unknown") else []
    return render(request, "approvals.html",
                  {"items": pending_everywhere(request, me), "unknown": unknown})


@pages.get("/approvals/{action_id}", response_class=HTMLResponse)
def approval_page(request: Request, action_id: str, me: SessionInfo = User) -> HTMLResponse:
    me = acting_for(request, me, action_id)
    item = request.app.state.approvals.show(me.account, action_id)
    if item is None:
        raise HTTPException(404, "no such pending action")
    return render(request, "approval.html", {"a": item})


@pages.post("/approvals/{action_id}/approve")
def approve_form(request: Request, action_id: str, expected_sha256: str = Form(""),
                 me: SessionInfo = User) -> Response:
    me = acting_for(request, me, action_id)
    outcome = request.app.state.approvals.approve(me.account, action_id, me.username,
                                                  expected_sha256 or None)
    if not outcome.ok:
        missing = not outcome.detail or outcome.detail.startswith("no such")
        raise HTTPException(404 if missing else 409, outcome.detail or "no such pending action")
    return back("/approvals", "approved")


@pages.post("/approvals/{action_id}/reject")
def reject_form(request: Request, action_id: str, reason: str = Form("", max_length=2000),
                me: SessionInfo = User) -> Response:
    me = acting_for(request, me, action_id)
    outcome = request.app.state.approvals.reject(me.account, action_id, me.username, reason)
    if not outcome.ok:
        raise HTTPException(404, outcome.detail or "no such pending action")
    return back("/approvals", "rejected")


@pages.post("/approvals/{action_id}/resolve")
def resolve_form(request: Request, action_id: str, arrived: str = Form(..., max_length=3),
                 me: SessionInfo = User) -> Response:
    """A person settles a send whose outcome is unknown: it arrived, or send it again."""
    me = acting_for(request, me, action_id)
    if arrived not in ("yes", "no"):
        raise HTTPException(422, "arrived must be yes or no")
    approvals = request.app.state.approvals
    if not hasattr(approvals, "resolve"):
        raise HTTPException(404, "no such send")
    outcome = approvals.resolve(me.account, action_id, me.username, arrived == "yes")
    if not outcome.ok:
        raise HTTPException(404 if outcome.detail.startswith("no such") else 409,
                            outcome.detail)
    return back("/approvals", "send_recorded" if arrived == "yes" else "send_queued")


@pages.get("/triage", response_class=HTMLResponse)
def triage_page(request: Request, me: SessionInfo = User) -> HTMLResponse:
    return render(request, "triage.html", {"items": request.app.state.triage.list(me.account)})


# -- API --------------------------------------------------------------------------------

@api.get("/approvals")
def api_approvals(request: Request, me: SessionInfo = Me) -> list[dict[str, Any]]:
    return [_action(a) for a in pending_everywhere(request, me)]


@api.get("/approvals/{action_id}")
def api_approval(request: Request, action_id: str, me: SessionInfo = Me) -> dict[str, Any]:
    me = acting_for(request, me, action_id)
    item = request.app.state.approvals.show(me.account, action_id)
    if item is None:
        raise HTTPException(404, "no such pending action")
    return _action(item)


@api.post("/approvals/{action_id}/approve", response_model=DoneOut)
def api_approve(request: Request, action_id: str, body: ApproveIn | None = None,
                me: SessionInfo = Me) -> DoneOut:
    """Mint the receipt over the stored payload. Send the `payload_sha256` you reviewed as
    `expected_sha256`: if the payload changed since, the approval is refused (409)."""
    me = acting_for(request, me, action_id)
    expected = body.expected_sha256 if body else None
    outcome = request.app.state.approvals.approve(me.account, action_id, me.username, expected)
    if not outcome.ok:
        missing = not outcome.detail or outcome.detail.startswith("no such")
        raise HTTPException(404 if missing else 409, outcome.detail or "no such pending action")
    return DoneOut(done="approved")


@api.post("/approvals/{action_id}/reject", response_model=DoneOut)
def api_reject(request: Request, action_id: str, body: RejectIn,
               me: SessionInfo = Me) -> DoneOut:
    me = acting_for(request, me, action_id)
    outcome = request.app.state.approvals.reject(me.account, action_id, me.username,
                                                 body.reason)
    if not outcome.ok:
        raise HTTPException(404, outcome.detail or "no such pending action")
    return DoneOut(done="rejected")


@api.get("/triage")
def api_triage(request: Request, me: SessionInfo = Me) -> list[dict[str, Any]]:
    return [_action(t) for t in request.app.state.triage.list(me.account)]
