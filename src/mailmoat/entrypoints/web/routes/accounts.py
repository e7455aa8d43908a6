"""Mail accounts from the web page: add one (with provider presets and a short recipe each),
test it step by step, watch its first sync, remove it. The secret is sealed with the key
ring, as `mailmoat account add` seals it, and never shown again. An added account is granted
to the person adding it; the page (not the API) also switches their view to it."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, Field, model_validator

from mailmoat.accounts.presets import PRESETS, preset
from mailmoat.accounts.registry import (
    AccountError,
    AccountSettings,
    Submission,
    add_account,
    get_account,
    list_accounts,
    remove_account,
)
from mailmoat.accounts.secrets import SecretKeyError, load_key_ring
from mailmoat.entrypoints.web.routes.common import back, render
from mailmoat.entrypoints.web.security.auth import SESSION_COOKIE, api_user, page_user, repos
from mailmoat.services.mailbox_setup import CheckReport, FirstSyncs, check_mailbox
from mailmoat.store.demo_mailbox import demo_only, leave_account
from mailmoat.store.user_sessions import SessionInfo

pages = APIRouter(include_in_schema=False)
api = APIRouter(prefix="/api", responses={401: {"description": "not signed in"},
                                          404: {"description": "no such account of yours"}})
User = Depends(page_user)
Me = Depends(api_user)
DEMO = "local"  # the account the demo mailbox (and mail imported from disk) is stored under


class AccountIn(BaseModel):
    name: str = Field(..., min_length=1, max_length=200, pattern=r"^[A-Za-z0-9._-]+$")
    host: str = Field(..., min_length=1, max_length=255)
    port: int = Field(993, ge=1, le=65535)
    tls: str = Field("implicit", pattern="^(implicit|starttls|plain)$")
    username: str = Field(..., min_length=1, max_length=320)
    auth: str = Field("password", pattern="^(password|xoauth2)$")
    password: str = Field("", max_length=4000, description="password auth: the password "
                          "or app password")
    # XOAUTH2: the refresh token (sealed like a password) is exchanged at the token endpoint
    # for access tokens (accounts/oauth.py); the client secret, when the provider gives one,
    # is sealed too. Neither is ever shown again.
    token_endpoint: str = Field("", max_length=2000)
    client_id: str = Field("", max_length=500)
    client_secret: str = Field("", max_length=4000)
    scope: str = Field("", max_length=1000)
    refresh_token: str = Field("", max_length=8000)
    smtp_host: str = Field("", max_length=255)
    smtp_port: int = Field(587, ge=1, le=65535)
    smtp_tls: str = Field("starttls", pattern="^(implicit|starttls|plain)$")
    server_files_sent: bool = False


    @model_validator(mode="after")
    def _credential(self) -> AccountIn:
        if self.auth == "password" and not self.password:
            raise ValueError("a password (or app password) is needed")
        if self.auth == "xoauth2" and not (self.refresh_token.strip()
                                           and self.token_endpoint.strip()
                                           and self.client_id.strip()):
            raise ValueError("OAuth needs the token endpoint, the client id and a refresh "
                             "token")
        return self

    def secret(self) -> str:
        return self.refresh_token.strip() if self.auth == "xoauth2" else self.password


def _first_syncs(request: Request) -> FirstSyncs:
    runs = getattr(request.app.state, "first_syncs", None)
    if runs is None:
        runs = request.app.state.first_syncs = FirstSyncs()
    return runs


def _settings(body: AccountIn) -> AccountSettings:
    submission = None if not body.smtp_host.strip() else Submission(
        host=body.smtp_host.strip(), port=body.smtp_port, tls=body.smtp_tls,
        server_files_sent=body.server_files_sent)
    oauth = body.auth == "xoauth2"
    return AccountSettings(name=body.name, host=body.host.strip(), port=body.port,
                           username=body.username.strip(), tls=body.tls, submission=submission,
                           auth=body.auth,
                           token_endpoint=body.token_endpoint.strip() if oauth else None,
                           client_id=body.client_id.strip() if oauth else None,
                           scope=(body.scope.strip() or None) if oauth else None)


def _add(request: Request, me: SessionInfo, body: AccountIn) -> AccountSettings:
    """Store (sealed) and grant it to this person. AccountError: why not.

    A name under which mail is stored that this person may not read is refused: the new
    mailbox would be granted together with another one's stored record."""
    if body.name not in me.accounts and request.app.state.store.count(body.name) > 0:
        raise AccountError(f"mail is stored under the name {body.name!r} already; "
                           "pick another name")
    try:
        added = add_account(request.app.state.store, load_key_ring(), _settings(body),
                            body.secret(),
                            client_secret=(body.client_secret.strip() or None)
                            if body.auth == "xoauth2" else None)
    except SecretKeyError as exc:
        raise AccountError(str(exc)) from None
    repos(request).users.grant(me.username, added.name)
    return added


def _show(request: Request, account: str) -> None:
    """This session now views `account` (one the person was granted)."""
    repos(request).user_sessions.switch_account(request.cookies.get(SESSION_COOKIE, ""), account)


def _mine(request: Request, me: SessionInfo, name: str) -> AccountSettings:
    """The account, when this person may read it: 404 otherwise (no probing of names)."""
    if name not in me.accounts:
        raise HTTPException(404, "no such account")
    try:
        return get_account(request.app.state.store, name)
    except AccountError:
        raise HTTPException(404, "no such account") from None


def _check(request: Request, name: str) -> CheckReport:
    return check_mailbox(request.app.state.store, load_key_ring(), name)


def _report(report: CheckReport) -> dict[str, Any]:
    return {"ok": report.ok, "features": list(report.features), "messages": report.messages,
            "steps": [{"name": s.name, "label": s.label, "state": s.state, "detail": s.detail}
                      for s in report.steps]}


def _list_ctx(request: Request, me: SessionInfo, **extra: Any) -> dict[str, Any]:
    accounts = [a for a in list_accounts(request.app.state.store) if a.name in me.accounts]
    chosen = preset(str(extra.pop("preset", "") or "")) or PRESETS[0]
    return {"accounts": accounts, "presets": PRESETS, "p": chosen, "error": "",
            "form": {}, "demo": _demo_removable(request, me, accounts), **extra}


def _demo_removable(request: Request, me: SessionInfo, mine: list[AccountSettings]) -> bool:
    """The demo mailbox may leave this person's view once a real mailbox of theirs exists."""
    return bool(mine) and DEMO in me.accounts and demo_only(request.app.state.store, DEMO)


@pages.get("/accounts", response_class=HTMLResponse)
def accounts_page(request: Request, preset: str = "", me: SessionInfo = User) -> HTMLResponse:
    return render(request, "accounts.html", _list_ctx(request, me, preset=preset))


@pages.post("/accounts", response_class=HTMLResponse)
def add_form(request: Request, name: str = Form(..., max_length=200),
             host: str = Form(..., max_length=255), port: int = Form(993),
             tls: str = Form("implicit", max_length=10),
             username: str = Form(..., max_length=320),
             auth: str = Form("password", max_length=10),
             password: str = Form("", max_length=4000),
             token_endpoint: str = Form("", max_length=2000),
             client_id: str = Form("", max_length=500),
             client_secret: str = Form("", max_length=4000),
             scope: str = Form("", max_length=1000),
             refresh_token: str = Form("", max_length=8000),
             smtp_host: str = Form("", max_length=255), smtp_port: int = Form(587),
             smtp_tls: str = Form("starttls", max_length=10),
             server_files_sent: bool = Form(False), preset: str = Form("", max_length=20),
             me: SessionInfo = User) -> Response:
    # Kept for the form when refused; never a password, refresh token or client secret.
    kept = {"name": name, "host": host, "port": port, "tls": tls, "username": username,
            "smtp_host": smtp_host, "smtp_port": smtp_port, "smtp_tls": smtp_tls,
            "auth": auth, "token_endpoint": token_endpoint, "client_id": client_id,
            "scope": scope}
    try:
        body = AccountIn(name=name.strip(), host=host, port=port, tls=tls, username=username,
                         auth=auth, password=password, token_endpoint=token_endpoint,
                         client_id=client_id, client_secret=client_secret, scope=scope,
                         refresh_token=refresh_token, smtp_host=smtp_host,
                         smtp_port=smtp_port, smtp_tls=smtp_tls,
                         server_files_sent=server_files_sent)
        added = _add(request, me, body)
        # The page shows the new mailbox at once; the API leaves the session's view alone.
        _show(request, added.name)
    except (AccountError, ValueError) as exc:
        # Nothing saved; the form again with the reason and what was typed (never the
        # password). A pydantic error lists each field.
        message = "; ".join(f"{e['loc'][-1] if e['loc'] else 'form'}: {e['msg']}"
                            for e in exc.errors()) if hasattr(
            exc, "errors") else str(exc)
        return render(request, "accounts.html",
                      _list_ctx(request, me, preset=preset, error=message[:300], form=kept),
                      status=400)
    return back(f"/accounts/{added.name}", "account_added")


@pages.get("/accounts/{name}", response_class=HTMLResponse)
def account_page(request: Request, name: str, me: SessionInfo = User) -> HTMLResponse:
    account = _mine(request, me, name)
    run = _first_syncs(request).get(name)
    progress = run.as_dict() if run else None
    headers = None
    if progress and progress["state"] in ("starting", "running"):
        headers = {"Refresh": "2"}  # the progress view reloads itself, no script needed
    return render(request, "account.html", {"a": account, "check": None,
                                            "progress": progress}, headers=headers)


@pages.post("/accounts/{name}/test", response_class=HTMLResponse)
def test_form(request: Request, name: str, me: SessionInfo = User) -> HTMLResponse:
    account = _mine(request, me, name)
    run = _first_syncs(request).get(name)
    return render(request, "account.html", {
        "a": account, "check": _report(_check(request, name)),
        "progress": run.as_dict() if run else None})


@pages.post("/accounts/{name}/sync")
def sync_form(request: Request, name: str, me: SessionInfo = User) -> Response:
    _mine(request, me, name)
    _first_syncs(request).start(request.app.state.store, name)
    return back(f"/accounts/{name}", "sync_started")


@pages.post("/demo/remove")
def remove_demo_form(request: Request, me: SessionInfo = User) -> Response:
    """Take the demo mailbox out of this person's view (its mail stays stored, unshown)."""
    mine = [a for a in list_accounts(request.app.state.store) if a.name in me.accounts]
    if not _demo_removable(request, me, mine):
        raise HTTPException(409, "the demo mailbox can go once a mailbox of yours is added, "
                                 "and only while it holds demo mail alone")
    _show(request, mine[0].name)
    leave_account(request.app.state.store, me.username, DEMO)
    return back("/accounts", "demo_removed")


@pages.post("/accounts/{name}/remove")
def remove_form(request: Request, name: str, me: SessionInfo = User) -> Response:
    _mine(request, me, name)
    remove_account(request.app.state.store, name)
    return back("/accounts", "account_removed")


@api.get("/accounts")
def api_accounts(request: Request, me: SessionInfo = Me) -> list[dict[str, Any]]:
    """Your mail accounts (never their secrets)."""
    return [{"name": a.name, "host": a.host, "port": a.port, "tls": a.tls,
             "username": a.username, "auth": a.auth, "smtp": a.submission is not None}
            for a in _list_ctx(request, me)["accounts"]]


@api.post("/accounts", status_code=201, responses={400: {"description": "refused: why"}})
def api_add(request: Request, body: AccountIn, me: SessionInfo = Me) -> dict[str, Any]:
    """Add an account; the password (or, with `auth: xoauth2`, the refresh token and client
    secret) is sealed and never returned. Then test it."""
    try:
        added = _add(request, me, body)
    except AccountError as exc:
        raise HTTPException(400, str(exc)) from None
    return {"name": added.name}


@api.post("/accounts/{name}/test")
def api_test(request: Request, name: str, me: SessionInfo = Me) -> dict[str, Any]:
    """Connect and log in step by step: dns, tcp, tls, protocol, capability, auth, folder."""
    _mine(request, me, name)
    return _report(_check(request, name))


@api.post("/accounts/{name}/sync")
def api_sync(request: Request, name: str, me: SessionInfo = Me) -> dict[str, Any]:
    """Start the first sync (or report the one running); poll GET for progress."""
    _mine(request, me, name)
    return _first_syncs(request).start(request.app.state.store, name).as_dict()


@api.get("/accounts/{name}/sync")
def api_sync_progress(request: Request, name: str, me: SessionInfo = Me) -> dict[str, Any]:
    _mine(request, me, name)
    run = _first_syncs(request).get(name)
    return run.as_dict() if run else {"state": "not started"}


@api.delete("/accounts/{name}", status_code=204)
def api_remove(request: Request, name: str, me: SessionInfo = Me) -> Response:
    """Forget the account and its sealed secret; stored mail stays, the server is untouched."""
    _mine(request, me, name)
    remove_account(request.app.state.store, name)
    return Response(status_code=204)
