"""JSON API for proposed actions, approvals, modes and triage. Thin over act.ActionService.

Nothing here sends mail: approving enqueues an outbox row for the guarded executor.
Who is acting comes from the `actor` dependency; until the web layer has sign-in it reads
the required `X-Mailmoat-Actor` header, and the web app overrides it with the signed-in user
(`app.dependency_overrides[actor] = ...`). Until then anyone who can reach the API on
127.0.0.1 can approve: the header only keeps other web pages out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from fastapi import APIRouter, Depends, Header, HTTPException
from pydantic import BaseModel, Field

from mailmoat.act.errors import ActError, InvalidState, NotFound, StaleApproval
from mailmoat.act.service import ActionService
from mailmoat.core.autonomy import Mode
from mailmoat.core.receipts import PayloadError


def actor(x_mailmoat_actor: str = Header(..., min_length=1, max_length=190)) -> str:
    """Required on every change: a custom header is something a cross-site form or a
    "simple" cross-origin request cannot send, so a web page cannot approve on your behalf."""
    return f"api:{x_mailmoat_actor.removeprefix('api:')}"


class Proposal(BaseModel):
    account: str = "local"
    payload: dict[str, Any]
    reply_to_message: int | None = None


class Edit(BaseModel):
    payload: dict[str, Any]


class Approval(BaseModel):
    expected_sha256: str | None = Field(None, description="the payload hash you reviewed")


class Rejection(BaseModel):
    note: str = ""


class ModeChange(BaseModel):
    mode: Mode
    daily_cap: int | None = Field(None, ge=0)
    guidelines: str | None = None


@contextmanager
def _errors() -> Iterator[None]:
    try:
        yield
    except NotFound as exc:
        raise HTTPException(404, str(exc)) from exc
    except (InvalidState, StaleApproval) as exc:
        raise HTTPException(409, str(exc)) from exc
    except (PayloadError, ActError) as exc:
        raise HTTPException(422, str(exc)) from exc


def actions_router(store: Any) -> APIRouter:
    router = APIRouter(prefix="/api", tags=["actions"])
    service = ActionService(store.engine)
    Actor = Depends(actor)

    def call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        with _errors():
            return fn(*args, **kwargs)

    @router.get("/actions")
    def list_actions(account: str | None = None, status: str | None = None
                     ) -> list[dict[str, Any]]:
        return service.list(account, status)

    @router.post("/actions", status_code=201)
    def propose(body: Proposal, who: str = Actor) -> dict[str, Any]:
        return call(service.propose, body.account, body.payload, who, "api",
                    reply_to_message=body.reply_to_message)

    @router.get("/actions/{action_id}")
    def show(action_id: int) -> dict[str, Any]:
        return call(service.show, action_id)

    @router.put("/actions/{action_id}")
    def edit(action_id: int, body: Edit, who: str = Actor) -> dict[str, Any]:
        return call(service.edit, action_id, body.payload, who)

    @router.post("/actions/{action_id}/approve")
    def approve(action_id: int, body: Approval, who: str = Actor) -> dict[str, Any]:
        return call(service.approve, action_id, who, expected_sha256=body.expected_sha256)

    @router.post("/actions/{action_id}/reject")
    def reject(action_id: int, body: Rejection, who: str = Actor) -> dict[str, Any]:
        return call(service.reject, action_id, who, body.note)

    @router.get("/actions/{action_id}/audit")
    def audit_trail(action_id: int) -> list[dict[str, Any]]:
        return service.audit_trail(action_id)

    @router.get("/triage")
    def triage(account: str = "local") -> list[dict[str, Any]]:
        return service.triage(account)

    @router.post("/triage/{triage_id}/resolve")
    def resolve(triage_id: int, who: str = Actor) -> dict[str, str]:
        call(service.resolve_triage, triage_id, who)
        return {"status": "resolved"}

    @router.get("/accounts/{account}/mode")
    def get_mode(account: str) -> dict[str, Any]:
        m = service.mode(account)
        return {"account": account, "mode": m.mode.value, "daily_cap": m.daily_cap,
                "guidelines": m.guidelines}

    @router.put("/accounts/{account}/mode")
    def set_mode(account: str, body: ModeChange, who: str = Actor) -> dict[str, Any]:
        m = call(service.set_mode, account, body.mode, who, guidelines=body.guidelines,
                 daily_cap=body.daily_cap)
        return {"account": account, "mode": m.mode.value, "daily_cap": m.daily_cap,
                "guidelines": m.guidelines}

    return router
