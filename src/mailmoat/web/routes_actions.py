"""JSON API for proposed actions and the account's autonomy mode, thin over ActionService;
and the adapters that give the web pages' `Approvals`/`Triage` interfaces the real thing.

Who acts is the signed-in user (`web:<username>` on receipts); every route is scoped to the
user's current mail account, and the app-wide CSRF guard covers every change. Nothing here
sends mail: approving enqueues an outbox row for the guarded executor.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from fastapi import APIRouter, Depends, HTTPException
from pydantic import BaseModel, Field

from mailmoat.act.errors import ActError, InvalidState, NotFound, StaleApproval
from mailmoat.act.service import ActionService
from mailmoat.core.autonomy import Mode
from mailmoat.core.hashing import canonical_json
from mailmoat.core.receipts import PayloadError
from mailmoat.store.web_store import SessionInfo
from mailmoat.web.approvals import Outcome, PendingAction, TriageItem
from mailmoat.web.auth import api_user

Me = Depends(api_user)


def actor(me: SessionInfo) -> str:
    return f"web:{me.username}"


class Proposal(BaseModel):
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


ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"description": "not signed in"},
    403: {"description": "missing or wrong CSRF token, or cross-origin"},
    404: {"description": "no such action in your account"},
    409: {"description": "refused: the payload cannot be bound (CR/LF, not one recipient, "
                         "a reply to someone else, ...), or the action is not in a state "
                         "that allows this (already approved, changed since it was shown)"},
}


@contextmanager
def _errors() -> Iterator[None]:
    try:
        yield
    except NotFound as exc:
        raise HTTPException(404, str(exc)) from exc
    except (InvalidState, StaleApproval, PayloadError, ActError) as exc:
        raise HTTPException(409, str(exc)) from exc


def actions_router(store: Any) -> APIRouter:
    router = APIRouter(prefix="/api/actions", tags=["actions"], responses=ERRORS)
    service = ActionService(store.engine)

    def call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        with _errors():
            return fn(*args, **kwargs)

    def mine(action_id: int, me: SessionInfo) -> dict[str, Any]:
        view = call(service.show, action_id)
        if view["account"] != me.account:  # another account's action does not exist here
            raise HTTPException(404, f"no action {action_id}")
        return view  # type: ignore[no-any-return]

    @router.get("")
    def list_actions(status: str | None = None, me: SessionInfo = Me) -> list[dict[str, Any]]:
        return service.list(me.account, status)

    @router.post("", status_code=201)
    def propose(body: Proposal, me: SessionInfo = Me) -> dict[str, Any]:
        return call(service.propose, me.account, body.payload, actor(me), "web",  # type: ignore[no-any-return]
                    reply_to_message=body.reply_to_message)

    @router.get("/mode")
    def get_mode(me: SessionInfo = Me) -> dict[str, Any]:
        return _mode_out(service, me.account)

    @router.put("/mode")
    def set_mode(body: ModeChange, me: SessionInfo = Me) -> dict[str, Any]:
        call(service.set_mode, me.account, body.mode, actor(me), guidelines=body.guidelines,
             daily_cap=body.daily_cap)
        return _mode_out(service, me.account)

    @router.get("/{action_id}")
    def show(action_id: int, me: SessionInfo = Me) -> dict[str, Any]:
        return mine(action_id, me)

    @router.put("/{action_id}")
    def edit(action_id: int, body: Edit, me: SessionInfo = Me) -> dict[str, Any]:
        mine(action_id, me)
        return call(service.edit, action_id, body.payload, actor(me))  # type: ignore[no-any-return]

    @router.post("/{action_id}/approve")
    def approve(action_id: int, body: Approval, me: SessionInfo = Me) -> dict[str, Any]:
        mine(action_id, me)
        return call(service.approve, action_id, actor(me),  # type: ignore[no-any-return]
                    expected_sha256=body.expected_sha256)

    @router.post("/{action_id}/reject")
    def reject(action_id: int, body: Rejection, me: SessionInfo = Me) -> dict[str, Any]:
        mine(action_id, me)
        return call(service.reject, action_id, actor(me), body.note)  # type: ignore[no-any-return]

    @router.get("/{action_id}/audit")
    def audit_trail(action_id: int, me: SessionInfo = Me) -> list[dict[str, Any]]:
        mine(action_id, me)
        return service.audit_trail(action_id)

    return router


def _mode_out(service: ActionService, account: str) -> dict[str, Any]:
    m = service.mode(account)
    return {"account": account, "mode": m.mode.value, "daily_cap": m.daily_cap,
            "guidelines": m.guidelines}


class ActApprovals:
    """The web pages' `Approvals` over the real pending-action store."""

    def __init__(self, service: ActionService) -> None:
        self.service = service

    def _pending(self, view: dict[str, Any]) -> PendingAction:
        p = view["payload"]
        summary = f"{view['action']} to {p['to']}: {p.get('subject', '')}" if p.get("to") else (
            f"{view['action']} {p.get('message_id', p.get('message', ''))}")
        replying = view.get("replying_to") or {}
        return PendingAction(
            id=str(view["id"]), kind=view["action"], message_id=replying.get("id"),
            summary=summary, payload=canonical_json(p).decode("utf-8"),
            payload_sha256=view["payload_sha256"], created_at=view["proposed_at"],
        )

    def list(self, account: str) -> list[PendingAction]:
        return [self._pending(self.service.show(a["id"]))
                for a in self.service.list(account, "pending")]

    def show(self, account: str, action_id: str) -> PendingAction | None:
        view = self._view(account, action_id)
        return None if view is None or view["status"] != "pending" else self._pending(view)

    def _view(self, account: str, action_id: str) -> dict[str, Any] | None:
        try:
            view = self.service.show(int(action_id))
        except (ValueError, NotFound):
            return None
        return view if view["account"] == account else None

    def approve(self, account: str, action_id: str, actor: str) -> Outcome:
        if self._view(account, action_id) is None:
            return Outcome(False, "no such pending action")
        try:
            view = self.service.approve(int(action_id), f"web:{actor}")
        except (ActError, PayloadError) as exc:
            return Outcome(False, str(exc))
        receipt = view["receipt"] or {}
        return Outcome(True, "approved", {"payload_sha256": receipt.get("payload_sha256", "")})

    def reject(self, account: str, action_id: str, actor: str, reason: str) -> Outcome:
        if self._view(account, action_id) is None:
            return Outcome(False, "no such pending action")
        try:
            self.service.reject(int(action_id), f"web:{actor}", reason)
        except ActError as exc:
            return Outcome(False, str(exc))
        return Outcome(True, "rejected")


class ActTriage:
    """The web pages' `Triage` over the canary list."""

    def __init__(self, service: ActionService) -> None:
        self.service = service

    def list(self, account: str) -> list[TriageItem]:
        return [TriageItem(message_id=t["message_id"], subject=t["subject"], reason=t["reason"])
                for t in self.service.triage(account)]
