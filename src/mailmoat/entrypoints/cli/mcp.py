"""`mailmoat mcp`: serve the agent gateway over stdio for one local MCP client."""

from __future__ import annotations

import typer

from mailmoat.entrypoints.cli import common


def mcp(
    account: list[str] = typer.Option(..., "--account", help="an account the agent may use "
                                      "(repeatable)"),
    agent: str | None = typer.Option(None, "--agent", help="act as this registered agent: "
                                     "its scopes, limits and granted accounts"),
) -> None:
    """Serve MCP over stdio: read mail and propose actions; nothing runs without approval."""
    from mailmoat.services.agents import ClientError, serve_stdio

    # Errors go to stderr (common.fail): stdout carries the protocol, nothing else may print
    # there.
    store = common.open_store()
    try:
        serve_stdio(account, agent, store=store)
    except ClientError as exc:
        raise common.fail(exc) from exc
