"""JSON API for proposed actions: propose, list, show, edit, audit. Thin over
act.ActionService. Approving and rejecting are the approvals routes (`routes/api.py`,
what the approval page shows); the mode and triage are under settings and triage there.

Nothing here sends mail.
Every route needs a signed-in person (and, for changes, the app-wide CSRF token); the person
is the actor and their current mail account is the only one these routes read or change —
another account's action answers 404, like a missing one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from fastapi import APIRouter, Depends, HTTPException
from pydantic import BaseModel, Field

from mailmoat.act.errors import ActError, InvalidState, NotFound, StaleApproval
from mailmoat.act.service import ActionService
from mailmoat.core.receipts import PayloadError
from mailmoat.entrypoints.web.security.auth import api_user
from mailmoat.entrypoints.web.views import MAX_ID, ActionId
from mailmoat.store.people import SessionInfo


class Refusal(BaseModel):
    detail: str


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


def actions_router(service: ActionService) -> APIRouter:
    """The routes over the app's one ActionService (app.state.actions)."""
    router = APIRouter(prefix="/api", tags=["actions"], responses={
        400: {"model": Refusal, "description": "the payload breaks a rule (one recipient, "
              "no line breaks in headers, ...)"},
        401: {"description": "not signed in"},
        404: {"description": "no such action on your account"},
        409: {"description": "not possible in the action's current state"},
    })
    Me = Depends(api_user)

    def call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        with _errors():
            return fn(*args, **kwargs)

    def owned(action_id: ActionId, me: SessionInfo) -> dict[str, Any]:
        view = call(service.show, action_id)
        if view["account"] != me.account:
            raise HTTPException(404, f"no action {action_id}")
        return view

    @router.get("/actions")
    def list_actions(status: str | None = None, me: SessionInfo = Me) -> list[dict[str, Any]]:
        return service.list(me.account, status)

    @router.post("/actions", status_code=201)
    def propose(body: Proposal, me: SessionInfo = Me) -> dict[str, Any]:
        return call(service.propose, me.account, body.payload, me.username, "api",
                    reply_to_message=body.reply_to_message)

    @router.get("/actions/{action_id}")
    def show(action_id: ActionId, me: SessionInfo = Me) -> dict[str, Any]:
        return owned(action_id, me)

    @router.put("/actions/{action_id}")
    def edit(action_id: ActionId, body: Edit, me: SessionInfo = Me) -> dict[str, Any]:
        owned(action_id, me)
        return call(service.edit, action_id, body.payload, me.username)

    @router.get("/actions/{action_id}/audit")
    def audit_trail(action_id: ActionId, me: SessionInfo = Me) -> list[dict[str, Any]]:
        owned(action_id, me)
        return service.audit_trail(action_id)

    return router
