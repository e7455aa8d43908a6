"""Server-rendered pages. Every action is a plain form POST that redirects back (PRG), so the
whole interface works without JavaScript; the JSON API mirrors each one."""

from __future__ import annotations

import hmac
import secrets
from datetime import UTC, datetime, time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends, Form, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from pydantic import ValidationError

from mailmoat.core.lanes import Lane
from mailmoat.entrypoints.web import views
from mailmoat.entrypoints.web.actions import (
    apply_link,
    current_mode,
    move,
    pin,
    pins,
    set_images,
    set_mode,
    undo,
)
from mailmoat.entrypoints.web.lane_settings import (
    lane_actions_of,
    lane_rows,
    lane_rows_from_form,
    save_lane_actions,
)
from mailmoat.entrypoints.web.notices import notice_code, notice_text
from mailmoat.entrypoints.web.security.auth import (
    LOGIN_CSRF_COOKIE,
    SESSION_COOKIE,
    PasswordTooWeak,
    attempt_login,
    hash_password,
    page_user,
    secure_cookies,
    session_of,
    web,
)
from mailmoat.entrypoints.web.security.csp import csp
from mailmoat.entrypoints.web.settings_forms import (
    FormError,
    check_daily_cap,
    check_guidelines,
    parse_lane_actions,
)
from mailmoat.entrypoints.web.timefmt import when
from mailmoat.entrypoints.web.views import LANE_BLURB, PAGE_SIZE, MessageId, parse_lane
from mailmoat.notify.keys import link_key, vapid_public_key
from mailmoat.notify.settings import AccountNotifySettings, NotifyIn, WindowIn, mask_url
from mailmoat.notify.signing import BadLink, verify_link
from mailmoat.services.people import default_accounts
from mailmoat.store.people import SessionInfo

router = APIRouter(include_in_schema=False)
templates = Jinja2Templates(directory=str(Path(__file__).parents[1] / "templates"))
templates.env.filters["when"] = when
User = Depends(page_user)


def render(request: Request, name: str, ctx: dict[str, Any], status: int = 200,
           headers: dict[str, str] | None = None) -> HTMLResponse:
    me = session_of(request)
    ctx = {"me": me, "csrf": me.csrf_token if me else "",
           "flash": notice_text(request.query_params.get("done", "")), **ctx}
    return templates.TemplateResponse(request, name, ctx, status_code=status, headers=headers)


def back(to: str, done: str = "") -> RedirectResponse:
    """Redirect to `to`, with a notice code (web/notices.py) to show there."""
    if done:
        if not notice_text(done):
            raise ValueError(f"{done!r} is not a notice code")  # a bug, not a user error
        to += ("&" if "?" in to else "?") + "done=" + done
    return RedirectResponse(to, 303)


def _safe_next(target: str) -> str:
    """Only a local path: an open redirect after sign-in would be a phishing helper."""
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return "/"
    return target


# -- sign-in ----------------------------------------------------------------------------

@router.get("/login", response_class=HTMLResponse)
def login_page(request: Request, next: str = "/") -> HTMLResponse:
    token = secrets.token_urlsafe(24)
    response = render(request, "login.html", {"login_csrf": token, "next": _safe_next(next),
                                              "error": ""})
    response.set_cookie(LOGIN_CSRF_COOKIE, token, httponly=True, samesite="strict",
                        secure=secure_cookies(request), max_age=3600)
    return response


@router.post("/login", response_class=HTMLResponse)
def login_submit(
    request: Request,
    username: str = Form(..., max_length=100),
    password: str = Form(..., max_length=1000),
    next: str = Form("/"),
) -> Response:
    attempt = attempt_login(request, username, password)
    wait = attempt.wait
    if wait > 0:
        return render(request, "login.html", {
            "login_csrf": request.cookies.get(LOGIN_CSRF_COOKIE, ""), "next": _safe_next(next),
            "error": f"Too many failed sign-ins. Try again in {int(wait) + 1} seconds."},
            status=429, headers={"Retry-After": str(int(wait) + 1)})
    user = attempt.user
    if user is None:
        return render(request, "login.html", {
            "login_csrf": request.cookies.get(LOGIN_CSRF_COOKIE, ""), "next": _safe_next(next),
            "error": "Wrong user name or password."}, status=401)
    token, _csrf = web(request).create_session(user)
    response = RedirectResponse(_safe_next(next), 303)
    set_session_cookie(request, response, token)
    response.delete_cookie(LOGIN_CSRF_COOKIE)
    return response


def set_session_cookie(request: Request, response: Response, token: str) -> None:
    response.set_cookie(SESSION_COOKIE, token, httponly=True, samesite="strict",
                        secure=secure_cookies(request), max_age=7 * 24 * 3600, path="/")


@router.post("/logout")
def logout(request: Request) -> Response:
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        web(request).end_session(token)
    response = RedirectResponse("/login", 303)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


def _setup_ok(request: Request, token: str) -> bool:
    expected = request.app.state.setup_token
    return web(request).user_count() == 0 and hmac.compare_digest(token, expected)


@router.get("/setup", response_class=HTMLResponse)
def setup_page(request: Request, token: str = "") -> HTMLResponse:
    if not _setup_ok(request, token):
        raise HTTPException(404, "setup is done or the link is wrong")
    return render(request, "setup.html", {"token": token, "error": ""})


@router.post("/setup", response_class=HTMLResponse)
def setup_submit(
    request: Request,
    token: str = Form(...),
    username: str = Form(..., min_length=1, max_length=100),
    password: str = Form(..., max_length=1000),
    password2: str = Form(..., max_length=1000),
) -> Response:
    if not _setup_ok(request, token):
        raise HTTPException(404, "setup is done or the link is wrong")
    error = "The two passwords differ." if password != password2 else ""
    user = None
    if not error:
        try:
            user = web(request).create_first_user(username.strip(), hash_password(password),
                                                  default_accounts(request.app.state.store))
        except PasswordTooWeak as exc:
            error = str(exc)
        if user is None and not error:  # another request made the first user meanwhile
            raise HTTPException(404, "setup is done or the link is wrong")
    if error or user is None:
        return render(request, "setup.html", {"token": token, "error": error}, status=400)
    session, _csrf = web(request).create_session(user)
    response = RedirectResponse("/", 303)
    set_session_cookie(request, response, session)
    return response


# -- mail -------------------------------------------------------------------------------

@router.get("/lane/{lane}", response_class=HTMLResponse)
def lane_page(request: Request, lane: str, page: int = Query(0, ge=0, le=100_000),
              me: SessionInfo = User) -> HTMLResponse:
    chosen = parse_lane(lane)
    store = request.app.state.store
    rows = views.lane_messages(store, me.account, chosen.value, PAGE_SIZE, page * PAGE_SIZE)
    return render(request, "lane.html", {
        "lane": chosen.value, "blurb": LANE_BLURB[chosen],
        "count": views.counts(store, me.account)[chosen.value], "messages": rows,
        "page": page, "has_next": len(rows) == PAGE_SIZE})


@router.get("/message/{message_id}", response_class=HTMLResponse)
def message_page(request: Request, message_id: MessageId, view: str = "text",
                 me: SessionInfo = User) -> HTMLResponse:
    item = views.message(request.app.state.store, web(request), me.account, message_id,
                         want_html=view == "html")
    headers = None
    if item["html"] is not None and item["sender_prefs"]["allow_images"]:
        headers = {"Content-Security-Policy": csp(remote_images=True)}
    meeting = None
    if item["lane"] == Lane.MEETING.value:
        from mailmoat.entrypoints.web.routes.meeting import meeting_view

        meeting = meeting_view(request, me.account, message_id)
    return render(request, "message.html", {"m": item, "view": view, "meeting": meeting,
                                            "lanes": [lane.value for lane in Lane]},
                  headers=headers)


@router.get("/message/{message_id}/trace", response_class=HTMLResponse)
def trace_page(request: Request, message_id: MessageId, me: SessionInfo = User) -> HTMLResponse:
    return render(request, "trace.html",
                  {"t": views.trace(request.app.state.store, me.account, message_id)})


@router.post("/message/{message_id}/move")
def move_form(request: Request, message_id: MessageId, lane: str = Form(...),
              me: SessionInfo = User) -> Response:
    result = move(request, me, message_id, parse_lane(lane))
    return back(f"/message/{message_id}", result.notice)


@router.post("/message/{message_id}/pin")
def pin_form(request: Request, message_id: MessageId, lane: str = Form(...),
             me: SessionInfo = User) -> Response:
    result = pin(request, me, message_id, parse_lane(lane))
    return back(f"/message/{message_id}", result.notice)


@router.post("/message/{message_id}/undo")
def undo_form(request: Request, message_id: MessageId, me: SessionInfo = User) -> Response:
    result = undo(request, me, message_id)
    return back(f"/message/{message_id}", result.notice)


@router.post("/message/{message_id}/images")
def images_form(request: Request, message_id: MessageId, allow: bool = Form(...),
                me: SessionInfo = User) -> Response:
    set_images(request, me, message_id, allow)
    return back(f"/message/{message_id}?view=html",
                "images_allowed" if allow else "images_blocked")


@router.get("/corrections", response_class=HTMLResponse)
def corrections_page(request: Request, me: SessionInfo = User) -> HTMLResponse:
    return render(request, "corrections.html", {
        "rows": web(request).corrections(me.account),
        "pins": pins(request, me)})


# -- approvals and triage (act/ provides the data) --------------------------------------

@router.get("/approvals", response_class=HTMLResponse)
def approvals_page(request: Request, me: SessionInfo = User) -> HTMLResponse:
    approvals = request.app.state.approvals
    unknown = approvals.unknown(me.account) if hasattr(approvals, "unknown") else []
    return render(request, "approvals.html",
                  {"items": approvals.list(me.account), "unknown": unknown})


@router.get("/approvals/{action_id}", response_class=HTMLResponse)
def approval_page(request: Request, action_id: str, me: SessionInfo = User) -> HTMLResponse:
    item = request.app.state.approvals.show(me.account, action_id)
    if item is None:
        raise HTTPException(404, "no such pending action")
    return render(request, "approval.html", {"a": item})


@router.post("/approvals/{action_id}/approve")
def approve_form(request: Request, action_id: str, expected_sha256: str = Form(""),
                 me: SessionInfo = User) -> Response:
    outcome = request.app.state.approvals.approve(me.account, action_id, me.username,
                                                  expected_sha256 or None)
    if not outcome.ok:
        missing = not outcome.detail or outcome.detail.startswith("no such")
        raise HTTPException(404 if missing else 409, outcome.detail or "no such pending action")
    return back("/approvals", "approved")


@router.post("/approvals/{action_id}/reject")
def reject_form(request: Request, action_id: str, reason: str = Form("", max_length=2000),
                me: SessionInfo = User) -> Response:
    outcome = request.app.state.approvals.reject(me.account, action_id, me.username, reason)
    if not outcome.ok:
        raise HTTPException(404, outcome.detail or "no such pending action")
    return back("/approvals", "rejected")


@router.post("/approvals/{action_id}/resolve")
def resolve_form(request: Request, action_id: str, arrived: str = Form(..., max_length=3),
                 me: SessionInfo = User) -> Response:
    """A person settles a send whose outcome is unknown: it arrived, or send it again."""
    if arrived not in ("yes", "no"):
        raise HTTPException(422, "arrived must be yes or no")
    approvals = request.app.state.approvals
    if not hasattr(approvals, "resolve"):
        raise HTTPException(404, "no such send")
    outcome = approvals.resolve(me.account, action_id, me.username, arrived == "yes")
    if not outcome.ok:
        raise HTTPException(404 if outcome.detail.startswith("no such") else 409,
                            outcome.detail)
    return back("/approvals", "send_recorded" if arrived == "yes" else "send_queued")


@router.get("/triage", response_class=HTMLResponse)
def triage_page(request: Request, me: SessionInfo = User) -> HTMLResponse:
    return render(request, "triage.html", {"items": request.app.state.triage.list(me.account)})


# -- settings and status ----------------------------------------------------------------

def _windows_text(windows: list[WindowIn]) -> str:
    return ", ".join(f"{w.start:%H:%M}-{w.end:%H:%M}" for w in windows)


def _parse_windows(text: str) -> list[WindowIn]:
    out = []
    for chunk in filter(None, (c.strip() for c in text.split(","))):
        start, sep, end = chunk.partition("-")
        if not sep:
            raise ValueError(f"{chunk!r}: write a span as HH:MM-HH:MM")
        out.append(WindowIn(start=time.fromisoformat(start.strip()),
                            end=time.fromisoformat(end.strip())))
    return out


def _settings_ctx(request: Request, me: SessionInfo) -> dict[str, Any]:
    settings = AccountNotifySettings.load(web(request).settings(me.account)).model_copy(
        update={"mode": current_mode(request, me.account)})
    autonomy = request.app.state.actions.mode(me.account)
    lanes = lane_actions_of(request, me.account)
    return {
        "s": settings, "error": "",
        "guidelines": autonomy.guidelines, "daily_cap": str(autonomy.daily_cap),
        "lane_rows": None if lanes is None else lane_rows(lanes),
        "urls": [mask_url(u) for u in settings.notify.apprise_urls],
        "quiet": _windows_text(settings.notify.quiet_hours),
        "focus": _windows_text(settings.notify.focus_windows),
        "vapid_key": vapid_public_key(web(request)),
        "push_count": len(web(request).push_subscriptions(me.account)),
        "budget": views.judge_figures(request.app.state.store, me.account)["budget"]}


@router.get("/settings", response_class=HTMLResponse)
def settings_page(request: Request, me: SessionInfo = User) -> HTMLResponse:
    return render(request, "settings.html", _settings_ctx(request, me))


def _settings_refused(request: Request, me: SessionInfo, error: str,
                      kept: dict[str, Any]) -> HTMLResponse:
    """Nothing saved: the page again with the reason and what the person typed, not lost."""
    return render(request, "settings.html",
                  {**_settings_ctx(request, me), **kept, "error": error}, status=400)


@router.post("/settings/account")
def account_form(request: Request, account: str = Form(...), me: SessionInfo = User) -> Response:
    if not web(request).switch_account(request.cookies.get(SESSION_COOKIE, ""), account):
        raise HTTPException(404, "no such account")
    return back("/settings", "account_switched")


@router.post("/settings/mode", response_class=HTMLResponse)
def mode_form(request: Request, mode: str = Form(...),
              guidelines: str | None = Form(None, max_length=100_000),
              daily_cap: str | None = Form(None, max_length=100),
              me: SessionInfo = User) -> Response:
    if mode not in ("SUGGEST", "AUTO"):
        raise HTTPException(422, "mode is SUGGEST or AUTO")
    try:
        text = None if guidelines is None else check_guidelines(guidelines)
        cap = None if daily_cap is None else check_daily_cap(daily_cap)
    except FormError as exc:
        return _settings_refused(request, me, str(exc), {
            "guidelines": guidelines or "", "daily_cap": daily_cap or ""})
    return back("/settings", notice_code("mode_saved", set_mode(request, me, mode, text, cap)))


@router.post("/settings/lanes", response_class=HTMLResponse)
async def lanes_form(request: Request, me: SessionInfo = User) -> Response:
    form = {k: v for k, v in (await request.form()).items() if isinstance(v, str)}
    try:
        save_lane_actions(request, me.account, parse_lane_actions(form))
    except FormError as exc:
        return _settings_refused(request, me, str(exc), {"lane_rows": lane_rows_from_form(form)})
    return back("/settings", "lane_actions_saved")


@router.post("/settings/notify")
def notify_form(
    request: Request,
    timezone: str = Form("UTC", max_length=100),
    quiet: str = Form("", max_length=500),
    focus: str = Form("", max_length=500),
    rate_limit: int = Form(3),
    rate_window_minutes: int = Form(10),
    add_url: str = Form("", max_length=2000),
    remove_url: int = Form(-1),
    me: SessionInfo = User,
) -> Response:
    store = web(request)
    settings = AccountNotifySettings.load(store.settings(me.account))
    urls = list(settings.notify.apprise_urls)
    if 0 <= remove_url < len(urls):
        urls.pop(remove_url)
    if add_url.strip():
        urls.append(add_url.strip())
    try:
        notify = NotifyIn(timezone=timezone, apprise_urls=urls, quiet_hours=_parse_windows(quiet),
                          focus_windows=_parse_windows(focus), rate_limit=rate_limit,
                          rate_window_minutes=rate_window_minutes,
                          fresh_minutes=settings.notify.fresh_minutes)
    except (ValidationError, ValueError) as exc:
        # Nothing is saved: the page shows why, the earlier settings stay.
        message = "; ".join(e["msg"] for e in exc.errors()) if isinstance(
            exc, ValidationError) else str(exc)
        # Shown on the page itself (no redirect): a URL must never carry the warning's text.
        return _settings_refused(request, me, message[:300], {})
    store.save_settings(me.account, settings.model_copy(update={"notify": notify}).model_dump(
        mode="json"))
    return back("/settings", "notifications_saved")


@router.get("/status", response_class=HTMLResponse)
def status_page(request: Request, me: SessionInfo = User) -> HTMLResponse:
    pending = len(request.app.state.approvals.list(me.account))
    return render(request, "status.html", {
        "s": views.status(request.app.state.store, web(request), me.account, pending)})


# -- signed notification links ----------------------------------------------------------

@router.get("/n/{token}", response_class=HTMLResponse)
def link_page(request: Request, token: str) -> HTMLResponse:
    """A confirm button, not an action: link scanners in mail and chat apps fetch GET URLs."""
    try:
        claim = verify_link(link_key(web(request)), token, datetime.now(UTC))
    except BadLink as exc:
        return render(request, "link.html", {"error": str(exc), "claim": None}, status=400)
    summary = web(request).message_summary(claim.message_id, claim.account)
    return render(request, "link.html", {"error": "", "claim": claim, "token": token,
                                         "summary": summary})


@router.post("/n/{token}", response_class=HTMLResponse)
def link_submit(request: Request, token: str) -> HTMLResponse:
    try:
        done = apply_link(request, token)
    except BadLink as exc:
        return render(request, "link.html", {"error": str(exc), "claim": None}, status=400)
    return render(request, "link.html", {"error": "", "claim": None, "done": done})
