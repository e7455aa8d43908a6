"""`mailmoat mcp`: serve the agent gateway over stdio for one local MCP client."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.markup import escape

err = Console(stderr=True)  # stdout carries the protocol: nothing else may print there


def mcp(
    account: list[str] = typer.Option(..., "--account", help="an account the agent may use "
                                      "(repeatable)"),
    agent: str | None = typer.Option(None, "--agent", help="act as this registered agent: "
                                     "its scopes, limits and granted accounts"),
) -> None:
    """Serve MCP over stdio: read mail and propose actions; nothing runs without approval."""
    from mailmoat.services.agents import ClientError, serve_stdio
    from mailmoat.store import StoreError

    try:
        serve_stdio(account, agent)
    except (ClientError, StoreError) as exc:
        err.print(f"[red]error:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from exc
