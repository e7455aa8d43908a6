"""JSON API for learning: corrections, learned rules (each citing its corrections), pins,
sender facts and few-shot examples. The same operations as `mailmoat rules` / `correct`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi import Path as PathParam
from pydantic import BaseModel, Field

from mailmoat.core.lanes import Lane
from mailmoat.core.rules import CorrectionKind
from mailmoat.entrypoints.web.security.auth import api_user
from mailmoat.entrypoints.web.views import MessageId
from mailmoat.learn.service import Learning, LearningError, NotFound, pin_dict
from mailmoat.store.people import SessionInfo

T = TypeVar("T")


class LaneChangeIn(BaseModel):
    kind: Literal["lane_change"] = "lane_change"
    lane: Lane = Field(description="the lane the person chose")
    note: str = Field("", max_length=2000)


class FeedbackIn(BaseModel):
    kind: Literal["approval", "rejection", "dismissal"]
    note: str = Field("", max_length=2000)


class PinIn(BaseModel):
    lane: Lane
    note: str = Field("", max_length=2000)


def _run(call: Callable[[], T]) -> T:
    try:
        return call()
    except NotFound as exc:
        raise HTTPException(404, str(exc)) from exc
    except LearningError as exc:  # valid request, but not possible in the current state
        raise HTTPException(409, str(exc)) from exc


def _learning(request: Request, user: Annotated[SessionInfo, Depends(api_user)]) -> Learning:
    return Learning(request.app.state.store, account=user.account)


def _actor(user: Annotated[SessionInfo, Depends(api_user)]) -> str:
    return user.username


# Module level, so FastAPI can resolve them from the (postponed) annotations.
Learn = Annotated[Learning, Depends(_learning)]
Actor = Annotated[str, Depends(_actor)]


def learn_router(store: Any) -> APIRouter:
    """Every route acts for the signed-in person, on their own account only."""
    router = APIRouter(prefix="/api", tags=["learning"], responses={
        401: {"description": "not signed in"},
        404: {"description": "no such message, rule or pin on this account"},
        409: {"description": "not possible now (already in that lane, a public domain, ...)"},
    })

    @router.post("/messages/{message_id}/corrections", status_code=201)
    def add_correction(message_id: MessageId, body: LaneChangeIn | FeedbackIn, learning: Learn,
                       actor: Actor) -> dict[str, Any]:
        if isinstance(body, LaneChangeIn):
            lane = body.lane
            cid = _run(lambda: learning.correct(message_id, lane, actor, body.note))
        else:
            kind = CorrectionKind(body.kind)
            cid = _run(lambda: learning.record(message_id, kind, actor, body.note))
        return {"id": cid}

    @router.get("/corrections")
    def corrections(
        learning: Learn, sender: str | None = None, limit: int = Query(100, ge=1, le=1000)
    ) -> list[dict[str, Any]]:
        return learning.corrections(sender, limit)

    @router.get("/rules")
    def rules(learning: Learn) -> dict[str, Any]:
        return {
            "rules": [view.as_dict() for view in learning.rules()],
            "pins": [pin_dict(p) for p in learning.pins()],
        }

    @router.get("/rules/{key}")
    def rule(key: str, learning: Learn) -> dict[str, Any]:
        view, pin = _run(lambda: learning.rule(key))
        return {
            "key": key.strip().lower(),
            "rule": None if view is None else view.as_dict(),
            "pin": None if pin is None else pin_dict(pin),
        }

    @router.delete("/rules/{key}")
    def remove_rule(key: str, learning: Learn, actor: Actor) -> dict[str, Any]:
        removed, lapsed = _run(lambda: learning.remove(key, actor))
        return {"removed": {"key": removed.key.value, "lane": removed.lane.value,
                            "cites": list(removed.correction_ids)},
                "also_gone": [{"key": r.key.value, "lane": r.lane.value,
                               "cites": list(r.correction_ids)} for r in lapsed]}

    @router.put("/pins/{key}")
    def pin(key: str, body: PinIn, learning: Learn, actor: Actor) -> dict[str, Any]:
        return pin_dict(_run(lambda: learning.pin(key, body.lane, actor, body.note)))

    @router.delete("/pins/{key}")
    def unpin(key: str, learning: Learn, actor: Actor) -> dict[str, Any]:
        return {"unpinned": pin_dict(_run(lambda: learning.unpin(key, actor)))}

    @router.get("/senders/{address}/facts")
    def facts(address: Annotated[str, PathParam(pattern=r"^[^@]+@[^@]+$", max_length=320)],
              learning: Learn) -> dict[str, Any]:
        return learning.facts(address).as_dict()

    @router.get("/messages/{message_id}/examples")
    def examples(message_id: MessageId, learning: Learn) -> list[dict[str, Any]]:
        item = store.get_message(message_id, account=learning.account)
        if item is None:
            raise HTTPException(404, "no such message")
        chosen = learning.examples(item["from_addr"], f"{item['subject']} {item['body_text']}")
        return [
            {"correction": e.correction_id, "sender": e.sender, "subject": e.subject,
             "snippet": e.snippet, "shown_lane": e.shown_lane, "lane": e.corrected_lane,
             "why": e.why}
            for e in chosen if e.correction_id != _correction_of(item)
        ]

    return router


def _correction_of(item: dict[str, Any]) -> int | None:
    trace = item.get("trace") or {}
    value = trace.get("correction")
    return value if isinstance(value, int) else None
