"""Shared pieces for the MCP gateway tests: a store with the demo mailbox, a registered
agent, a real `python -m mailmoat mcp` stdio server and a real uvicorn `up`-style server."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path
from typing import Any

import uvicorn

from mailmoat.eval.agentdojo_mcp import McpAgent, http_connect, stdio_connect

SRC = str(Path(__file__).resolve().parents[1] / "src")


def stdio_agent(url: str, accounts: list[str], agent: str | None = None) -> McpAgent:
    """The exact command line a client (or mcp-probe) spawns."""
    args = ["-m", "mailmoat", "mcp", *(x for a in accounts for x in ("--account", a))]
    if agent is not None:
        args += ["--agent", agent]
    return McpAgent(stdio_connect(sys.executable, args,
                                  env={"MAILMOAT_DATABASE_URL": url, "PYTHONPATH": SRC}))


class UpServer:
    """uvicorn serving the `up` app (web + /mcp) on 127.0.0.1 and a free port, with its
    lifespan on (the MCP session manager runs in it)."""

    def __init__(self, app: Any) -> None:
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0,
                                                    log_level="warning", lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        port = int(self.server.servers[0].sockets[0].getsockname()[1])
        return f"http://127.0.0.1:{port}"

    def __enter__(self) -> UpServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *_exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def http_agent(base_url: str, token: str) -> McpAgent:
    return McpAgent(http_connect(f"{base_url}/mcp", token))
