"""The FastAPI app: one route module per resource (routes/), each with its server-rendered
pages (`pages`) and its JSON API (`api`), over one store, behind sign-in, a CSRF guard and a
strict Content-Security-Policy.

Pages work without JavaScript: every action is a plain form POST.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from fastapi import Depends, FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import FileResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from mailmoat.accounts.secrets import load_key_ring
from mailmoat.act.service import ActionService
from mailmoat.entrypoints.web.act_adapter import ActApprovals, ActTriage
from mailmoat.entrypoints.web.approvals import Approvals, Triage
from mailmoat.entrypoints.web.guard import RequestGuard, configured_extra_hosts, trusted_hosts
from mailmoat.entrypoints.web.routes import (
    accounts,
    actions,
    approvals,
    home,
    judge,
    learn,
    meeting,
    messages,
    notifications,
    rules,
    search,
    sessions,
    settings,
    status,
)
from mailmoat.entrypoints.web.routes.common import render
from mailmoat.entrypoints.web.security.auth import LoginRequired, csrf_guard
from mailmoat.entrypoints.web.security.csp import CSP
from mailmoat.notify.keys import link_key, vapid_public_key
from mailmoat.store.messages import Store
from mailmoat.store.repos import Repos

HERE = Path(__file__).parent
# Every route module, each with a `pages` and an `api` router (tests/unit/test_web_routes.py).
RESOURCES = (
    accounts,
    actions,
    approvals,
    home,
    judge,
    learn,
    meeting,
    messages,
    notifications,
    rules,
    search,
    sessions,
    settings,
    status,
)


SETUP_TOKEN_SECRET = "setup-token"  # the one-time /setup link's token, shared by web processes


def create_app(
    store: Store,
    *,
    approvals: Approvals | None = None,
    triage: Triage | None = None,
    setup_token: str | None = None,
    base_url: str = "http://127.0.0.1:8025",
    allowed_hosts: tuple[str, ...] | None = None,
) -> FastAPI:
    """`setup_token`: while no user exists, /setup?token=… creates the first one. Without
    one, the token stored in the database (the one `mailmoat up` prints), so every web
    process behind a proxy accepts the same link. `allowed_hosts`: names besides the base
    URL's host that the server answers to (default: the comma-separated
    MAILMOAT_ALLOWED_HOSTS); any other Host header is refused."""
    app = FastAPI(
        title="mailmoat",
        version="0.2.0",
        description="Attention firewall for email. Sign in with POST /api/session; send the "
        "returned csrf token as X-CSRF-Token on every state-changing request.",
        dependencies=[Depends(csrf_guard)],
        docs_url=None,  # the interactive docs load remote scripts, which our CSP forbids
        redoc_url=None,
    )
    app.state.store = store
    # The key ring that seals account secrets seals the web's too (link key, VAPID, Apprise).
    app.state.repos = Repos(store, sealer=load_key_ring())
    service = ActionService(store.engine)
    app.state.actions = service
    app.state.approvals = approvals or ActApprovals(service)
    app.state.triage = triage or ActTriage(service)
    app.state.setup_token = setup_token or app.state.repos.secrets.get(
        SETUP_TOKEN_SECRET, lambda: secrets.token_urlsafe(24))
    app.state.base_url = base_url
    # First run makes the keys (link signing, VAPID pair); later runs read them back.
    link_key(app.state.repos.secrets)
    vapid_public_key(app.state.repos.secrets)
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    for resource in RESOURCES:
        app.include_router(resource.pages)
        app.include_router(resource.api)

    @app.exception_handler(LoginRequired)
    async def _to_login(request: Request, _exc: LoginRequired) -> Response:
        target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        return RedirectResponse(f"/login?next={target}" if target != "/" else "/login", 303)

    @app.exception_handler(StarletteHTTPException)
    async def _error_page(request: Request, exc: StarletteHTTPException) -> Response:
        # The API answers JSON; a person in a browser gets a page with a way back.
        if request.url.path.startswith("/api/"):
            return await http_exception_handler(request, exc)
        return render(request, "error.html", {"status": exc.status_code, "detail": exc.detail},
                      status=exc.status_code, headers=getattr(exc, "headers", None))

    @app.middleware("http")
    async def _security_headers(request: Request, call_next: Any) -> Response:
        response: Response = await call_next(request)
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["X-Frame-Options"] = "DENY"
        # same-origin, not no-referrer: with no-referrer Chromium sends "Origin: null" on our own
        # form posts, which the origin check must refuse. Mail links carry rel=noreferrer.
        response.headers["Referrer-Policy"] = "same-origin"
        response.headers["Cross-Origin-Opener-Policy"] = "same-origin"
        if not request.url.path.startswith("/static/"):
            response.headers["Cache-Control"] = "no-store"
        return response

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> FileResponse:
        # Browsers ask for it on every fresh session; a 404 there is a console error.
        return FileResponse(HERE / "static" / "favicon.ico", media_type="image/x-icon")
    # Added last, so it runs first: Host, sign-in and body size before anything reads the body.
    extra = configured_extra_hosts() if allowed_hosts is None else list(allowed_hosts)
    app.add_middleware(RequestGuard, hosts=trusted_hosts(base_url, extra),
                       sessions=app.state.repos.user_sessions)

    @app.get("/healthz", include_in_schema=False)
    def healthz() -> dict[str, str]:
        return {"status": "ok"}

    return app
