"""Shared pieces for the MCP gateway tests: the real SDK client connected to a spawned
`python -m mailmoat mcp` (stdio) or to /mcp over HTTP."""

from __future__ import annotations

import sys
from pathlib import Path

from mailmoat.eval.agentdojo_mcp import McpAgent, http_connect, stdio_connect

SRC = str(Path(__file__).resolve().parents[2] / "src")


def stdio_agent(url: str, accounts: list[str], agent: str | None = None) -> McpAgent:
    """The exact command line a client (or mcp-probe) spawns."""
    args = ["-m", "mailmoat", "mcp", *(x for a in accounts for x in ("--account", a))]
    if agent is not None:
        args += ["--agent", agent]
    return McpAgent(stdio_connect(sys.executable, args,
                                  env={"MAILMOAT_DATABASE_URL": url, "PYTHONPATH": SRC}))


def http_agent(base_url: str, token: str) -> McpAgent:
    return McpAgent(http_connect(f"{base_url}/mcp", token))
