"""Signing in and out, the first-run setup, and switching the mail account a session reads.

The API: POST /api/session with a JSON body sets the session cookie and returns the CSRF
token; send it as `X-CSRF-Token` on every POST/PUT/DELETE."""

from __future__ import annotations

import hmac
import secrets

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from pydantic import BaseModel, Field

from mailmoat.entrypoints.web.routes.common import (
    ERRORS,
    Me,
    User,
    back,
    render,
    safe_next,
    set_session_cookie,
)
from mailmoat.entrypoints.web.security.auth import (
    LOGIN_CSRF_COOKIE,
    SESSION_COOKIE,
    PasswordTooWeak,
    attempt_login,
    hash_password,
    repos,
    secure_cookies,
)
from mailmoat.services.people import default_accounts
from mailmoat.store.user_sessions import SessionInfo

pages = APIRouter(include_in_schema=False)
api = APIRouter(prefix="/api", responses=ERRORS)


class Credentials(BaseModel):
    username: str = Field(..., min_length=1, max_length=100)
    password: str = Field(..., min_length=1, max_length=1000)


class SessionOut(BaseModel):
    username: str
    account: str
    accounts: list[str]
    csrf_token: str


class AccountIn(BaseModel):
    account: str = Field(..., min_length=1, max_length=200)


def _session_out(me: SessionInfo) -> SessionOut:
    return SessionOut(username=me.username, account=me.account, accounts=list(me.accounts),
                      csrf_token=me.csrf_token)


# -- pages ------------------------------------------------------------------------------

@pages.get("/login", response_class=HTMLResponse)
def login_page(request: Request, next: str = "/") -> HTMLResponse:
    token = secrets.token_urlsafe(24)
    response = render(request, "login.html", {"login_csrf": token, "next": safe_next(next),
                                              "error": ""})
    response.set_cookie(LOGIN_CSRF_COOKIE, token, httponly=True, samesite="strict",
                        secure=secure_cookies(request), max_age=3600)
    return response


@pages.post("/login", response_class=HTMLResponse)
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
            "login_csrf": request.cookies.get(LOGIN_CSRF_COOKIE, ""), "next": safe_next(next),
            "error": f"Too many failed sign-ins. Try again in {int(wait) + 1} seconds."},
            status=429, headers={"Retry-After": str(int(wait) + 1)})
    user = attempt.user
    if user is None:
        return render(request, "login.html", {
            "login_csrf": request.cookies.get(LOGIN_CSRF_COOKIE, ""), "next": safe_next(next),
            "error": "Wrong user name or password."}, status=401)
    token, _csrf = repos(request).user_sessions.create(user)
    response = RedirectResponse(safe_next(next), 303)
    set_session_cookie(request, response, token)
    response.delete_cookie(LOGIN_CSRF_COOKIE)
    return response


@pages.post("/logout")
def logout(request: Request) -> Response:
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        repos(request).user_sessions.end(token)
    response = RedirectResponse("/login", 303)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


def _setup_ok(request: Request, token: str) -> bool:
    expected = request.app.state.setup_token
    return repos(request).users.count() == 0 and hmac.compare_digest(token, expected)


@pages.get("/setup", response_class=HTMLResponse)
def setup_page(request: Request, token: str = "") -> HTMLResponse:
    if not _setup_ok(request, token):
        raise HTTPException(404, "setup is done or the link is wrong")
    return render(request, "setup.html", {"token": token, "error": ""})


@pages.post("/setup", response_class=HTMLResponse)
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
            user = repos(request).users.create_first(username.strip(), hash_password(password),
                                                  default_accounts(request.app.state.store))
        except PasswordTooWeak as exc:
            error = str(exc)
        if user is None and not error:  # another request made the first user meanwhile
            raise HTTPException(404, "setup is done or the link is wrong")
    if error or user is None:
        return render(request, "setup.html", {"token": token, "error": error}, status=400)
    session, _csrf = repos(request).user_sessions.create(user)
    response = RedirectResponse("/", 303)
    set_session_cookie(request, response, session)
    return response


@pages.post("/settings/account")
def account_form(request: Request, account: str = Form(...), me: SessionInfo = User) -> Response:
    token = request.cookies.get(SESSION_COOKIE, "")
    if not repos(request).user_sessions.switch_account(token, account):
        raise HTTPException(404, "no such account")
    return back("/settings", "account_switched")


# -- API --------------------------------------------------------------------------------

@api.post("/session", response_model=SessionOut,
          responses={429: {"description": "too many failed sign-ins"}})
def api_login(request: Request, body: Credentials) -> Response:
    attempt = attempt_login(request, body.username, body.password)
    if attempt.wait > 0:
        return JSONResponse({"detail": "too many failed sign-ins"}, 429,
                            headers={"Retry-After": str(int(attempt.wait) + 1)})
    user = attempt.user
    if user is None:
        raise HTTPException(401, "wrong user name or password")
    token, csrf = repos(request).user_sessions.create(user)
    me = SessionInfo(user.id, user.username, user.accounts[0] if user.accounts else "", csrf,
                     user.accounts)
    response = JSONResponse(_session_out(me).model_dump())
    set_session_cookie(request, response, token)
    return response


@api.get("/session", response_model=SessionOut)
def api_whoami(me: SessionInfo = Me) -> SessionOut:
    return _session_out(me)


@api.delete("/session", status_code=204)
def api_logout(request: Request, me: SessionInfo = Me) -> Response:
    repos(request).user_sessions.end(request.cookies.get(SESSION_COOKIE, ""))
    response = Response(status_code=204)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


@api.post("/account", response_model=SessionOut)
def api_switch_account(request: Request, body: AccountIn, me: SessionInfo = Me) -> SessionOut:
    token = request.cookies.get(SESSION_COOKIE, "")
    if not repos(request).user_sessions.switch_account(token, body.account):
        raise HTTPException(404, "no such account")
    found = repos(request).user_sessions.get(token)
    assert found is not None
    return _session_out(found)
