"""The small firewall page: lanes with counts, messages per lane with reason and features.

Server-rendered, no JavaScript. Everything the page shows is also in the JSON API.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from mailmoat.core.lanes import Lane
from mailmoat.core.policy import describe_policy
from mailmoat.web.routes_actions import actions_router
from mailmoat.web.routes_judge import judge_router
from mailmoat.web.routes_learn import learn_router

HERE = Path(__file__).parent
# Display order: what may interrupt first, the hidden lanes last and out of the way.
LANE_ORDER: tuple[Lane, ...] = (Lane.PUSH, Lane.MEETING, Lane.QUEUE, Lane.INFO, Lane.SILENT)
LANE_BLURB = {
    Lane.PUSH: "worth interrupting now",
    Lane.MEETING: "scheduling",
    Lane.QUEUE: "review on your own time",
    Lane.INFO: "records: receipts, confirmations, status",
    Lane.SILENT: "noise: recorded, never shown unless you look",
}
PAGE_SIZE = 50


def _lane(value: str) -> Lane:
    try:
        return Lane(value.upper())
    except ValueError as exc:
        raise HTTPException(404, f"no such lane: {value}") from exc


def create_app(store: Any, account: str = "local") -> FastAPI:
    app = FastAPI(title="mailmoat", version="0.1.0")
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    app.include_router(judge_router(store))

    def counts() -> dict[str, int]:
        raw = store.lane_counts(account)
        return {lane.value: int(raw.get(lane.value, 0)) for lane in LANE_ORDER}

    @app.get("/", response_class=HTMLResponse)
    def firewall(request: Request) -> HTMLResponse:
        lanes = [
            {
                "lane": lane.value,
                "blurb": LANE_BLURB[lane],
                "count": counts()[lane.value],
                "hidden": lane in (Lane.INFO, Lane.SILENT),
                "messages": []
                if lane in (Lane.INFO, Lane.SILENT)
                else store.list_messages(lane.value, account=account, limit=10),
            }
            for lane in LANE_ORDER
        ]
        return templates.TemplateResponse(request, "firewall.html", {"lanes": lanes})

    @app.get("/lane/{lane}", response_class=HTMLResponse)
    def lane_page(request: Request, lane: str, page: int = Query(0, ge=0)) -> HTMLResponse:
        chosen = _lane(lane)
        rows = store.list_messages(
            chosen.value, account=account, limit=PAGE_SIZE, offset=page * PAGE_SIZE
        )
        return templates.TemplateResponse(
            request,
            "lane.html",
            {
                "lane": chosen.value,
                "blurb": LANE_BLURB[chosen],
                "count": counts()[chosen.value],
                "messages": rows,
                "page": page,
                "has_next": len(rows) == PAGE_SIZE,
            },
        )

    @app.get("/message/{message_id}", response_class=HTMLResponse)
    def message_page(request: Request, message_id: int) -> HTMLResponse:
        item = store.get_message(message_id)
        if item is None:
            raise HTTPException(404, "no such message")
        return templates.TemplateResponse(request, "message.html", {"m": item})

    @app.get("/api/lanes")
    def api_lanes() -> dict[str, Any]:
        return {"counts": counts(), "policy": describe_policy()["version"]}

    @app.get("/api/messages")
    def api_messages(
        lane: str, limit: int = Query(50, ge=1, le=500), offset: int = Query(0, ge=0)
    ) -> list[dict[str, Any]]:
        return store.list_messages(_lane(lane).value, account=account, limit=limit, offset=offset)

    @app.get("/api/messages/{message_id}")
    def api_message(message_id: int) -> dict[str, Any]:
        item = store.get_message(message_id)
        if item is None:
            raise HTTPException(404, "no such message")
        return item

    app.include_router(learn_router(store, account))
    app.include_router(actions_router(store))  # authority: proposals, approvals, modes

    @app.get("/healthz")
    def healthz() -> dict[str, str]:
        return {"status": "ok"}

    return app
