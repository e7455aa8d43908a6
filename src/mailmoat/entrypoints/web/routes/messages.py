"""Mail: a lane, one message and its trace, and what a person does to
a message (move, pin its sender, undo, allow images). Every action is a plain form POST that
redirects back (PRG), so the pages work without JavaScript; the API mirrors each one."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Form, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel

from mailmoat.core.lanes import Lane
from mailmoat.core.policy import describe_policy
from mailmoat.entrypoints.web import views
from mailmoat.entrypoints.web.actions import ActionResult, move, pin, set_images, undo
from mailmoat.entrypoints.web.routes.common import ERRORS, LaneName, Me, User, back, render
from mailmoat.entrypoints.web.routes.home import explained, zone_of
from mailmoat.entrypoints.web.routes.meeting import meeting_view
from mailmoat.entrypoints.web.security.auth import owning, repos
from mailmoat.entrypoints.web.security.csp import csp
from mailmoat.entrypoints.web.views import LANE_BLURB, PAGE_SIZE, MessageId, parse_lane
from mailmoat.services.read_state import set_read
from mailmoat.store.user_sessions import SessionInfo

pages = APIRouter(include_in_schema=False)
api = APIRouter(prefix="/api", responses=ERRORS)


class LaneIn(BaseModel):
    lane: LaneName


class ImagesIn(BaseModel):
    allow: bool


class ReadIn(BaseModel):
    read: bool


class ReadOut(BaseModel):
    message_id: int
    read: bool
    changed: bool  # False: it was so already (and nothing was queued for the server)


def _set_read(request: Request, me: SessionInfo, message_id: int, read: bool) -> bool:
    return set_read(repos(request), request.app.state.actions, me.account, message_id, read,
                    me.username)


class ActionOut(BaseModel):
    message_id: int
    lane: str | None
    note: str


def _out(result: ActionResult) -> ActionOut:
    return ActionOut(message_id=result.message_id, lane=result.lane, note=result.note)


# -- pages ------------------------------------------------------------------------------

@pages.get("/lane/{lane}", response_class=HTMLResponse)
def lane_page(request: Request, lane: str, page: int = Query(0, ge=0, le=100_000),
              me: SessionInfo = User) -> HTMLResponse:
    chosen = parse_lane(lane)
    store = request.app.state.store
    zone = zone_of(request, me.account)
    rows = explained(request, (me.account,), chosen.value, PAGE_SIZE, zone, page * PAGE_SIZE)
    return render(request, "lane.html", {
        "lane": chosen.value, "blurb": LANE_BLURB[chosen],
        "count": views.counts(store, me.account)[chosen.value], "messages": rows,
        "page": page, "has_next": len(rows) == PAGE_SIZE, "zone": str(zone)})


@pages.get("/message/{message_id}", response_class=HTMLResponse)
def message_page(request: Request, message_id: MessageId, view: str = "text",
                 me: SessionInfo = User) -> HTMLResponse:
    me = owning(request, me, message_id)
    item = views.message(request.app.state.store, repos(request), me.account, message_id,
                         want_html=view == "html")
    _set_read(request, me, message_id, True)  # opening a message reads it
    headers = None
    if item["html"] is not None and item["sender_prefs"]["allow_images"]:
        headers = {"Content-Security-Policy": csp(remote_images=True)}
    meeting = None
    if item["lane"] == Lane.MEETING.value:
        meeting = meeting_view(request, me.account, message_id)
    return render(request, "message.html", {"m": item, "view": view, "meeting": meeting,
                                            "lanes": [lane.value for lane in Lane]},
                  headers=headers)


@pages.get("/message/{message_id}/trace", response_class=HTMLResponse)
def trace_page(request: Request, message_id: MessageId, me: SessionInfo = User) -> HTMLResponse:
    me = owning(request, me, message_id)
    return render(request, "trace.html",
                  {"t": views.trace(request.app.state.store, me.account, message_id)})


@pages.post("/message/{message_id}/move")
def move_form(request: Request, message_id: MessageId, lane: str = Form(...),
              me: SessionInfo = User) -> Response:
    me = owning(request, me, message_id)
    result = move(request, me, message_id, parse_lane(lane))
    return back(f"/message/{message_id}", result.notice)


@pages.post("/message/{message_id}/pin")
def pin_form(request: Request, message_id: MessageId, lane: str = Form(...),
             me: SessionInfo = User) -> Response:
    me = owning(request, me, message_id)
    result = pin(request, me, message_id, parse_lane(lane))
    return back(f"/message/{message_id}", result.notice)


@pages.post("/message/{message_id}/read")
def read_form(request: Request, message_id: MessageId, read: str = Form(..., max_length=1),
              me: SessionInfo = User) -> Response:
    """Mark read (`read=1`) or unread (`read=0`). Unread goes back to the queue: the message
    page would read it again."""
    me = owning(request, me, message_id)
    if read not in ("0", "1"):
        raise HTTPException(422, "read is 1 or 0")
    _set_read(request, me, message_id, read == "1")
    if read == "1":
        return back(f"/message/{message_id}", "marked_read")
    return back("/", "marked_unread")


@pages.post("/message/{message_id}/undo")
def undo_form(request: Request, message_id: MessageId, me: SessionInfo = User) -> Response:
    me = owning(request, me, message_id)
    result = undo(request, me, message_id)
    return back(f"/message/{message_id}", result.notice)


@pages.post("/message/{message_id}/images")
def images_form(request: Request, message_id: MessageId, allow: bool = Form(...),
                me: SessionInfo = User) -> Response:
    me = owning(request, me, message_id)
    set_images(request, me, message_id, allow)
    return back(f"/message/{message_id}?view=html",
                "images_allowed" if allow else "images_blocked")


# -- API --------------------------------------------------------------------------------

@api.get("/lanes")
def api_lanes(request: Request, me: SessionInfo = Me) -> dict[str, Any]:
    return {"counts": views.counts(request.app.state.store, me.account),
            "policy": describe_policy()["version"]}


@api.get("/firewall")
def api_firewall(request: Request, me: SessionInfo = Me) -> list[dict[str, Any]]:
    return views.firewall(request.app.state.store, me.account)


@api.get("/messages")
def api_messages(
    request: Request,
    lane: LaneName,
    limit: int = Query(50, ge=1, le=500),
    offset: int = Query(0, ge=0, le=10_000_000),
    me: SessionInfo = Me,
) -> list[dict[str, Any]]:
    return views.lane_messages(request.app.state.store, me.account, lane, limit, offset)


@api.get("/messages/{message_id}")
def api_message(request: Request, message_id: MessageId, html: bool = False,
                me: SessionInfo = Me) -> dict[str, Any]:
    """The message; with `html=true` also its sanitized HTML, blocked images and link targets."""
    me = owning(request, me, message_id)
    return views.message(request.app.state.store, repos(request), me.account, message_id,
                         want_html=html)


@api.get("/messages/{message_id}/trace")
def api_trace(request: Request, message_id: MessageId, me: SessionInfo = Me) -> dict[str, Any]:
    me = owning(request, me, message_id)
    return views.trace(request.app.state.store, me.account, message_id)


@api.post("/messages/{message_id}/move", response_model=ActionOut)
def api_move(request: Request, message_id: MessageId, body: LaneIn,
             me: SessionInfo = Me) -> ActionOut:
    me = owning(request, me, message_id)
    return _out(move(request, me, message_id, Lane(body.lane)))


@api.post("/messages/{message_id}/pin", response_model=ActionOut)
def api_pin(request: Request, message_id: MessageId, body: LaneIn,
            me: SessionInfo = Me) -> ActionOut:
    """Pin the message's sender to a lane (a human pin: the only way a sender is silenced)."""
    me = owning(request, me, message_id)
    return _out(pin(request, me, message_id, Lane(body.lane)))


@api.post("/messages/{message_id}/read", response_model=ReadOut)
def api_read(request: Request, message_id: MessageId, body: ReadIn,
             me: SessionInfo = Me) -> ReadOut:
    """Mark the message read or unread. On an IMAP account the server's \\Seen flag follows
    at the worker's next pass (an approved mark_read / mark_unread action)."""
    me = owning(request, me, message_id)
    changed = _set_read(request, me, message_id, body.read)
    return ReadOut(message_id=message_id, read=body.read, changed=changed)


@api.post("/messages/{message_id}/undo", response_model=ActionOut)
def api_undo(request: Request, message_id: MessageId, me: SessionInfo = Me) -> ActionOut:
    me = owning(request, me, message_id)
    return _out(undo(request, me, message_id))


@api.post("/messages/{message_id}/images", response_model=ActionOut)
def api_images(request: Request, message_id: MessageId, body: ImagesIn,
               me: SessionInfo = Me) -> ActionOut:
    """Allow or block remote images for this message's sender."""
    me = owning(request, me, message_id)
    return _out(set_images(request, me, message_id, body.allow))
