"""Learning: the corrections page, and the JSON API for corrections, sender facts and few-shot
examples. The same operations as `mailmoat correct`; learned rules and pins are
routes/rules.py. Every route acts for the signed-in person, on their own account only."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field

from mailmoat.core.lanes import Lane
from mailmoat.core.rules import CorrectionKind
from mailmoat.entrypoints.web.actions import pins
from mailmoat.entrypoints.web.routes.common import (
    LEARNING_ERRORS,
    Actor,
    Learn,
    User,
    learning_call,
    render,
)
from mailmoat.entrypoints.web.security.auth import repos
from mailmoat.entrypoints.web.views import MessageId
from mailmoat.store.user_sessions import SessionInfo

pages = APIRouter(include_in_schema=False)
api = APIRouter(prefix="/api", tags=["learning"], responses=LEARNING_ERRORS)


class LaneChangeIn(BaseModel):
    kind: Literal["lane_change"] = "lane_change"
    lane: Lane = Field(description="the lane the person chose")
    note: str = Field("", max_length=2000)


class FeedbackIn(BaseModel):
    kind: Literal["approval", "rejection", "dismissal"]
    note: str = Field("", max_length=2000)


# -- pages ------------------------------------------------------------------------------

@pages.get("/corrections", response_class=HTMLResponse)
def corrections_page(request: Request, me: SessionInfo = User) -> HTMLResponse:
    return render(request, "corrections.html", {
        "rows": repos(request).decisions.corrections(me.account),
        "pins": pins(request, me)})


# -- API --------------------------------------------------------------------------------

@api.post("/messages/{message_id}/corrections", status_code=201)
def add_correction(message_id: MessageId, body: LaneChangeIn | FeedbackIn, learning: Learn,
                   actor: Actor) -> dict[str, Any]:
    if isinstance(body, LaneChangeIn):
        lane = body.lane
        cid = learning_call(lambda: learning.correct(message_id, lane, actor, body.note))
    else:
        kind = CorrectionKind(body.kind)
        cid = learning_call(lambda: learning.record(message_id, kind, actor, body.note))
    return {"id": cid}


@api.get("/corrections")
def corrections(
    learning: Learn, sender: str | None = None, limit: int = Query(100, ge=1, le=1000)
) -> list[dict[str, Any]]:
    return learning.corrections(sender, limit)


@api.get("/senders/{address}/facts")
def facts(address: Annotated[str, PathParam(pattern=r"^[^@]+@[^@]+$", max_length=320)],
          learning: Learn) -> dict[str, Any]:
    return learning.facts(address).as_dict()


@api.get("/messages/{message_id}/examples")
def examples(request: Request, message_id: MessageId,
             learning: Learn) -> list[dict[str, Any]]:
    item = request.app.state.store.get_message(message_id, account=learning.account)
    if item is None:
        raise HTTPException(404, "no such message")
    chosen = learning.examples(item["from_addr"], f"{item['subject']} {item['body_text']}")
    return [
        {"correction": e.correction_id, "sender": e.sender, "subject": e.subject,
         "snippet": e.snippet, "shown_lane": e.shown_lane, "lane": e.corrected_lane,
         "why": e.why}
        for e in chosen if e.correction_id != _correction_of(item)
    ]


def _correction_of(item: dict[str, Any]) -> int | None:
    trace = item.get("trace") or {}
    value = trace.get("correction")
    return value if isinstance(value, int) else None
