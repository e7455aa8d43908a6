"""Search the signed-in account's stored mail by subject, sender and preview (store/search.py:
FTS5 on SQLite, full-text on PostgreSQL); each hit with its lane and its one-line reason."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse

from mailmoat.core.explain import why
from mailmoat.entrypoints.web.routes.common import render
from mailmoat.entrypoints.web.routes.home import received_in, zone_of
from mailmoat.entrypoints.web.security.auth import api_user, page_user
from mailmoat.store.search import search
from mailmoat.store.user_sessions import SessionInfo

pages = APIRouter(include_in_schema=False)
api = APIRouter(prefix="/api", responses={401: {"description": "not signed in"}})
User = Depends(page_user)
Me = Depends(api_user)
Q = Query("", max_length=200, description="words to find in subject, sender or preview")
RESULTS = 50


def hits(request: Request, me: SessionInfo, q: str) -> list[dict[str, Any]]:
    zone = zone_of(request, me.account)
    out = []
    for row in search(request.app.state.store, me.account, q, RESULTS):
        trace = row.pop("trace")
        out.append({**row, "why": why(trace) if trace else "",
                    "received": received_in(row["received"], zone),
                    "unread": row["seen"] is False})
    return out


@pages.get("/search", response_class=HTMLResponse)
def search_page(request: Request, q: str = Q, me: SessionInfo = User) -> HTMLResponse:
    return render(request, "search.html", {"q": q, "hits": hits(request, me, q) if q else [],
                                           "limit": RESULTS})


@api.get("/search")
def api_search(request: Request, q: str = Q, me: SessionInfo = Me) -> list[dict[str, Any]]:
    """Up to 50 messages, newest first, whose subject, sender or preview hold every word of
    `q` (each as a word prefix)."""
    return hits(request, me, q)
