"""`mailmoat agent add|list|revoke`: the outside agents allowed through the MCP gateway."""

from __future__ import annotations

import getpass

import typer
from rich.markup import escape
from rich.table import Table

from mailmoat.entrypoints.cli import common
from mailmoat.mcp.limits import DEFAULT_DAILY_PROPOSALS, DEFAULT_RATE_PER_MINUTE

app = typer.Typer(help="Agents allowed to read and propose over MCP.", no_args_is_help=True)
console, err = common.console, common.err


def _clients():
    from mailmoat.services.agents import agent_clients

    return agent_clients(common.open_store())


@app.command()
def add(
    name: str = typer.Argument(..., help="a name for the agent, shown on every proposal"),
    scopes: str = typer.Option("read", "--scopes", help="read, propose, or read,propose"),
    account: list[str] = typer.Option([], "--account", help="an account it may use "
                                      "(repeatable; at least one)"),
    rate: int = typer.Option(DEFAULT_RATE_PER_MINUTE, "--rate", help="calls a minute"),
    daily_cap: int = typer.Option(DEFAULT_DAILY_PROPOSALS, "--daily-cap",
                                  help="proposals a day (UTC)"),
) -> None:
    """Register an agent and print its token once: it is stored only as a hash."""
    from mailmoat.services.agents import ClientError

    try:
        token = _clients().add(name, scopes, account, f"cli:{getpass.getuser()}",
                               rate_per_minute=rate, daily_proposals=daily_cap)
    except ClientError as exc:
        err.print(f"[red]error:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from exc
    err.print(f"agent [bold]{escape(name)}[/bold] added; its token (shown only now):")
    typer.echo(token)


@app.command("list")
def list_agents() -> None:
    """Registered agents, their scopes, accounts and limits (never their tokens)."""
    table = Table("name", "scopes", "accounts", "rate/min", "proposals/day", "added", "state")
    for a in _clients().list():
        table.add_row(escape(a.name), ",".join(a.scopes), escape(", ".join(a.accounts)),
                      str(a.rate_per_minute), str(a.daily_proposals), a.created_at[:19],
                      "revoked" if a.revoked else "active")
    console.print(table)


@app.command()
def revoke(name: str = typer.Argument(..., help="the agent to cut off")) -> None:
    """Revoke an agent's token at once; its proposals stay for a person to decide."""
    if not _clients().revoke(name):
        err.print(f"[red]error:[/red] no active agent named {escape(name)!r}")
        raise typer.Exit(1)
    console.print(f"agent {escape(name)} revoked")
