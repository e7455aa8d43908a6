"""The home page is a decision queue: what needs the person now (mail that may interrupt,
scheduling mail, sends waiting for approval, triage), then what to read when there is time
(QUEUE), each row with a one-line reason in
plain words (core/explain.py, read off the stored trace) and the arrival time in the
person's zone; the numbers and sources stay on the trace page. The lane overview moved to
/firewall, with the counts per lane (counting a whole mailbox is the one cost here that
grows with it). A bulk move and keyboard shortcuts (static/keys.js) act on the rows; without
JavaScript every action is still a plain form POST."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from fastapi import APIRouter, Depends, Form, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, Response

from mailmoat.accounts.registry import list_accounts
from mailmoat.core.explain import why
from mailmoat.core.lanes import Lane
from mailmoat.entrypoints.web import views
from mailmoat.entrypoints.web.actions import move
from mailmoat.entrypoints.web.notices import notice_code
from mailmoat.entrypoints.web.routes.common import back, render
from mailmoat.entrypoints.web.security.auth import api_user, owning, page_user, repos
from mailmoat.entrypoints.web.views import parse_lane
from mailmoat.notify.settings import AccountNotifySettings
from mailmoat.store.decision_queue import lane_rows
from mailmoat.store.user_sessions import SessionInfo

pages = APIRouter(include_in_schema=False)
api = APIRouter(prefix="/api", responses={401: {"description": "not signed in"}})
User = Depends(page_user)
Me = Depends(api_user)

# What needs the person, in this order, and how many rows of each the page shows; QUEUE
# comes after, as what to read when there is time.
NEEDS_YOU: tuple[tuple[Lane, int], ...] = ((Lane.PUSH, 50), (Lane.MEETING, 30),
                                           (Lane.QUEUE, 30))
NOW = frozenset({Lane.PUSH.value, Lane.MEETING.value})
BULK_MAX = 200  # ids one bulk move may name


def zone_of(request: Request, account: str) -> ZoneInfo:
    name = AccountNotifySettings.load(repos(request).settings.get(account)).notify.timezone
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def received_in(moment: datetime, zone: ZoneInfo) -> dict[str, str]:
    local = moment.astimezone(zone)
    return {"iso": local.isoformat(timespec="minutes"),
            "text": f"{local:%a %d %b, %H:%M}", "zone": str(zone)}


def explained(request: Request, accounts: tuple[str, ...], lane: str, limit: int,
              zone: ZoneInfo, offset: int = 0,
              hide: Collection[int] | None = None) -> list[dict[str, Any]]:
    """A lane's newest rows as the person reads them: sender, subject, the one-line reason
    (read off the stored trace), the arrival time in their zone and the read state. The
    home page, /firewall and the lane pages list these; numbers stay on the trace page."""
    store = request.app.state.store
    if hide is None:
        hide = {i for name in accounts for i in views._snoozed(store, name)}
    rows = []
    for row in lane_rows(store, accounts, lane, limit, hide, offset):
        trace = row.pop("trace") or {}
        rows.append({**row, "why": why(trace), "received": received_in(row["received"], zone),
                     "unread": row["seen"] is False})
    return rows


def accounts_shown(me: SessionInfo, account: str) -> tuple[str, ...]:
    """Every account the person can see, or the one they filtered to (404 for any other:
    the filter never widens what the session may read)."""
    if not account:
        return me.accounts or (me.account,)
    if account not in me.accounts:
        raise HTTPException(404, "no such account")
    return (account,)


def decision_queue(request: Request, me: SessionInfo, account: str = "") -> dict[str, Any]:
    """The queue as plain data, across the person's accounts (or the one `account`): the
    page and GET /api/queue show the same."""
    store = request.app.state.store
    shown = accounts_shown(me, account)
    hide = {i for name in shown for i in views._snoozed(store, name)}
    zone = zone_of(request, me.account)
    groups = []
    for lane, limit in NEEDS_YOU:
        rows = explained(request, shown, lane.value, limit, zone, hide=hide)
        groups.append({"lane": lane.value, "blurb": views.LANE_BLURB[lane], "rows": rows,
                       "more": len(rows) == limit})
    source = request.app.state.approvals
    # One line each; the recipient checks and the exact bytes are on each approval's page.
    approvals = [(name, a) for name in shown for a in (
        source.lines(name) if hasattr(source, "lines") else source.list(name))]
    triage = [(name, t) for name in shown for t in request.app.state.triage.list(name)]
    return {
        "groups": groups,
        "approvals": [{"id": a.id, "account": name, "kind": a.kind, "summary": a.summary,
                       "why": f"proposed by {a.proposed_by or 'someone'}; nothing is sent "
                              "until you approve these exact bytes"} for name, a in approvals],
        "triage": [{"message_id": t.message_id, "account": name, "subject": t.subject,
                    "why": t.reason} for name, t in triage],
        "zone": str(zone),
        "accounts": list(me.accounts),
        "account": account,
    }


@pages.get("/", response_class=HTMLResponse)
def home(request: Request, account: str = Query("", max_length=200),
         me: SessionInfo = User) -> HTMLResponse:
    queue = decision_queue(request, me, account)
    empty = not (queue["approvals"] or queue["triage"]
                 or any(g["rows"] for g in queue["groups"] if g["lane"] in NOW))
    return render(request, "home.html", {
        "q": queue, "empty": empty, "lanes": [lane.value for lane in Lane],
        "no_account": not list_accounts(request.app.state.store)})


@pages.get("/firewall", response_class=HTMLResponse)
def firewall(request: Request, me: SessionInfo = User) -> HTMLResponse:
    zone = zone_of(request, me.account)
    lanes = views.firewall(request.app.state.store, me.account,
                           lambda lane, limit: explained(request, (me.account,), lane, limit,
                                                         zone))
    return render(request, "firewall.html", {"lanes": lanes, "zone": str(zone)})


@pages.post("/queue/move")
async def bulk_move(request: Request, lane: str = Form(..., max_length=10),
                    me: SessionInfo = User) -> Response:
    """Move every ticked row (form field `id`, repeated) to one lane, each as a person's
    correction through the one relabel (as the message page's Move does)."""
    chosen = parse_lane(lane)
    raw = (await request.form()).getlist("id")
    if not raw or len(raw) > BULK_MAX:
        raise HTTPException(422, f"tick between 1 and {BULK_MAX} messages")
    ids = []
    for value in raw:
        if not isinstance(value, str) or not value.isascii() or not value.isdigit():
            raise HTTPException(422, "an id is written in ASCII digits only")
        ids.append(int(value))
    for message_id in dict.fromkeys(ids):
        move(request, owning(request, me, message_id), message_id, chosen)
    return back("/", notice_code("moved_many", chosen.value))


@api.get("/queue", responses={404: {"description": "`account` is not one of yours"}})
def api_queue(request: Request, account: str = Query("", max_length=200),
              me: SessionInfo = Me) -> dict[str, Any]:
    """What needs you now, across every account you can see (or only `account`): PUSH and
    MEETING mail with a one-line reason each, pending approvals and triage items, then the
    newest QUEUE mail (the home page)."""
    return decision_queue(request, me, account)
