"""What the route modules share: rendering a page, the redirect back with a notice code, the
session cookie, the signed-in person as a dependency (`User` for pages, `Me` for the API),
the API's common error answers, the app's one ActionService (app.state.actions), and
learn/'s Learning for the signed-in person (the learn and rules APIs)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar
from urllib.parse import urlsplit

from fastapi import Depends, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel

from mailmoat.act.service import ActionService
from mailmoat.entrypoints.web.notices import notice_text
from mailmoat.entrypoints.web.security.auth import (
    SESSION_COOKIE,
    api_user,
    page_user,
    secure_cookies,
    session_of,
)
from mailmoat.entrypoints.web.timefmt import when
from mailmoat.learn.service import Learning, LearningError, NotFound
from mailmoat.store.user_sessions import SessionInfo

T = TypeVar("T")

templates = Jinja2Templates(directory=str(Path(__file__).parents[1] / "templates"))
templates.env.filters["when"] = when
LaneName = Literal["PUSH", "MEETING", "QUEUE", "INFO", "SILENT"]
User = Depends(page_user)  # a page: not signed in redirects to /login
Me = Depends(api_user)  # the API: not signed in is a 401
ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"description": "not signed in"},
    403: {"description": "missing or wrong CSRF token, or cross-origin"},
    404: {"description": "no such item in your account"},
}


class Refusal(BaseModel):
    detail: str


class DoneOut(BaseModel):
    done: str


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


def safe_next(target: str) -> str:
    """Only a local path: an open redirect after sign-in would be a phishing helper."""
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return "/"
    return target


def set_session_cookie(request: Request, response: Response, token: str) -> None:
    response.set_cookie(SESSION_COOKIE, token, httponly=True, samesite="strict",
                        secure=secure_cookies(request), max_age=7 * 24 * 3600, path="/")


def _actions(request: Request) -> ActionService:
    return request.app.state.actions  # set by create_app


# The app's one ActionService, as a dependency.
Actions = Annotated[ActionService, Depends(_actions)]


def _learning(request: Request, user: Annotated[SessionInfo, Depends(api_user)]) -> Learning:
    return Learning(request.app.state.store, account=user.account)


def _actor(user: Annotated[SessionInfo, Depends(api_user)]) -> str:
    return user.username


# Module level, so FastAPI can resolve them from the (postponed) annotations.
Learn = Annotated[Learning, Depends(_learning)]
Actor = Annotated[str, Depends(_actor)]
LEARNING_ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"description": "not signed in"},
    404: {"description": "no such message, rule or pin on this account"},
    409: {"description": "not possible now (already in that lane, a public domain, ...)"},
}


def learning_call(call: Callable[[], T]) -> T:
    """A learn/ call with its refusals as HTTP answers: 404 missing, 409 not possible now."""
    try:
        return call()
    except NotFound as exc:
        raise HTTPException(404, str(exc)) from exc
    except LearningError as exc:  # valid request, but not possible in the current state
        raise HTTPException(409, str(exc)) from exc
