"""`mailmoat rules ...` and `mailmoat correct`: see, pin, unpin and remove what was learned."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import typer
from rich.table import Table

from mailmoat.entrypoints.cli import common

if TYPE_CHECKING:  # the store loads only when a command runs (CLI start-up)
    from mailmoat.learn.service import Learning, LearningError

rules_app = typer.Typer(help="Learned sender rules and human pins.", no_args_is_help=True)
console, err = common.console, common.err


def _actor() -> str:
    return common.me()


ACTOR = typer.Option(None, "--actor", help="who is acting (default: cli:<login name>)")
ACCOUNT = typer.Option("local", "--account", help="the mail account")


def _learning(account: str) -> Learning:
    from mailmoat.learn.service import Learning

    return Learning(common.open_store(), account=account)


def _fail(exc: LearningError) -> typer.Exit:
    err.print(f"[red]error:[/red] {exc}")
    return typer.Exit(2)


@rules_app.command("list")
def list_rules(
    account: str = ACCOUNT,
    as_json: bool = typer.Option(False, "--json", help="print JSON"),
) -> None:
    """Every learned rule (with the corrections it cites) and every pin."""
    from mailmoat.learn.service import pin_dict

    learning = _learning(account)
    rules, pins = learning.rules(), learning.pins()
    if as_json:
        typer.echo(json.dumps({"rules": [r.as_dict() for r in rules],
                               "pins": [pin_dict(p) for p in pins]}, indent=2))
        return
    table = Table("sender", "scope", "lane", "kind", "from corrections")
    for pin in pins:
        table.add_row(pin.key.value, pin.key.scope.value, pin.lane.value, "pin (person)", "")
    for view in rules:
        rule = view.rule
        cites = ", ".join(f"#{i}" for i in rule.correction_ids)
        table.add_row(rule.key.value, rule.key.scope.value, rule.lane.value, "learned", cites)
    console.print(table if rules or pins else "no rules and no pins")


@rules_app.command()
def show(key: str = typer.Argument(..., help="an address or a domain"),
         account: str = ACCOUNT) -> None:
    """One sender: its pin, its learned rule and the corrections the rule came from."""
    from mailmoat.learn.service import LearningError

    learning = _learning(account)
    try:
        view, pin = learning.rule(key)
    except LearningError as exc:
        raise _fail(exc) from exc
    console.print(f"[bold]{key}[/bold]")
    console.print(f"pin: {pin.lane.value if pin else 'none'}")
    if view is None:
        console.print("learned rule: none")
    else:
        console.print(f"learned rule: {view.rule.lane.value}")
        for c in view.corrections:
            console.print(f"  correction #{c['id']}: message {c['message_id']} "
                          f"{c['shown_lane']} -> {c['lane']} by {c['actor']} at {c['created_at']}")
    if "@" in key:
        facts = learning.facts(key)
        console.print("facts: " + ", ".join(f"{k}={v}" for k, v in facts.as_numbers().items()))


@rules_app.command()
def remove(key: str = typer.Argument(..., help="an address or a domain"),
           account: str = ACCOUNT, actor: str | None = ACTOR) -> None:
    """Remove a learned rule; the corrections behind it will not count again."""
    from mailmoat.learn.service import LearningError

    try:
        rule, lapsed = _learning(account).remove(key, actor or _actor())
    except LearningError as exc:
        raise _fail(exc) from exc
    console.print(f"removed learned rule {rule.key.value} -> {rule.lane.value}")
    for other in lapsed:
        console.print(f"also gone (learned from the same corrections): "
                      f"{other.key.value} -> {other.lane.value}")


@rules_app.command()
def pin(key: str = typer.Argument(..., help="an address or an organisation's domain"),
        lane: str = typer.Argument(..., help="PUSH, MEETING, QUEUE, INFO or SILENT"),
        account: str = ACCOUNT, actor: str | None = ACTOR) -> None:
    """Pin a sender to a lane. Only a pin can send a sender to SILENT."""
    from mailmoat.learn.service import LearningError

    try:
        made = _learning(account).pin(key, lane, actor or _actor())
    except LearningError as exc:
        raise _fail(exc) from exc
    console.print(f"pinned {made.key.value} -> {made.lane.value}")


@rules_app.command()
def unpin(key: str = typer.Argument(..., help="an address or a domain"),
          account: str = ACCOUNT, actor: str | None = ACTOR) -> None:
    """Remove a pin."""
    from mailmoat.learn.service import LearningError

    try:
        gone = _learning(account).unpin(key, actor or _actor())
    except LearningError as exc:
        raise _fail(exc) from exc
    console.print(f"unpinned {gone.key.value} (was {gone.lane.value})")


def correct(message_id: int = typer.Argument(..., help="the message id"),
            lane: str = typer.Argument(..., help="PUSH, MEETING, QUEUE, INFO or SILENT"),
            account: str = ACCOUNT, actor: str | None = ACTOR,
            note: str = typer.Option("", help="why, for the ledger")) -> None:
    """Move a message to another lane; two identical moves for a sender make a rule."""
    from mailmoat.learn.service import LearningError
    from mailmoat.services.relabel import relabel

    try:
        done = relabel(common.open_store(), account, message_id, lane, actor or _actor(), note)
    except LearningError as exc:
        raise _fail(exc) from exc
    console.print(f"message {message_id} {done.explanation} (correction #{done.correction})")


app = rules_app  # the group as main.py registers it
