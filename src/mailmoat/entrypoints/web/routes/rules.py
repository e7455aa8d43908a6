"""The rules page: learned sender rules, each with the corrections it came from, and human
pins; remove a rule, pin a sender or domain (which is also how a rule's lane is changed), or
unpin. Everything goes through learn/'s Learning for the signed-in account, as the JSON API
(entrypoints/web/routes/learn.py) and `mailmoat rules` do."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, Response

from mailmoat.core.lanes import Lane
from mailmoat.entrypoints.web.actions import learning
from mailmoat.entrypoints.web.notices import notice_code
from mailmoat.entrypoints.web.routes.pages import back, render
from mailmoat.entrypoints.web.security.auth import page_user, web
from mailmoat.learn.service import LearningError, pin_dict
from mailmoat.store.people import SessionInfo

rules_router = APIRouter(include_in_schema=False)
User = Depends(page_user)


def _with_subjects(request: Request, me: SessionInfo, rules: list[dict[str, Any]]) -> None:
    """Each cited correction gets the subject of the message it corrected, when still there
    (one query for the page: a sender's address and domain rules cite the same ones)."""
    ids = [c["message_id"] for r in rules for c in r["corrections"] if c.get("message_id")]
    subjects = web(request).subjects(ids, me.account)
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


@rules_router.get("/rules", response_class=HTMLResponse)
def rules_page(request: Request, me: SessionInfo = User) -> HTMLResponse:
    return render(request, "rules.html", _context(request, me))


def _refused(request: Request, me: SessionInfo, error: str, **kept: str) -> HTMLResponse:
    """Nothing changed: the page again with the reason and what the person typed."""
    return render(request, "rules.html", {**_context(request, me), **kept, "error": error},
                  status=400)


@rules_router.post("/rules/pin", response_class=HTMLResponse)
def pin_form(request: Request, key: str = Form(..., max_length=500),
             lane: str = Form(..., max_length=20), note: str = Form("", max_length=2000),
             me: SessionInfo = User) -> Response:
    try:
        pinned = learning(request, me).pin(key, lane, me.username, note)
    except LearningError as exc:
        return _refused(request, me, str(exc), new_key=key, new_lane=lane)
    return back("/rules", notice_code("rule_pinned", pinned.lane.value))


@rules_router.post("/rules/unpin", response_class=HTMLResponse)
def unpin_form(request: Request, key: str = Form(..., max_length=500),
               me: SessionInfo = User) -> Response:
    try:
        learning(request, me).unpin(key, me.username)
    except LearningError as exc:
        return _refused(request, me, str(exc))
    return back("/rules", "unpinned")


@rules_router.post("/rules/remove", response_class=HTMLResponse)
def remove_form(request: Request, key: str = Form(..., max_length=500),
                me: SessionInfo = User) -> Response:
    try:
        _gone, lapsed = learning(request, me).remove(key, me.username)
    except LearningError as exc:
        return _refused(request, me, str(exc))
    return back("/rules", "rules_removed" if lapsed else "rule_removed")
