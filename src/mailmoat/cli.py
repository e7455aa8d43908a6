"""The `mailmoat` command. Thin: parse arguments, call into the layers, print."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from mailmoat.core.message import parse_message
from mailmoat.core.policy import describe_policy
from mailmoat.judge.cascade import classify as classify_message

app = typer.Typer(help="mailmoat: an attention firewall for email.", no_args_is_help=True)
console = Console()


@app.command()
def policy() -> None:
    """Print the policy exactly as it runs: version, branch order, thresholds."""
    snapshot = describe_policy()
    console.print(f"[bold]policy[/bold] {snapshot['version']}")
    console.print("branch order: " + " -> ".join(snapshot["branch_order"]))
    table = Table("threshold", "value")
    for name, value in snapshot["thresholds"].items():
        table.add_row(name, str(value))
    console.print(table)


@app.command()
def classify(
    path: str = typer.Argument(..., help="an .eml file, or - for standard input"),
    as_json: bool = typer.Option(False, "--json", help="print the decision trace as JSON"),
) -> None:
    """Classify one message and print its lane and decision trace."""
    if path == "-":
        raw = sys.stdin.buffer.read()
    else:
        file = Path(path)
        if not file.is_file():
            console.print(f"[red]error:[/red] no such file: {path}")
            raise typer.Exit(2)
        raw = file.read_bytes()
    trace = classify_message(parse_message(raw))
    if as_json:
        typer.echo(json.dumps(trace.as_dict(), ensure_ascii=False, indent=2))
        return
    d = trace.as_dict()
    console.print(f"[bold]{d['lane']}[/bold]  {d['reason']}  (source: {d['source']})")
    console.print("features: " + ", ".join(f"{k}={v:.2f}" for k, v in d["features"].items()))
    on = [k for k, v in d["signals"].items() if v]
    console.print("signals: " + (", ".join(on) or "none"))
    console.print(f"auto_eligible: {d['auto_eligible']}   policy: {d['policy_version']}")


def main() -> None:  # pragma: no cover - console entry point
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
