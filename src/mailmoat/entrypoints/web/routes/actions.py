"""JSON API for proposed actions: propose, list, show, edit, audit. Thin over the app's one
act.ActionService (app.state.actions). Approving and rejecting are the approvals routes
(routes/approvals.py, what the approval page shows); the mode is under settings.

Nothing here sends mail.
Every route needs a signed-in person (and, for changes, the app-wide CSRF token); the person
is the actor and their current mail account is the only one these routes read or change —
another account's action answers 404, like a missing one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, Field

from mailmoat.act.errors import ActError, InvalidState, NotFound, StaleApproval
from mailmoat.act.service import ActionService
from mailmoat.core.receipts import PayloadError
from mailmoat.entrypoints.web.routes.common import Actions, Me, Refusal
from mailmoat.entrypoints.web.views import MAX_ID, ActionId
from mailmoat.store.user_sessions import SessionInfo

pages = APIRouter(include_in_schema=False)  # no page: approvals.py shows pending actions
api = APIRouter(prefix="/api", tags=["actions"], responses={
    400: {"model": Refusal, "description": "the payload breaks a rule (one recipient, "
          "no line breaks in headers, ...)"},
    401: {"description": "not signed in"},
    404: {"description": "no such action on your account"},
    409: {"description": "not possible in the action's current state"},
})


class Proposal(BaseModel):
    payload: dict[str, Any]
    reply_to_message: int | None = Field(None, ge=1, le=MAX_ID)


class Edit(BaseModel):
    payload: dict[str, Any]


@contextmanager
def _errors() -> Iterator[None]:
    try:
        yield
    except NotFound as exc:
        raise HTTPException(404, str(exc)) from exc
    except (InvalidState, StaleApproval) as exc:
        raise HTTPException(409, str(exc)) from exc
    except (PayloadError, ActError) as exc:  # the payload breaks a rule of core.receipts/act
        raise HTTPException(400, str(exc)) from exc


def _call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    with _errors():
        return fn(*args, **kwargs)


def _owned(service: ActionService, action_id: int, me: SessionInfo) -> dict[str, Any]:
    view: dict[str, Any] = _call(service.show, action_id)
    if view["account"] != me.account:
        raise HTTPException(404, f"no action {action_id}")
    return view


@api.get("/actions")
def list_actions(service: Actions, status: str | None = None,
                 me: SessionInfo = Me) -> list[dict[str, Any]]:
    return service.list(me.account, status)


@api.post("/actions", status_code=201)
def propose(body: Proposal, service: Actions, me: SessionInfo = Me) -> dict[str, Any]:
    made: dict[str, Any] = _call(service.propose, me.account, body.payload, me.username, "api",
                                 reply_to_message=body.reply_to_message)
    return made


@api.get("/actions/{action_id}")
def show(action_id: ActionId, service: Actions, me: SessionInfo = Me) -> dict[str, Any]:
    return _owned(service, action_id, me)


@api.put("/actions/{action_id}")
def edit(action_id: ActionId, body: Edit, service: Actions,
         me: SessionInfo = Me) -> dict[str, Any]:
    _owned(service, action_id, me)
    edited: dict[str, Any] = _call(service.edit, action_id, body.payload, me.username)
    return edited


@api.get("/actions/{action_id}/audit")
def audit_trail(action_id: ActionId, service: Actions,
                me: SessionInfo = Me) -> list[dict[str, Any]]:
    _owned(service, action_id, me)
    return service.audit_trail(action_id)
