"""Small MCP servers for mcp-probe's tests, written with the `mcp` SDK's server side (MCPServer).

    python tests/support/probe_servers.py stdio            # a catalog server over stdio
    python tests/support/probe_servers.py hang             # its tools/call never answers
    python tests/support/probe_servers.py crash            # writes its token to stderr and exits
    python tests/support/probe_servers.py http --port N [--flaky K] [--limited K] [--token T]
        [--deny-calls]

The catalog server has read-only tools with constrained schemas (minLength, minimum, enum,
nested objects, minItems, an output schema) and a mutating one. It grows an extra tool
(`export_everything`) once the file named by PROBE_GROW_FILE exists. Over HTTP, an ASGI wrapper
answers the first K `tools/call` requests with 503 (`--flaky K`) or with 429 Too Many Requests
(`--limited K`), every request without `Authorization: Bearer T` with 401 (`--token T`), or
every `tools/call` with 401 (`--deny-calls`). Each HTTP answer is appended to the file named
by PROBE_HTTP_LOG, if set, so a test can count what the server really saw.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any

import anyio
from mcp.server import MCPServer
from mcp_types import ToolAnnotations
from pydantic import BaseModel, Field


class Item(BaseModel):
    id: Annotated[str, Field(min_length=2)]
    tags: Annotated[list[str], Field(min_length=1)]


class Description(BaseModel):
    id: str
    tag_count: int
    summary: str


def build(hang: bool = False) -> MCPServer:
    server = MCPServer("probe-test-catalog", version="1.0.0")
    read_only = ToolAnnotations(readOnlyHint=True, destructiveHint=False, openWorldHint=False)

    @server.tool(description="Look a word up in the catalog.", annotations=read_only)
    async def lookup(
        query: Annotated[str, Field(min_length=3, description="at least three letters")],
        limit: Annotated[int, Field(ge=1, le=50)],
        order: Annotated[str, Field(json_schema_extra={"enum": ["asc", "desc"]})] = "asc",
    ) -> str:
        if hang:
            await anyio.sleep(3600)
        if len(query) < 3 or limit < 1:  # the probe must never land here
            raise ValueError("query too short or limit below 1")
        return f"{limit} results for {query} ({order})"

    @server.tool(description="Describe one catalog item.", annotations=read_only)
    def describe_item(item: Item) -> Description:
        return Description(id=item.id, tag_count=len(item.tags), summary=f"{item.id}: ok")

    @server.tool(description="Delete an item from the catalog.")
    def delete_item(id: str) -> str:
        return f"deleted {id}"

    grow = os.environ.get("PROBE_GROW_FILE")
    if grow and Path(grow).exists():

        @server.tool(description="Every record, in one file.", annotations=read_only)
        def export_everything() -> str:
            return "everything"

    return server


class Gate:
    """ASGI wrapper: 401 without the token, 503 for the first K tools/call, 401 for calls."""

    def __init__(self, app: Any, flaky: int, token: str | None, deny_calls: bool,
                 log: str | None, limited: int = 0) -> None:
        self.app, self.flaky, self.token, self.deny_calls = app, flaky, token, deny_calls
        self.log, self.limited = log, limited

    def _note(self, status: int, method: str) -> None:
        if self.log:
            with open(self.log, "a", encoding="utf-8") as fh:
                fh.write(json.dumps({"status": status, "method": method}) + "\n")

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode().lower(): v.decode() for k, v in scope.get("headers", [])}
        body = b""
        more = True
        while more and scope["method"] == "POST":
            message = await receive()
            body += message.get("body", b"")
            more = message.get("more_body", False)
        method = ""
        if body:
            try:
                method = str(json.loads(body).get("method", ""))
            except (ValueError, AttributeError):
                method = ""
        status = 0
        unauthorized = self.token is not None and (
            headers.get("authorization") != f"Bearer {self.token}"
        )
        if unauthorized or (method == "tools/call" and self.deny_calls):
            status = 401
        elif method == "tools/call" and self.flaky > 0:
            self.flaky -= 1
            status = 503
        elif method == "tools/call" and self.limited > 0:
            self.limited -= 1
            status = 429
        if status:
            self._note(status, method)
            reason = {401: b"unauthorized", 429: b"slow down"}.get(status, b"try again")
            await send({"type": "http.response.start", "status": status,
                        "headers": [(b"content-type", b"text/plain")]})
            await send({"type": "http.response.body", "body": reason})
            return
        if scope["method"] == "POST":
            self._note(200, method)
        replayed = False

        async def replay() -> dict[str, Any]:
            nonlocal replayed
            if not replayed and scope["method"] == "POST":
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("mode", choices=["stdio", "hang", "crash", "http"])
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--flaky", type=int, default=0)
    p.add_argument("--limited", type=int, default=0)
    p.add_argument("--token")
    p.add_argument("--deny-calls", action="store_true")
    a = p.parse_args()
    if a.mode == "crash":
        print(f"fatal: login refused ({os.environ.get('API_TOKEN', '')})", file=sys.stderr)
        sys.exit(3)
    server = build(hang=a.mode == "hang")
    if a.mode in ("stdio", "hang"):
        server.run("stdio")
        return
    import uvicorn

    app = Gate(server.streamable_http_app(), a.flaky, a.token, a.deny_calls,
               os.environ.get("PROBE_HTTP_LOG"), a.limited)
    uvicorn.run(app, host="127.0.0.1", port=a.port, log_level="warning")


if __name__ == "__main__":
    main()
