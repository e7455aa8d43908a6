"""The JSON API: one endpoint for every action a page offers, described in /openapi.json.

Authentication: POST /api/session with a JSON body sets the session cookie and returns the
CSRF token; send it as `X-CSRF-Token` on every POST/PUT/DELETE.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field

from mailmoat.core.lanes import Lane
from mailmoat.core.policy import describe_policy
from mailmoat.entrypoints.web import views
from mailmoat.entrypoints.web.actions import (
    ActionResult,
    apply_link,
    current_mode,
    move,
    pin,
    set_images,
    set_mode,
    undo,
)
from mailmoat.entrypoints.web.lane_settings import lane_actions_of, save_lane_actions
from mailmoat.entrypoints.web.security.auth import (
    SESSION_COOKIE,
    api_user,
    attempt_login,
    web,
)
from mailmoat.entrypoints.web.settings_forms import (
    KEYWORD_PATTERN,
    FormError,
    check_guidelines,
    parse_lane_actions,
)
from mailmoat.entrypoints.web.views import MessageId
from mailmoat.notify.keys import vapid_public_key
from mailmoat.notify.settings import AccountNotifySettings, NotifyIn, mask_url
from mailmoat.notify.signing import BadLink
from mailmoat.store.people import SessionInfo

LaneName = Literal["PUSH", "MEETING", "QUEUE", "INFO", "SILENT"]
ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"description": "not signed in"},
    403: {"description": "missing or wrong CSRF token, or cross-origin"},
    404: {"description": "no such item in your account"},
}
router = APIRouter(prefix="/api", responses=ERRORS)
Me = Depends(api_user)


class Credentials(BaseModel):
    username: str = Field(..., min_length=1, max_length=100)
    password: str = Field(..., min_length=1, max_length=1000)


class SessionOut(BaseModel):
    username: str
    account: str
    accounts: list[str]
    csrf_token: str


class LaneIn(BaseModel):
    lane: LaneName


class ImagesIn(BaseModel):
    allow: bool


class RejectIn(BaseModel):
    reason: str = Field("", max_length=2000)


class ModeIn(BaseModel):
    mode: Literal["SUGGEST", "AUTO"]
    guidelines: str | None = Field(None, max_length=4000, description="for AUTO replies")
    daily_cap: int | None = Field(None, ge=0, le=1000, description="unattended sends per day")


class LaneActionIn(BaseModel):
    keyword: str | None = Field(None, pattern=KEYWORD_PATTERN,
                                description="IMAP keyword (Gmail: label); null for none")
    folder: str | None = Field(None, min_length=1, max_length=200,
                               description="file this lane's mail here; null: stays in INBOX")
    mark_read: bool = False


class ApproveIn(BaseModel):
    expected_sha256: str | None = Field(None, pattern="^[0-9a-f]{64}$",
                                        description="the payload hash you reviewed")


class AccountIn(BaseModel):
    account: str = Field(..., min_length=1, max_length=200)


class PushSubscriptionIn(BaseModel):
    endpoint: str = Field(..., pattern=r"^https?://", max_length=2000)
    keys: dict[Literal["p256dh", "auth"], str]


class ActionOut(BaseModel):
    message_id: int
    lane: str | None
    note: str


class DoneOut(BaseModel):
    done: str


def _out(result: ActionResult) -> ActionOut:
    return ActionOut(message_id=result.message_id, lane=result.lane, note=result.note)


def _session_out(me: SessionInfo) -> SessionOut:
    return SessionOut(username=me.username, account=me.account, accounts=list(me.accounts),
                      csrf_token=me.csrf_token)


# -- session ----------------------------------------------------------------------------

@router.post("/session", response_model=SessionOut,
             responses={429: {"description": "too many failed sign-ins"}})
def api_login(request: Request, body: Credentials) -> Response:
    from mailmoat.entrypoints.web.routes.pages import set_session_cookie

    attempt = attempt_login(request, body.username, body.password)
    if attempt.wait > 0:
        return JSONResponse({"detail": "too many failed sign-ins"}, 429,
                            headers={"Retry-After": str(int(attempt.wait) + 1)})
    user = attempt.user
    if user is None:
        raise HTTPException(401, "wrong user name or password")
    token, csrf = web(request).create_session(user)
    me = SessionInfo(user.id, user.username, user.accounts[0] if user.accounts else "", csrf,
                     user.accounts)
    response = JSONResponse(_session_out(me).model_dump())
    set_session_cookie(request, response, token)
    return response


@router.get("/session", response_model=SessionOut)
def api_whoami(me: SessionInfo = Me) -> SessionOut:
    return _session_out(me)


@router.delete("/session", status_code=204)
def api_logout(request: Request, me: SessionInfo = Me) -> Response:
    web(request).end_session(request.cookies.get(SESSION_COOKIE, ""))
    response = Response(status_code=204)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


@router.post("/account", response_model=SessionOut)
def api_switch_account(request: Request, body: AccountIn, me: SessionInfo = Me) -> SessionOut:
    if not web(request).switch_account(request.cookies.get(SESSION_COOKIE, ""), body.account):
        raise HTTPException(404, "no such account")
    found = web(request).get_session(request.cookies.get(SESSION_COOKIE, ""))
    assert found is not None
    return _session_out(found)


# -- mail -------------------------------------------------------------------------------

@router.get("/lanes")
def api_lanes(request: Request, me: SessionInfo = Me) -> dict[str, Any]:
    return {"counts": views.counts(request.app.state.store, me.account),
            "policy": describe_policy()["version"]}


@router.get("/firewall")
def api_firewall(request: Request, me: SessionInfo = Me) -> list[dict[str, Any]]:
    return views.firewall(request.app.state.store, me.account)


@router.get("/messages")
def api_messages(
    request: Request,
    lane: LaneName,
    limit: int = Query(50, ge=1, le=500),
    offset: int = Query(0, ge=0, le=10_000_000),
    me: SessionInfo = Me,
) -> list[dict[str, Any]]:
    return views.lane_messages(request.app.state.store, me.account, lane, limit, offset)


@router.get("/messages/{message_id}")
def api_message(request: Request, message_id: MessageId, html: bool = False,
                me: SessionInfo = Me) -> dict[str, Any]:
    """The message; with `html=true` also its sanitized HTML, blocked images and link targets."""
    return views.message(request.app.state.store, web(request), me.account, message_id,
                         want_html=html)


@router.get("/messages/{message_id}/trace")
def api_trace(request: Request, message_id: MessageId, me: SessionInfo = Me) -> dict[str, Any]:
    return views.trace(request.app.state.store, me.account, message_id)


@router.post("/messages/{message_id}/move", response_model=ActionOut)
def api_move(request: Request, message_id: MessageId, body: LaneIn,
             me: SessionInfo = Me) -> ActionOut:
    return _out(move(request, me, message_id, Lane(body.lane)))


@router.post("/messages/{message_id}/pin", response_model=ActionOut)
def api_pin(request: Request, message_id: MessageId, body: LaneIn,
            me: SessionInfo = Me) -> ActionOut:
    """Pin the message's sender to a lane (a human pin: the only way a sender is silenced)."""
    return _out(pin(request, me, message_id, Lane(body.lane)))


@router.post("/messages/{message_id}/undo", response_model=ActionOut)
def api_undo(request: Request, message_id: MessageId, me: SessionInfo = Me) -> ActionOut:
    return _out(undo(request, me, message_id))


@router.post("/messages/{message_id}/images", response_model=ActionOut)
def api_images(request: Request, message_id: MessageId, body: ImagesIn,
               me: SessionInfo = Me) -> ActionOut:
    """Allow or block remote images for this message's sender."""
    return _out(set_images(request, me, message_id, body.allow))


# -- approvals and triage ---------------------------------------------------------------

def _action(item: Any) -> dict[str, Any]:
    return {k: getattr(item, k) for k in item.__slots__}


@router.get("/approvals")
def api_approvals(request: Request, me: SessionInfo = Me) -> list[dict[str, Any]]:
    return [_action(a) for a in request.app.state.approvals.list(me.account)]


@router.get("/approvals/{action_id}")
def api_approval(request: Request, action_id: str, me: SessionInfo = Me) -> dict[str, Any]:
    item = request.app.state.approvals.show(me.account, action_id)
    if item is None:
        raise HTTPException(404, "no such pending action")
    return _action(item)


@router.post("/approvals/{action_id}/approve", response_model=DoneOut)
def api_approve(request: Request, action_id: str, body: ApproveIn | None = None,
                me: SessionInfo = Me) -> DoneOut:
    """Mint the receipt over the stored payload. Send the `payload_sha256` you reviewed as
    `expected_sha256`: if the payload changed since, the approval is refused (409)."""
    expected = body.expected_sha256 if body else None
    outcome = request.app.state.approvals.approve(me.account, action_id, me.username, expected)
    if not outcome.ok:
        missing = not outcome.detail or outcome.detail.startswith("no such")
        raise HTTPException(404 if missing else 409, outcome.detail or "no such pending action")
    return DoneOut(done="approved")


@router.post("/approvals/{action_id}/reject", response_model=DoneOut)
def api_reject(request: Request, action_id: str, body: RejectIn,
               me: SessionInfo = Me) -> DoneOut:
    outcome = request.app.state.approvals.reject(me.account, action_id, me.username,
                                                 body.reason)
    if not outcome.ok:
        raise HTTPException(404, outcome.detail or "no such pending action")
    return DoneOut(done="rejected")


@router.get("/triage")
def api_triage(request: Request, me: SessionInfo = Me) -> list[dict[str, Any]]:
    return [_action(t) for t in request.app.state.triage.list(me.account)]


# -- settings, status, push, links ------------------------------------------------------

def _settings_out(settings: AccountNotifySettings) -> dict[str, Any]:
    data = settings.model_dump(mode="json")
    data["notify"]["apprise_urls"] = [mask_url(u) for u in settings.notify.apprise_urls]
    return data


@router.get("/settings")
def api_settings(request: Request, me: SessionInfo = Me) -> dict[str, Any]:
    """Settings of the current account. Apprise URLs carry tokens and are shown masked.
    `lane_actions` is null for an account without a mail server (imported mail)."""
    settings = AccountNotifySettings.load(web(request).settings(me.account))
    out = _settings_out(settings.model_copy(update={"mode": current_mode(request, me.account)}))
    autonomy = request.app.state.actions.mode(me.account)
    lanes = lane_actions_of(request, me.account)
    out.update({"guidelines": autonomy.guidelines, "daily_cap": autonomy.daily_cap,
                "lane_actions": None if lanes is None else lanes.as_dict()})
    return out


@router.put("/settings/mode", responses={422: {"description": "guidelines not plain text"}})
def api_mode(request: Request, body: ModeIn, me: SessionInfo = Me) -> dict[str, Any]:
    try:
        guidelines = None if body.guidelines is None else check_guidelines(body.guidelines)
    except FormError as exc:
        raise HTTPException(422, str(exc)) from exc
    mode = set_mode(request, me, body.mode, guidelines, body.daily_cap)
    settings = AccountNotifySettings.load(web(request).settings(me.account))
    return _settings_out(settings.model_copy(update={"mode": mode}))


@router.put("/settings/lanes", responses={
    409: {"description": "this account has no mail server to act on"},
    422: {"description": "a folder is INBOX, or two lanes share a keyword or folder"}})
def api_lanes_settings(request: Request, body: dict[LaneName, LaneActionIn],
                       me: SessionInfo = Me) -> dict[str, Any]:
    """Replace what each lane does on the account's IMAP server; a lane left out does nothing."""
    if lane_actions_of(request, me.account) is None:
        raise HTTPException(409, f"{me.account!r} has no mail server to act on")
    form: dict[str, str] = {}
    for lane, spec in body.items():
        form[f"keyword_{lane}"] = spec.keyword or ""
        form[f"folder_{lane}"] = spec.folder or ""
        if spec.mark_read:
            form[f"mark_read_{lane}"] = "1"
    try:
        actions = parse_lane_actions(form)
    except FormError as exc:
        raise HTTPException(422, str(exc)) from exc
    save_lane_actions(request, me.account, actions)
    return actions.as_dict()


@router.put("/settings/notify")
def api_notify(request: Request, body: NotifyIn, me: SessionInfo = Me) -> dict[str, Any]:
    """Replace the notification settings (channels, quiet hours, focus windows, rate limit)."""
    store = web(request)
    settings = AccountNotifySettings.load(store.settings(me.account)).model_copy(
        update={"notify": body})
    store.save_settings(me.account, settings.model_dump(mode="json"))
    return _settings_out(settings)


@router.get("/status")
def api_status(request: Request, me: SessionInfo = Me) -> dict[str, Any]:
    pending = len(request.app.state.approvals.list(me.account))
    return views.status(request.app.state.store, web(request), me.account, pending)


@router.get("/push/key")
def api_push_key(request: Request, me: SessionInfo = Me) -> dict[str, str]:
    """The VAPID application server key for PushManager.subscribe()."""
    return {"key": vapid_public_key(web(request))}


@router.post("/push/subscriptions", status_code=201, response_model=DoneOut)
def api_push_subscribe(request: Request, body: PushSubscriptionIn,
                       me: SessionInfo = Me) -> DoneOut:
    web(request).add_push_subscription(me.user_id, me.account, body.endpoint,
                                       body.keys.get("p256dh", ""), body.keys.get("auth", ""))
    return DoneOut(done="subscribed")


@router.post("/links/{token}", response_model=DoneOut,
             responses={404: {"description": "forged, malformed or expired link"}})
def api_link(request: Request, token: str) -> Response:
    """Carry out a signed notification link ("later" or "mute sender"); no session needed."""
    try:
        return JSONResponse({"done": apply_link(request, token)})
    except BadLink as exc:
        return JSONResponse({"detail": str(exc)}, 404)  # a bad link names nothing
