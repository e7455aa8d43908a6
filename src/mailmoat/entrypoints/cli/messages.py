"""`mailmoat list` and `mailmoat show`: find a message's id (what `correct` and
`actions propose --reply-to` take) and see everything about one message."""

from __future__ import annotations

import json

import typer
from rich.markup import escape
from rich.table import Table

from mailmoat.core.lanes import Lane
from mailmoat.entrypoints.cli import common

console = common.console


def list_command(
    lane: Lane | None = typer.Option(None, "--lane", help="only this lane"),
    account: str | None = typer.Option(None, "--account", help="only this mail account"),
    limit: int = typer.Option(50, "--limit", min=1, max=10_000, help="at most this many"),
    as_json: bool = typer.Option(False, "--json", help="print JSON"),
) -> None:
    """List messages, newest first, with their ids, lanes and reasons."""
    from mailmoat.services.messages import list_messages

    found = list_messages(common.open_store(), lane, account, limit)
    if as_json:
        typer.echo(json.dumps(found, ensure_ascii=False, indent=2, default=str))
        return
    table = Table("id", "account", "lane", "from", "subject", "reason")
    for m in found:
        table.add_row(str(m["id"]), escape(m["account"]), m["lane"], escape(m["from_addr"]),
                      escape(m["subject"] or ""), escape(m["reason"] or ""))
    console.print(table)


def show_command(
    message_id: int = typer.Argument(..., help="a message id, as `mailmoat list` prints it"),
    as_json: bool = typer.Option(False, "--json", help="print JSON"),
) -> None:
    """Show one message: its decision, trace, sender facts and pending actions."""
    from mailmoat.services.messages import show_message

    shown = show_message(common.open_store(), message_id)
    if shown is None:
        raise common.fail(f"no message {message_id}", 1)
    if as_json:
        typer.echo(json.dumps(shown, ensure_ascii=False, indent=2, default=str))
        return
    d = shown["decision"]
    console.print(f"[bold]#{shown['id']}[/bold] {escape(shown['account'])}  "
                  f"{escape(shown['from_addr'])}: {escape(shown['subject'] or '')}")
    console.print(f"[bold]{d['lane']}[/bold]  {escape(str(d['reason']))}  "
                  f"(branch {d['branch']}, source {d['source']}, "
                  f"auto_eligible {d['auto_eligible']}, policy {d['policy_version']})")
    features = shown["trace"].get("features", {})
    console.print("features: " + ", ".join(f"{k}={v:.2f}" for k, v in features.items()))
    on = [k for k, v in shown["trace"].get("signals", {}).items() if v]
    console.print("signals: " + (", ".join(on) or "none"))
    facts = shown["facts"]
    console.print("sender facts: " + ", ".join(
        f"{k}={v}" for k, v in facts.items() if k != "address" and v not in (None, (), [])))
    actions = shown["pending_actions"]
    console.print(f"pending actions: {len(actions)}")
    for a in actions:
        console.print(f"  #{a['id']} {a['action']} to {escape(str(a['to']))}: "
                      f"{escape(str(a['subject']))}")
    if shown["stale"]:
        console.print("[yellow]stale:[/yellow] the stored bytes no longer match the decision")
