"""Who is asking: argon2 password hashes, server-side sessions in a cookie, the CSRF guard
that runs before every state-changing request, and login throttling.

The CSRF guard is one app-wide dependency, so a new POST route is guarded without anyone
remembering to add it; `tests/unit/test_web_auth.py` checks every unsafe route is refused without
a token.
"""

from __future__ import annotations

import hmac
import os
import secrets
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import HTTPException, Request

from mailmoat.entrypoints.web.security.throttle import THROTTLE, retry_after
from mailmoat.store.repos import Repos
from mailmoat.store.user_sessions import SessionInfo
from mailmoat.store.users import User

SESSION_COOKIE = "mm_session"
LOGIN_CSRF_COOKIE = "mm_login_csrf"
CSRF_HEADER = "x-csrf-token"
CSRF_FIELD = "csrf"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# Requests authorised by something other than a session: a signed link, the first-run setup
# token, or the sign-in itself (double-submit cookie for the form, JSON-only for the API).
TOKEN_PATHS = ("/n/", "/api/links/", "/setup")
LOGIN_PATHS = ("/login", "/api/session")
MIN_PASSWORD = 10

HASHER = PasswordHasher()  # argon2id with the library's current recommended parameters
_dummy: dict[int, str] = {}


def _dummy_hash() -> str:
    """A hash with the current parameters, verified when the user does not exist."""
    key = id(HASHER)
    if key not in _dummy:
        _dummy[key] = HASHER.hash(secrets.token_urlsafe(16))
    return _dummy[key]


class LoginRequired(Exception):
    """A page needs a signed-in user; the handler redirects to /login."""


class PasswordTooWeak(ValueError):
    pass


def hash_password(password: str) -> str:
    if len(password) < MIN_PASSWORD:
        raise PasswordTooWeak(f"a password needs at least {MIN_PASSWORD} characters")
    return HASHER.hash(password)


def check_password(user: User | None, password: str) -> bool:
    """Constant work whether or not the user exists, so timing does not reveal names."""
    try:
        return HASHER.verify(user.password_hash if user else _dummy_hash(), password) and (
            user is not None)
    except (VerificationError, InvalidHashError):
        return False


def secure_cookies(request: Request) -> bool:
    """Secure cookies when served over HTTPS (or told so behind a TLS proxy)."""
    return request.url.scheme == "https" or os.environ.get("MAILMOAT_SECURE_COOKIES") == "1"


def repos(request: Request) -> Repos:
    return request.app.state.repos


def session_of(request: Request) -> SessionInfo | None:
    cached = getattr(request.state, "session", None)
    if cached is not None:
        return cached
    token = request.cookies.get(SESSION_COOKIE)
    found = repos(request).user_sessions.get(token) if token else None
    request.state.session = found
    return found


def page_user(request: Request) -> SessionInfo:
    found = session_of(request)
    if found is None:
        raise LoginRequired()
    return found


def api_user(request: Request) -> SessionInfo:
    found = session_of(request)
    if found is None:
        raise HTTPException(401, "sign in first", headers={"WWW-Authenticate": "Session"})
    return found


def owning(request: Request, me: SessionInfo, message_id: int) -> SessionInfo:
    """The session as the account that owns the message, when the person may see that
    account (one of `me.accounts`, read from the database at each request); else a 404, as
    for a missing id, so ids of accounts the person cannot see cannot be probed. Message
    pages and actions run as the returned session, so a person with several mailboxes acts
    on each from one view without switching."""
    account = repos(request).summaries.owner(message_id, me.accounts)
    if account is None:
        raise HTTPException(404, "no such message")
    return me if account == me.account else replace(me, account=account)


def _same_origin(request: Request) -> bool:
    origin = request.headers.get("origin")
    if origin is None or origin == "null":
        return origin is None  # "null" comes from sandboxed or privacy-stripped contexts
    host = request.headers.get("host", "")
    return origin.split("://", 1)[-1].rstrip("/") == host


async def csrf_guard(request: Request) -> None:
    """Refuse a state-changing request that does not carry this session's CSRF token."""
    if request.method in SAFE_METHODS:
        return
    if not _same_origin(request):
        raise HTTPException(403, "cross-origin request refused")
    path = request.url.path
    if path.startswith(TOKEN_PATHS):
        return
    sent = request.headers.get(CSRF_HEADER)
    content_type = request.headers.get("content-type", "")
    if sent is None and content_type.startswith(
        ("application/x-www-form-urlencoded", "multipart/form-data")
    ):
        value = (await request.form()).get(CSRF_FIELD)
        sent = value if isinstance(value, str) else None
    if request.method == "POST" and path in LOGIN_PATHS:
        if path == "/api/session":
            if not content_type.startswith("application/json"):
                raise HTTPException(415, "sign in with a JSON body")
            return  # a cross-site page cannot send JSON without a CORS preflight we never grant
        expected = request.cookies.get(LOGIN_CSRF_COOKIE)
    else:
        current = session_of(request)
        expected = current.csrf_token if current else None
        if current is None:
            raise HTTPException(401, "sign in first")
    if not sent or not expected or not hmac.compare_digest(sent, expected):
        raise HTTPException(403, "missing or wrong CSRF token")


def client_key(request: Request) -> str:
    return f"ip:{request.client.host if request.client else 'unknown'}"


@dataclass(frozen=True, slots=True)
class LoginAttempt:
    user: User | None  # None: refused (wrong name or password, or throttled)
    wait: float = 0.0  # > 0: throttled, the password was not even checked


def attempt_login(request: Request, username: str, password: str) -> LoginAttempt:
    """Check a password, unless the name or the address has failed too often.

    A failure is booked for the name and the address *before* the check, in the same
    database transaction as the count (store/login_failures.py), so parallel attempts count
    each other: no more passwords are checked than the throttle allows. A right password
    takes its booking back."""
    data = repos(request)
    now = datetime.now(UTC)
    keys = [f"user:{username.lower()}", client_key(request)]
    wait, booked = data.login_failures.claim(
        keys, now - THROTTLE.window,
        lambda earlier, at: max(retry_after(earlier.get(k, []), at) for k in keys))
    if wait > 0:
        return LoginAttempt(None, wait)
    user = data.users.get(username)
    if not check_password(user, password):
        return LoginAttempt(None)
    assert user is not None
    data.login_failures.forget(booked)
    data.login_failures.clear(f"user:{username.lower()}")
    if HASHER.check_needs_rehash(user.password_hash):
        data.users.set_password(user.id, HASHER.hash(password))
    return LoginAttempt(user)
