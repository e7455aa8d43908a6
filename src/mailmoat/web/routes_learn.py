"""JSON API for learning: corrections, learned rules (each citing its corrections), pins,
sender facts and few-shot examples. The same operations as `mailmoat rules` / `correct`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, TypeVar

from fastapi import APIRouter, HTTPException, Query
from pydantic import BaseModel, Field

from mailmoat.core.rules import CorrectionKind
from mailmoat.learn.service import Learning, LearningError, NotFound, pin_dict

T = TypeVar("T")


class CorrectionIn(BaseModel):
    kind: Literal["lane_change", "approval", "rejection", "dismissal"] = "lane_change"
    lane: str | None = Field(None, description="the lane chosen; required for lane_change")
    actor: str = Field("web", max_length=200)
    note: str = Field("", max_length=2000)


class PinIn(BaseModel):
    lane: str
    actor: str = Field("web", max_length=200)
    note: str = Field("", max_length=2000)


def _run(call: Callable[[], T]) -> T:
    try:
        return call()
    except NotFound as exc:
        raise HTTPException(404, str(exc)) from exc
    except LearningError as exc:
        raise HTTPException(400, str(exc)) from exc


def learn_router(store: Any, account: str = "local") -> APIRouter:
    learning = Learning(store, account=account)
    router = APIRouter(prefix="/api", tags=["learning"])

    @router.post("/messages/{message_id}/corrections", status_code=201)
    def add_correction(message_id: int, body: CorrectionIn) -> dict[str, Any]:
        if body.kind == "lane_change":
            if not body.lane:
                raise HTTPException(400, "a lane change needs a lane")
            lane = body.lane
            cid = _run(lambda: learning.correct(message_id, lane, body.actor, body.note))
        else:
            kind = CorrectionKind(body.kind)
            cid = _run(lambda: learning.record(message_id, kind, body.actor, body.note))
        return {"id": cid}

    @router.get("/corrections")
    def corrections(
        sender: str | None = None, limit: int = Query(100, ge=1, le=1000)
    ) -> list[dict[str, Any]]:
        return learning.corrections(sender, limit)

    @router.get("/rules")
    def rules() -> dict[str, Any]:
        return {
            "rules": [view.as_dict() for view in learning.rules()],
            "pins": [pin_dict(p) for p in learning.pins()],
        }

    @router.get("/rules/{key}")
    def rule(key: str) -> dict[str, Any]:
        view, pin = _run(lambda: learning.rule(key))
        return {
            "key": key.strip().lower(),
            "rule": None if view is None else view.as_dict(),
            "pin": None if pin is None else pin_dict(pin),
        }

    @router.delete("/rules/{key}")
    def remove_rule(key: str, actor: str = "web") -> dict[str, Any]:
        removed = _run(lambda: learning.remove_rule(key, actor))
        return {"removed": {"key": removed.key.value, "lane": removed.lane.value,
                            "cites": list(removed.correction_ids)}}

    @router.put("/pins/{key}")
    def pin(key: str, body: PinIn) -> dict[str, Any]:
        return pin_dict(_run(lambda: learning.pin(key, body.lane, body.actor, body.note)))

    @router.delete("/pins/{key}")
    def unpin(key: str, actor: str = "web") -> dict[str, Any]:
        return {"unpinned": pin_dict(_run(lambda: learning.unpin(key, actor)))}

    @router.get("/senders/{address}/facts")
    def facts(address: str) -> dict[str, Any]:
        if "@" not in address:
            raise HTTPException(400, "facts are kept per address")
        return learning.facts(address).as_dict()

    @router.get("/messages/{message_id}/examples")
    def examples(message_id: int) -> list[dict[str, Any]]:
        item = store.get_message(message_id, account=account)
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
