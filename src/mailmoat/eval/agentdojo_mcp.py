"""The AgentDojo replay's agent speaking MCP: every call it makes to mailmoat is a tool call
through the official SDK client to mailmoat's MCP server (a `mailmoat mcp` subprocess over
stdio, or /mcp over HTTP). It is an `AgentPort` for eval/agentdojo_bridge.py.

The bridge is synchronous and the SDK client is not, so the client lives on its own event
loop in a thread; each call waits for its answer there.
"""

from __future__ import annotations

import asyncio
import base64
import threading
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

from mailmoat.core.receipts import PayloadError

Connect = Callable[[], AbstractAsyncContextManager[Any]]  # yields a connected mcp.Client
CALL_TIMEOUT = 120.0


def stdio_connect(command: str, args: list[str], env: dict[str, str] | None = None,
                  cwd: str | None = None) -> Connect:
    """A `mailmoat mcp ...` (or any) stdio server, spawned by the SDK client."""
    def connect() -> AbstractAsyncContextManager[Any]:
        from mcp import Client
        from mcp.client.stdio import StdioServerParameters

        return Client(StdioServerParameters(command=command, args=args, env=env, cwd=cwd))

    return connect


def http_connect(url: str, token: str) -> Connect:
    """Streamable HTTP at `url` with `Authorization: Bearer <token>`."""
    from contextlib import asynccontextmanager

    @asynccontextmanager
    async def connect() -> Any:
        import httpx2
        from mcp import Client
        from mcp.client.streamable_http import streamable_http_client

        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"},
                                  timeout=httpx2.Timeout(30, read=300))
        async with http, Client(streamable_http_client(url, http_client=http)) as client:
            yield client

    return connect


class McpAgent:
    """A synchronous MCP client: `call(tool, arguments)` returns the structured result and
    raises `ToolRefused` when the server answers with an error."""

    def __init__(self, connect: Connect) -> None:
        self._connect = connect
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._client: Any = None
        self._stop: asyncio.Event | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> McpAgent:
        self._thread.start()
        if not self._ready.wait(60) or self._client is None:
            raise RuntimeError(f"MCP server did not come up: {self._error!r}")
        return self

    def __exit__(self, *_exc: object) -> None:
        if self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(30)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._main())
        except BaseException as exc:  # reported by __enter__
            self._error = exc
            self._ready.set()
        finally:
            self._loop.close()

    async def _main(self) -> None:
        self._stop = asyncio.Event()
        async with self._connect() as client:
            self._client = client
            self._ready.set()
            await self._stop.wait()

    def _await(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(CALL_TIMEOUT)

    def list_tools(self) -> list[Any]:
        return list(self._await(self._client.list_tools()).tools)

    def call_raw(self, tool: str, arguments: dict[str, Any]) -> Any:
        return self._await(self._client.call_tool(tool, arguments))

    def call(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        result = self.call_raw(tool, arguments)
        if result.is_error:
            raise ToolRefused(" ".join(getattr(c, "text", "") for c in result.content))
        return dict(result.structured_content or {})


class ToolRefused(PayloadError):
    """The MCP server refused the call (the bridge counts it as a refused proposal)."""


class McpPort:
    """The bridge's agent over MCP. The agent's own name is the MCP identity: the `agent`
    argument the bridge passes is not sent (no tool takes a proposer)."""

    agent_applies_reversible = False

    def __init__(self, agent: McpAgent) -> None:
        self.agent = agent

    def send(self, account: str, agent: str, to: str, subject: str, body: str,
             attachments: list[tuple[str, str, bytes]]) -> dict[str, Any]:
        files = [{"filename": name, "content_type": kind,
                  "content_base64": base64.b64encode(content).decode()}
                 for name, kind, content in attachments]
        out = self.agent.call("propose_send", {"account": account, "to": to,
                                               "subject": subject, "body": body,
                                               "attachments": files})
        return {"id": out["proposal_id"], "payload_sha256": out["payload_sha256"]}

    def trash(self, account: str, agent: str, message: int) -> dict[str, Any]:
        out = self.agent.call("propose_trash", {"account": account, "message_id": message})
        return {"id": out["proposal_id"], "payload_sha256": out["payload_sha256"]}
