"""The MEETING lane on the web: what a meeting mail proposes (slot, conflicts, alternatives),
its two proposals (reply + calendar write) and one approval for both. JSON API under
/api/meeting, and the form posts the message page uses. Thin over services/meeting*.py."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import Response
from pydantic import BaseModel

from mailmoat.act.errors import ActError, InvalidState, NotFound
from mailmoat.core.receipts import PayloadError
from mailmoat.entrypoints.web.routes.common import Me, Refusal, User, back
from mailmoat.entrypoints.web.security.auth import owning
from mailmoat.entrypoints.web.views import MessageId
from mailmoat.services.meeting import MeetingNotFound, meeting_context
from mailmoat.services.meeting_proposals import (
    NotProposable,
    approve_meeting,
    proposals_for,
    propose_meeting,
)
from mailmoat.store.user_sessions import SessionInfo


class ProposeIn(BaseModel):
    answer: str = "auto"  # auto | accept | decline
    calendar: str | None = None
    invite_sender: bool = False


@contextmanager
def _errors() -> Iterator[None]:
    try:
        yield
    except (MeetingNotFound, NotFound) as exc:
        raise HTTPException(404, str(exc)) from exc
    except (NotProposable, InvalidState) as exc:
        raise HTTPException(409, str(exc)) from exc
    except (PayloadError, ActError) as exc:
        raise HTTPException(400, str(exc)) from exc


def meeting_view(request: Request, account: str, message_id: int) -> dict[str, Any]:
    """The meeting context and its proposals, each with the exact bytes it would run."""
    store, actions = request.app.state.store, request.app.state.actions
    ctx = meeting_context(store, message_id, account, ring=actions.keys())
    proposals = []
    for p in proposals_for(store, message_id):
        shown = {k: (actions.show(v) if v is not None else None) for k, v in (
            ("reply", p.reply_action_id), ("event", p.event_action_id))}
        pending = [a for a in shown.values() if a and a["status"] == "pending"]
        proposals.append({**p.as_dict(), **shown, "pending": len(pending)})
    return {**ctx.as_dict(), "proposals": proposals}


pages = APIRouter(include_in_schema=False)
api = APIRouter(prefix="/api/meeting", tags=["meeting"], responses={
    400: {"model": Refusal, "description": "a payload breaks a rule of the receipts"},
    401: {"description": "not signed in"},
    404: {"model": Refusal, "description": "no such message on your account"},
    409: {"model": Refusal, "description": "nothing to propose (unsure, proposed "
          "already) or nothing pending to approve"},
})


@api.get("/{message_id}")
def show(request: Request, message_id: MessageId, me: SessionInfo = Me) -> dict[str, Any]:
    me = owning(request, me, message_id)
    with _errors():
        return meeting_view(request, me.account, message_id)


@api.post("/{message_id}/propose")
def propose(request: Request, message_id: MessageId, body: ProposeIn,
            me: SessionInfo = Me) -> dict[str, Any]:
    me = owning(request, me, message_id)
    with _errors():
        made = propose_meeting(request.app.state.store, request.app.state.actions,
                               message_id, account=me.account, proposed_by=me.username,
                               source="api", answer=body.answer, calendar=body.calendar,
                               invite_sender=body.invite_sender)
    return made.as_dict()


@api.post("/{message_id}/approve")
def approve(request: Request, message_id: MessageId, me: SessionInfo = Me) -> dict[str, Any]:
    me = owning(request, me, message_id)
    with _errors():
        _owned(request, me.account, message_id)
        done = approve_meeting(request.app.state.store, request.app.state.actions,
                               message_id, me.username)
    return {"approved": [{"id": a["id"], "action": a["action"],
                          "payload_sha256": a["receipt"]["payload_sha256"]} for a in done]}


@pages.post("/message/{message_id}/meeting/propose")
def propose_form(request: Request, message_id: MessageId, answer: str = Form("auto"),
                 me: SessionInfo = User) -> Response:
    me = owning(request, me, message_id)
    with _errors():
        propose_meeting(request.app.state.store, request.app.state.actions, message_id,
                        account=me.account, proposed_by=me.username, source="web",
                        answer=answer)
    return back(f"/message/{message_id}", "proposed")


@pages.post("/message/{message_id}/meeting/approve")
def approve_form(request: Request, message_id: MessageId, me: SessionInfo = User) -> Response:
    me = owning(request, me, message_id)
    with _errors():
        _owned(request, me.account, message_id)
        approve_meeting(request.app.state.store, request.app.state.actions, message_id,
                        me.username)
    return back(f"/message/{message_id}", "approved")


def _owned(request: Request, account: str, message_id: int) -> None:
    meeting_context(request.app.state.store, message_id, account)  # 404 for another account
