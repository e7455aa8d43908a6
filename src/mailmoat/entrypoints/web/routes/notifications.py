"""Notifications: the signed links a notification carries ("later", "mute sender"), which
need no session, and the browser's Web Push subscription."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, Field

from mailmoat.entrypoints.web.actions import apply_link
from mailmoat.entrypoints.web.routes.common import ERRORS, DoneOut, Me, render
from mailmoat.entrypoints.web.security.auth import repos
from mailmoat.notify.keys import link_key, vapid_public_key
from mailmoat.notify.signing import BadLink, verify_link
from mailmoat.store.user_sessions import SessionInfo

pages = APIRouter(include_in_schema=False)
api = APIRouter(prefix="/api", responses=ERRORS)


class PushSubscriptionIn(BaseModel):
    endpoint: str = Field(..., pattern=r"^https?://", max_length=2000)
    keys: dict[Literal["p256dh", "auth"], str]


# -- pages ------------------------------------------------------------------------------

@pages.get("/n/{token}", response_class=HTMLResponse)
def link_page(request: Request, token: str) -> HTMLResponse:
    """A confirm button, not an action: link scanners in mail and chat apps fetch GET URLs."""
    try:
        claim = verify_link(link_key(repos(request).secrets), token, datetime.now(UTC))
    except BadLink as exc:
        return render(request, "link.html", {"error": str(exc), "claim": None}, status=400)
    summary = repos(request).summaries.get(claim.message_id, claim.account)
    return render(request, "link.html", {"error": "", "claim": claim, "token": token,
                                         "summary": summary})


@pages.post("/n/{token}", response_class=HTMLResponse)
def link_submit(request: Request, token: str) -> HTMLResponse:
    try:
        done = apply_link(request, token)
    except BadLink as exc:
        return render(request, "link.html", {"error": str(exc), "claim": None}, status=400)
    return render(request, "link.html", {"error": "", "claim": None, "done": done})


# -- API --------------------------------------------------------------------------------

@api.get("/push/key")
def api_push_key(request: Request, me: SessionInfo = Me) -> dict[str, str]:
    """The VAPID application server key for PushManager.subscribe()."""
    return {"key": vapid_public_key(repos(request).secrets)}


@api.post("/push/subscriptions", status_code=201, response_model=DoneOut)
def api_push_subscribe(request: Request, body: PushSubscriptionIn,
                       me: SessionInfo = Me) -> DoneOut:
    repos(request).push.add(me.user_id, me.account, body.endpoint,
                                       body.keys.get("p256dh", ""), body.keys.get("auth", ""))
    return DoneOut(done="subscribed")


@api.post("/links/{token}", response_model=DoneOut,
          responses={404: {"description": "forged, malformed or expired link"}})
def api_link(request: Request, token: str) -> Response:
    """Carry out a signed notification link ("later" or "mute sender"); no session needed."""
    try:
        return JSONResponse({"done": apply_link(request, token)})
    except BadLink as exc:
        return JSONResponse({"detail": str(exc)}, 404)  # a bad link names nothing
