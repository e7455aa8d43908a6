"""Settings of the signed-in person's current account: the autonomy mode (SUGGEST or AUTO, with
the guidelines and the daily cap for unattended replies), what each lane does on the IMAP
server, and notifications (channels, quiet hours, focus windows, rate limit). A refused form
saves nothing and shows the page again with the reason and what was typed."""

from __future__ import annotations

from datetime import time
from typing import Any, Literal

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, Field, ValidationError

from mailmoat.entrypoints.web import views
from mailmoat.entrypoints.web.actions import current_mode, set_mode
from mailmoat.entrypoints.web.lane_settings import (
    lane_actions_of,
    lane_rows,
    lane_rows_from_form,
    save_lane_actions,
)
from mailmoat.entrypoints.web.notices import notice_code
from mailmoat.entrypoints.web.routes.common import (
    ERRORS,
    Actions,
    LaneName,
    Me,
    User,
    back,
    render,
)
from mailmoat.entrypoints.web.security.auth import repos
from mailmoat.entrypoints.web.settings_forms import (
    KEYWORD_PATTERN,
    FormError,
    check_daily_cap,
    check_guidelines,
    parse_lane_actions,
)
from mailmoat.notify.keys import vapid_public_key
from mailmoat.notify.settings import AccountNotifySettings, NotifyIn, WindowIn, mask_url
from mailmoat.store.user_sessions import SessionInfo

pages = APIRouter(include_in_schema=False)
api = APIRouter(prefix="/api", responses=ERRORS)


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


# -- pages ------------------------------------------------------------------------------

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


DIGEST_HOURS = tuple(str(h) for h in range(24))


def _settings_ctx(request: Request, me: SessionInfo) -> dict[str, Any]:
    settings = AccountNotifySettings.load(repos(request).settings.get(me.account)).model_copy(
        update={"mode": current_mode(request, me.account)})
    autonomy = request.app.state.actions.mode(me.account)
    lanes = lane_actions_of(request, me.account)
    ctx = {
        "s": settings, "error": "",
        "guidelines": autonomy.guidelines, "daily_cap": str(autonomy.daily_cap),
        "lane_rows": None if lanes is None else lane_rows(lanes),
        "urls": [mask_url(u) for u in settings.notify.apprise_urls],
        "quiet": _windows_text(settings.notify.quiet_hours),
        "focus": _windows_text(settings.notify.focus_windows),
        "vapid_key": vapid_public_key(repos(request).secrets),
        "push_count": len(repos(request).push.subscriptions(me.account)),
        "budget": views.judge_figures(request.app.state.store, me.account)["budget_words"],
        "digest_hours": DIGEST_HOURS,
    }
    return {**ctx, "digest_channels": bool(settings.notify.apprise_urls or ctx["push_count"])}


@pages.get("/settings", response_class=HTMLResponse)
def settings_page(request: Request, me: SessionInfo = User) -> HTMLResponse:
    return render(request, "settings.html", _settings_ctx(request, me))


def _settings_refused(request: Request, me: SessionInfo, error: str,
                      kept: dict[str, Any]) -> HTMLResponse:
    """Nothing saved: the page again with the reason and what the person typed, not lost."""
    return render(request, "settings.html",
                  {**_settings_ctx(request, me), **kept, "error": error}, status=400)


@pages.post("/settings/mode", response_class=HTMLResponse)
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


@pages.post("/settings/lanes", response_class=HTMLResponse)
async def lanes_form(request: Request, me: SessionInfo = User) -> Response:
    form = {k: v for k, v in (await request.form()).items() if isinstance(v, str)}
    try:
        save_lane_actions(request, me.account, parse_lane_actions(form))
    except FormError as exc:
        return _settings_refused(request, me, str(exc), {"lane_rows": lane_rows_from_form(form)})
    return back("/settings", "lane_actions_saved")


@pages.post("/settings/notify")
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
    data = repos(request)
    settings = AccountNotifySettings.load(data.settings.get(me.account))
    urls = list(settings.notify.apprise_urls)
    if 0 <= remove_url < len(urls):
        urls.pop(remove_url)
    if add_url.strip():
        urls.append(add_url.strip())
    try:
        notify = NotifyIn(timezone=timezone, apprise_urls=urls, quiet_hours=_parse_windows(quiet),
                          focus_windows=_parse_windows(focus), rate_limit=rate_limit,
                          rate_window_minutes=rate_window_minutes,
                          fresh_minutes=settings.notify.fresh_minutes,
                          daily_digest_hour=settings.notify.daily_digest_hour)
    except (ValidationError, ValueError) as exc:
        # Nothing is saved: the page shows why, the earlier settings stay.
        message = "; ".join(e["msg"] for e in exc.errors()) if isinstance(
            exc, ValidationError) else str(exc)
        # Shown on the page itself (no redirect): a URL must never carry the warning's text.
        return _settings_refused(request, me, message[:300], {})
    data.settings.save(me.account, settings.model_copy(update={"notify": notify}).model_dump(
        mode="json"))
    return back("/settings", "notifications_saved")


@pages.post("/settings/digest")
def digest_form(request: Request, hour: str = Form(..., max_length=3),
                me: SessionInfo = User) -> Response:
    """The daily digest: "off" (the default) or the local hour it goes out from, once a day."""
    if hour != "off" and hour not in DIGEST_HOURS:
        raise HTTPException(422, "hour is off or a whole hour from 0 to 23")
    data = repos(request)
    settings = AccountNotifySettings.load(data.settings.get(me.account))
    notify = settings.notify.model_copy(
        update={"daily_digest_hour": None if hour == "off" else int(hour)})
    data.settings.save(me.account, settings.model_copy(update={"notify": notify}).model_dump(
        mode="json"))
    return back("/settings", "digest_saved" if hour != "off" else "digest_off")


# -- API --------------------------------------------------------------------------------

def _settings_out(settings: AccountNotifySettings) -> dict[str, Any]:
    data = settings.model_dump(mode="json")
    data["notify"]["apprise_urls"] = [mask_url(u) for u in settings.notify.apprise_urls]
    return data


@api.get("/settings")
def api_settings(request: Request, actions: Actions, me: SessionInfo = Me) -> dict[str, Any]:
    """Settings of the current account. Apprise URLs carry tokens and are shown masked.
    `lane_actions` is null for an account without a mail server (imported mail)."""
    settings = AccountNotifySettings.load(repos(request).settings.get(me.account))
    out = _settings_out(settings.model_copy(update={"mode": current_mode(request, me.account)}))
    autonomy = actions.mode(me.account)
    lanes = lane_actions_of(request, me.account)
    out.update({"guidelines": autonomy.guidelines, "daily_cap": autonomy.daily_cap,
                "lane_actions": None if lanes is None else lanes.as_dict()})
    return out


@api.put("/settings/mode", responses={422: {"description": "guidelines not plain text"}})
def api_mode(request: Request, body: ModeIn, me: SessionInfo = Me) -> dict[str, Any]:
    try:
        guidelines = None if body.guidelines is None else check_guidelines(body.guidelines)
    except FormError as exc:
        raise HTTPException(422, str(exc)) from exc
    mode = set_mode(request, me, body.mode, guidelines, body.daily_cap)
    settings = AccountNotifySettings.load(repos(request).settings.get(me.account))
    return _settings_out(settings.model_copy(update={"mode": mode}))


@api.put("/settings/lanes", responses={
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


@api.put("/settings/notify")
def api_notify(request: Request, body: NotifyIn, me: SessionInfo = Me) -> dict[str, Any]:
    """Replace the notification settings (channels, quiet hours, focus windows, rate limit)."""
    data = repos(request)
    settings = AccountNotifySettings.load(data.settings.get(me.account)).model_copy(
        update={"notify": body})
    data.settings.save(me.account, settings.model_dump(mode="json"))
    return _settings_out(settings)
