"""The door in front of every route (pure ASGI, before FastAPI reads anything):

- Trusted hosts: a request whose Host is not one of the configured names is refused (400),
  so a DNS-rebinding page (`attacker.example` resolving to 127.0.0.1) reaches nothing, not
  even the sign-in page; the CSRF guard's Origin check then compares against a trusted Host.
- Sign-in first: a state-changing request to a route that needs a session is refused (401)
  before one byte of its body is read.
- Body size per route, small by default: a declared Content-Length over the route's limit
  is refused (413) before reading; a body without one (chunked) is counted as it streams
  and refused as soon as it passes the limit.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

import anyio.to_thread
from starlette.datastructures import Headers
from starlette.middleware.body_limit import RequestBodyLimitMiddleware
from starlette.responses import JSONResponse, PlainTextResponse

from mailmoat.core.ids import ascii_int
from mailmoat.entrypoints.web.security.auth import (
    LOGIN_PATHS,
    SAFE_METHODS,
    SESSION_COOKIE,
    TOKEN_PATHS,
)
from mailmoat.store.user_sessions import UserSessions

AGENT_PATH = "/mcp"
Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

KB = 1024
DEFAULT_BODY_LIMIT = 64 * KB
# Routes that take more than the default: a proposed draft, the AUTO guidelines form.
BODY_LIMITS: tuple[tuple[str, int], ...] = (
    ("/api/actions", 1024 * KB),
    ("/mcp", 1024 * KB),  # agents: a proposed send may carry base64 attachments
    ("/settings/mode", 512 * KB),
)
# Sign-in and first-run forms need no more than a name and two passwords.
PUBLIC_BODY_LIMIT = 16 * KB
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})
ALLOWED_HOSTS_ENV = "MAILMOAT_ALLOWED_HOSTS"


def body_limit(path: str) -> int:
    if path.startswith(TOKEN_PATHS) or path in LOGIN_PATHS:
        return PUBLIC_BODY_LIMIT
    for prefix, limit in BODY_LIMITS:
        if path == prefix or path.startswith(prefix + "/"):
            return limit
    return DEFAULT_BODY_LIMIT


def _is_loopback(name: str) -> bool:
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def host_name(host: str) -> str:
    """The name in a Host header, without the port and IPv6 brackets, lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else ""
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def trusted_hosts(base_url: str, extra: Iterable[str] = ()) -> frozenset[str]:
    """The names this server answers to: the base URL's host and the configured extras; a
    server bound to loopback or to every address also answers to the loopback names."""
    name = host_name(urlsplit(base_url).netloc.rsplit("@", 1)[-1])
    names = {name, *(host_name(e) for e in extra if e.strip())}
    if _is_loopback(name) or name in ("0.0.0.0", "::", ""):
        names |= LOOPBACK_NAMES
    names.discard("")
    return frozenset(names)


def configured_extra_hosts(environ: MutableMapping[str, str] | None = None) -> list[str]:
    env = os.environ if environ is None else environ
    return [h.strip() for h in env.get(ALLOWED_HOSTS_ENV, "").split(",") if h.strip()]


class RequestGuard:
    def __init__(self, app: ASGIApp, *, hosts: frozenset[str], sessions: UserSessions) -> None:
        self.app = app
        self.hosts = hosts
        self.sessions = sessions

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        if host_name(headers.get("host", "")) not in self.hosts:
            await PlainTextResponse("unknown host", 400)(scope, receive, send)
            return
        if scope["method"] in SAFE_METHODS:
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        public = path.startswith(TOKEN_PATHS) or path in LOGIN_PATHS
        # Outside agents carry a bearer token, not a session: the MCP app's own gate checks
        # it before the SDK reads anything (services/agents.py, docs/mcp.md).
        agent = path == AGENT_PATH or path.startswith(AGENT_PATH + "/")
        if not (public or agent) and not await self._signed_in(scope, headers):
            await JSONResponse({"detail": "sign in first"}, 401)(scope, receive, send)
            return
        limit = body_limit(path)
        declared = headers.get("content-length")
        if declared is not None:
            size = ascii_int(declared.strip(), 0, 10**15)
            if size is None:
                await JSONResponse({"detail": "bad Content-Length"}, 400)(scope, receive, send)
                return
            if size > limit:
                await _too_large(limit)(scope, receive, send)
                return
        # Starlette's limiter counts a streamed body and answers 413 as soon as it passes the
        # limit; FastAPI knows its signal and does not turn it into a 400.
        await RequestBodyLimitMiddleware(self.app, limit)(scope, receive, send)

    async def _signed_in(self, scope: Scope, headers: Headers) -> bool:
        token = _cookie(headers.get("cookie", ""), SESSION_COOKIE)
        if not token:
            return False
        found = await anyio.to_thread.run_sync(self.sessions.get, token)
        if found is None:
            return False
        scope.setdefault("state", {})["session"] = found  # auth.session_of reads it back
        return True


def _cookie(header: str, name: str) -> str:
    for part in header.split(";"):
        key, sep, value = part.strip().partition("=")
        if sep and key == name:
            return value.strip().strip('"')
    return ""


def _too_large(limit: int) -> JSONResponse:
    return JSONResponse({"detail": f"request body over {limit // KB} KB"}, 413)
