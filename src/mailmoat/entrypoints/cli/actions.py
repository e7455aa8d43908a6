"""`mailmoat actions ...`: propose, show, approve, reject, and run the executor.

`show` prints the exact bytes an approval binds (recipient, subject, body verbatim,
attachments, the message replied to) with their sha256; `approve --expect <sha256>` refuses
if the stored payload no longer hashes to what you looked at.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
import typer
from rich.markup import escape
from rich.table import Table

from mailmoat.act.errors import ActError
from mailmoat.core.autonomy import Mode
from mailmoat.core.receipts import PayloadError
from mailmoat.entrypoints.cli import common

if TYPE_CHECKING:  # the store loads only when a command runs (CLI start-up)
    from mailmoat.act.service import ActionService

actions_app = typer.Typer(help="Proposed actions, approvals and the guarded executor.",
                          no_args_is_help=True)
console = common.console


def _service() -> ActionService:
    from mailmoat.act.service import ActionService

    return ActionService(common.open_store().engine)


ACCOUNT_HELP = "the mail account (default: the only one; asked when there are several)"


def _account(given: str | None) -> str:
    """The account a command acts on: the one named, else the only mailbox there is (the
    configured account, or imported mail when none is configured). With several, a person
    at a terminal is asked; a script gets an error naming them, never a silent guess."""
    if given:
        return given
    names = common.account_names()
    if len(names) <= 1:
        return names[0] if names else "local"
    if sys.stdin.isatty():
        return str(typer.prompt(f"Which account ({', '.join(names)})?",
                                type=click.Choice(names)))
    common.err.print(f"[red]error:[/red] there are {len(names)} accounts "
                     f"({escape(', '.join(names))}): choose one with --account")
    raise typer.Exit(2)


def _me() -> str:
    return common.me()


def _fail(exc: Exception) -> typer.Exit:
    common.err.print(f"[red]error:[/red] {escape(str(exc))}")
    return typer.Exit(1)


def _emit(data: Any) -> None:
    typer.echo(json.dumps(data, ensure_ascii=False, indent=2))


@actions_app.command("list")
def list_actions(
    account: str | None = typer.Option(None, help="only this account"),
    status: str | None = typer.Option(None, help="pending, approved, done, failed, ..."),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """List proposed actions, newest first."""
    rows = _service().list(account, status)
    if as_json:
        _emit(rows)
        return
    table = Table("id", "account", "action", "status", "outbox", "to", "subject", "source")
    for r in rows:
        table.add_row(str(r["id"]), r["account"], r["action"], r["status"], r["outbox"] or "",
                      escape(r["to"]), escape(r["subject"]), r["source"])
    console.print(table)


@actions_app.command()
def show(action_id: int, as_json: bool = typer.Option(False, "--json")) -> None:
    """Show the exact payload an approval would bind, with its hash and recipient flags."""
    try:
        view = _service().show(action_id)
    except ActError as exc:
        raise _fail(exc) from exc
    if as_json:
        _emit(view)
        return
    p = view["payload"]
    console.print(f"[bold]action {view['id']}[/bold] {view['action']} — {view['status']} "
                  f"(account {escape(view['account'])}, proposed by "
                  f"{escape(view['proposed_by'])} via {view['source']})")
    for key in ("to", "subject", "message_id", "folder", "uidvalidity", "uid", "sha256",
                "in_reply_to"):
        if p.get(key):
            console.print(f"{key}: {escape(repr(p[key]))}")
    target = view.get("target")
    if target:  # the one message a forward or delete acts on
        console.print("message: " + ("[red]no longer stored as approved[/red]"
                                     if target.get("missing") else
                                     f"{escape(str(target.get('from')))} — "
                                     f"{escape(str(target.get('subject')))} "
                                     f"({escape(str(target.get('date')))})"))
    flags = view["flags"] or {}
    if flags.get("any") or flags.get("outside_domain"):
        console.print(f"[yellow]recipient flags:[/yellow] {escape(json.dumps(flags))}")
    for a in p.get("attachments") or []:
        console.print(f"attachment: {escape(a['filename'])} ({a['content_type']}, "
                      f"sha256 {a['sha256']})")
    if view["replying_to"]:
        r = view["replying_to"]
        console.print(f"replying to: {escape(str(r.get('from')))} — "
                      f"{escape(str(r.get('subject')))} {escape(str(r.get('message_id')))}")
    if "body" in p or "note" in p:
        console.print("body (verbatim):")
        typer.echo(p.get("body", p.get("note", "")))
    console.print(f"payload sha256: {view['payload_sha256']}")
    if view["receipt"]:
        console.print(f"receipt: approved by {escape(view['receipt']['approved_by'])} at "
                      f"{view['receipt']['approved_at']}")
    if view["outbox"]:
        o = view["outbox"]
        console.print(f"outbox: {o['state']}, attempts {o['attempts']}"
                      + (f", {escape(o['last_error'])}" if o["last_error"] else ""))


@actions_app.command()
def propose(
    to: str = typer.Option(None, help="exactly one recipient address"),
    subject: str = typer.Option("", help="subject line"),
    body: str | None = typer.Option(None, help="body text"),
    body_file: Path | None = typer.Option(None, help="read the body from this file (UTF-8)"),
    reply_to: int | None = typer.Option(None, help="stored message id this replies to"),
    attach: list[Path] = typer.Option([], help="a file to attach (repeatable)"),
    payload_file: Path | None = typer.Option(
        None, help="a JSON payload for any action type instead of the options above"),
    account: str | None = typer.Option(None, help=ACCOUNT_HELP),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Propose an action. Nothing runs until it is approved."""
    account = _account(account)
    service = _service()
    try:
        if payload_file is not None:
            payload = json.loads(payload_file.read_text(encoding="utf-8"))
        else:
            if body_file is not None:
                body = body_file.read_text(encoding="utf-8")
            attachments = [
                {"filename": f.name, "content_type": "application/octet-stream",
                 "sha256": service.store_attachment(f.read_bytes())}
                for f in attach
            ]
            payload = {"action": "send_email", "to": to or "", "subject": subject,
                       "body": body or "", "attachments": attachments}
        view = service.propose(account, payload, _me(), "cli", reply_to_message=reply_to)
    except (OSError, ValueError, PayloadError, ActError) as exc:
        raise _fail(exc) from exc
    if as_json:
        _emit(view)
        return
    console.print(f"proposed action {view['id']} ({view['action']}); review it with "
                  f"`mailmoat actions show {view['id']}`")
    console.print(f"payload sha256: {view['payload_sha256']}")


@actions_app.command()
def approve(
    action_id: int,
    expect: str | None = typer.Option(None, help="the payload sha256 you reviewed"),
) -> None:
    """Approve: mint the receipt over the stored payload and queue it for the executor."""
    try:
        view = _service().approve(action_id, _me(), expected_sha256=expect)
    except (ActError, PayloadError) as exc:
        raise _fail(exc) from exc
    console.print(f"approved action {action_id}: receipt {view['receipt']['payload_sha256']}"
                  if view["receipt"] else f"approved action {action_id}")


@actions_app.command()
def reject(action_id: int, note: str = typer.Option("", help="why")) -> None:
    """Reject (also withdraws an approval that has not started to run)."""
    try:
        _service().reject(action_id, _me(), note)
    except ActError as exc:
        raise _fail(exc) from exc
    console.print(f"rejected action {action_id}")


@actions_app.command()
def mode(
    account: str,
    set_to: str | None = typer.Argument(None, help="SUGGEST or AUTO"),
    cap: int | None = typer.Option(None, help="unattended replies per day"),
    guidelines: str | None = typer.Option(None, help="instructions for unattended replies"),
) -> None:
    """Show or set an account's mode. AUTO -> SUGGEST withdraws queued unattended work."""
    service = _service()
    try:
        if set_to is not None or cap is not None or guidelines is not None:
            chosen = Mode(set_to.upper()) if set_to else service.mode(account).mode
            service.set_mode(account, chosen, _me(), guidelines=guidelines, daily_cap=cap)
    except (ValueError, PayloadError) as exc:
        raise _fail(exc) from exc
    current = service.mode(account)
    console.print(f"{escape(account)}: {current.mode.value}, daily cap {current.daily_cap}")
    if current.guidelines:
        console.print(f"guidelines: {escape(current.guidelines)}")


@actions_app.command()
def triage(account: str | None = typer.Option(None, help=ACCOUNT_HELP),
           as_json: bool = typer.Option(False, "--json")) -> None:
    """Messages a confidence canary flagged for a person to review."""
    items = _service().triage(_account(account))
    if as_json:
        _emit(items)
        return
    table = Table("id", "message", "from", "subject", "reason")
    for t in items:
        table.add_row(str(t["id"]), str(t["message_id"]), escape(t["from"]),
                      escape(t["subject"]), escape(t["reason"]))
    console.print(table)


@actions_app.command()
def sweep(account: str | None = typer.Option(None, help=ACCOUNT_HELP)) -> None:
    """Run the AUTO sweep now: confidence canaries into triage; in AUTO mode, unattended work.

    Replies are drafted by the configured model (none configured: no drafts, ever); sync
    runs this after every pass."""
    from mailmoat.act.auto import AutoSweep
    from mailmoat.act.service import ActionService
    from mailmoat.services.bootstrap import build_drafter

    account = _account(account)
    store = common.open_store(with_scorers=True)
    report = AutoSweep(store, ActionService(store.engine),
                       drafter=build_drafter(store.engine)).run(account)
    console.print(f"{escape(account)}: triaged {len(report.triaged)}, "
                  f"replies queued {len(report.replies_queued)}, refused {len(report.refused)}")


@actions_app.command()
def run(database_url: str | None = typer.Option(
            None, help="default: MAILMOAT_DATABASE_URL, else the local SQLite file"),
        once: bool = typer.Option(False, help="run at most one outbox row"),
        poll: float = typer.Option(0.0, help="keep running, checking every POLL seconds")
        ) -> None:
    """Run the guarded executor over the outbox until it is idle (or keep polling), with
    the transports of every account that has SMTP settings; apply approved reversible
    actions on the IMAP server. Says what it did, and why anything left waits."""
    from mailmoat.services.outbox import WorkerConfigError, outbox_passes

    told: list[tuple[int, str]] | None = None
    try:
        for outcomes, waiting in outbox_passes(database_url, f"worker-{os.getpid()}",
                                               once=once, poll=poll):
            for outcome in outcomes:
                typer.echo(f"{outcome.outbox_id} {outcome.state} {outcome.detail}")
            now = [(p.outbox_id, why) for p, why in waiting]
            if now != told:  # with --poll, only when it changes
                _explain(outcomes, waiting, first=told is None)
                told = now
    except WorkerConfigError as exc:
        raise common.fail(exc) from exc


def _explain(outcomes: list[Any], waiting: list[Any], first: bool) -> None:
    if not outcomes and not waiting and first:
        typer.echo("nothing to run: no approved action is waiting in the outbox")
    for pending, why in waiting:
        typer.echo(f"{pending.outbox_id} waiting (action {pending.action_id}, "
                   f"{pending.action}): {why}")


app = actions_app  # the group as main.py registers it
