"""Rules: learned sender rules, each with the corrections it came from, and human pins. The
page removes a rule, pins a sender or domain (which is also how a rule's lane is changed), or
unpins; the API does the same. Everything goes through learn/'s Learning for the signed-in
account, as `mailmoat rules` does."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, Field

from mailmoat.core.lanes import Lane
from mailmoat.entrypoints.web.actions import learning
from mailmoat.entrypoints.web.notices import notice_code
from mailmoat.entrypoints.web.routes.common import (
    LEARNING_ERRORS,
    Actor,
    Learn,
    User,
    back,
    learning_call,
    render,
)
from mailmoat.entrypoints.web.security.auth import repos
from mailmoat.learn.service import LearningError, pin_dict
from mailmoat.store.user_sessions import SessionInfo

pages = APIRouter(include_in_schema=False)
api = APIRouter(prefix="/api", tags=["learning"], responses=LEARNING_ERRORS)


class PinIn(BaseModel):
    lane: Lane
    note: str = Field("", max_length=2000)


# -- pages ------------------------------------------------------------------------------

def _with_subjects(request: Request, me: SessionInfo, rules: list[dict[str, Any]]) -> None:
    """Each cited correction gets the subject of the message it corrected, when still there
    (one query for the page: a sender's address and domain rules cite the same ones)."""
    ids = [c["message_id"] for r in rules for c in r["corrections"] if c.get("message_id")]
    subjects = repos(request).summaries.subjects(ids, me.account)
    for rule in rules:
        rule["corrections"] = [{**c, "subject": subjects.get(c.get("message_id") or 0)}
                               for c in rule["corrections"]]


def _context(request: Request, me: SessionInfo) -> dict[str, Any]:
    learn = learning(request, me)
    rules = [view.as_dict() for view in learn.rules()]
    _with_subjects(request, me, rules)
    return {"rules": rules, "pins": [pin_dict(p) for p in learn.pins()],
            "lanes": [lane.value for lane in Lane], "error": "", "new_key": "",
            "new_lane": Lane.QUEUE.value}


@pages.get("/rules", response_class=HTMLResponse)
def rules_page(request: Request, me: SessionInfo = User) -> HTMLResponse:
    return render(request, "rules.html", _context(request, me))


def _refused(request: Request, me: SessionInfo, error: str, **kept: str) -> HTMLResponse:
    """Nothing changed: the page again with the reason and what the person typed."""
    return render(request, "rules.html", {**_context(request, me), **kept, "error": error},
                  status=400)


@pages.post("/rules/pin", response_class=HTMLResponse)
def pin_form(request: Request, key: str = Form(..., max_length=500),
             lane: str = Form(..., max_length=20), note: str = Form("", max_length=2000),
             me: SessionInfo = User) -> Response:
    try:
        pinned = learning(request, me).pin(key, lane, me.username, note)
    except LearningError as exc:
        return _refused(request, me, str(exc), new_key=key, new_lane=lane)
    return back("/rules", notice_code("rule_pinned", pinned.lane.value))


@pages.post("/rules/unpin", response_class=HTMLResponse)
def unpin_form(request: Request, key: str = Form(..., max_length=500),
               me: SessionInfo = User) -> Response:
    try:
        learning(request, me).unpin(key, me.username)
    except LearningError as exc:
        return _refused(request, me, str(exc))
    return back("/rules", "unpinned")


@pages.post("/rules/remove", response_class=HTMLResponse)
def remove_form(request: Request, key: str = Form(..., max_length=500),
                me: SessionInfo = User) -> Response:
    try:
        _gone, lapsed = learning(request, me).remove(key, me.username)
    except LearningError as exc:
        return _refused(request, me, str(exc))
    return back("/rules", "rules_removed" if lapsed else "rule_removed")


# -- API --------------------------------------------------------------------------------

@api.get("/rules")
def rules(learn: Learn) -> dict[str, Any]:
    return {
        "rules": [view.as_dict() for view in learn.rules()],
        "pins": [pin_dict(p) for p in learn.pins()],
    }


@api.get("/rules/{key}")
def rule(key: str, learn: Learn) -> dict[str, Any]:
    view, pin = learning_call(lambda: learn.rule(key))
    return {
        "key": key.strip().lower(),
        "rule": None if view is None else view.as_dict(),
        "pin": None if pin is None else pin_dict(pin),
    }


@api.delete("/rules/{key}")
def remove_rule(key: str, learn: Learn, actor: Actor) -> dict[str, Any]:
    removed, lapsed = learning_call(lambda: learn.remove(key, actor))
    return {"removed": {"key": removed.key.value, "lane": removed.lane.value,
                        "cites": list(removed.correction_ids)},
            "also_gone": [{"key": r.key.value, "lane": r.lane.value,
                           "cites": list(r.correction_ids)} for r in lapsed]}


@api.put("/pins/{key}")
def pin(key: str, body: PinIn, learn: Learn, actor: Actor) -> dict[str, Any]:
    return pin_dict(learning_call(lambda: learn.pin(key, body.lane, actor, body.note)))


@api.delete("/pins/{key}")
def unpin(key: str, learn: Learn, actor: Actor) -> dict[str, Any]:
    return {"unpinned": pin_dict(learning_call(lambda: learn.unpin(key, actor)))}
