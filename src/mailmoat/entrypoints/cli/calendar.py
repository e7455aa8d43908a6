"""`mailmoat calendar ...` and `mailmoat meeting show`: calendars and meeting requests."""

from __future__ import annotations

import json
import os
import sys

import typer
from rich.table import Table

from mailmoat.entrypoints.cli import common

ENV_SECRET = "MAILMOAT_CALENDAR_SECRET"

app = typer.Typer(help="Calendars (CalDAV, ICS feeds): add, list, test, sync, remove.",
                  no_args_is_help=True)
meeting_app = typer.Typer(help="Meeting requests: what a mail proposes, checked against your "
                          "calendars.", no_args_is_help=True)
console = common.console


def _secret(from_stdin: bool, kind: str, label: str = "password (or app password)"
            ) -> str | None:
    if from_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    if os.environ.get(ENV_SECRET):
        return os.environ[ENV_SECRET]
    if kind == "ics":
        return None  # a public feed needs none
    return str(typer.prompt(label, hide_input=True))


@app.command("add")
def add(
    name: str = typer.Argument(..., help="a short name for the calendar"),
    url: str = typer.Option(..., help="CalDAV collection URL, or an ICS feed URL with --ics"),
    user: str = typer.Option("", help="login name (CalDAV)"),
    account: str | None = typer.Option(None, help="the mail account this calendar answers for"),
    zone: str = typer.Option("UTC", help="your IANA time zone, e.g. Europe/Berlin"),
    ics: bool = typer.Option(False, "--ics", help="a read-only ICS feed (webcal:// or https://)"),
    freebusy: bool = typer.Option(False, "--freebusy", help="CalDAV, busy times only: read by "
                                  "the free-busy report (else events reduced to busy times); "
                                  "no titles are stored, nothing is written"),
    secret_stdin: bool = typer.Option(False, "--secret-stdin", help=f"read the password (or "
                                      f"token) from stdin (else ${ENV_SECRET}, else a hidden "
                                      "prompt)"),
    bearer: bool = typer.Option(False, "--bearer", help="CalDAV: log in with a bearer token "
                                "(read like the password) instead of a password"),
    oauth: bool = typer.Option(False, "--oauth", help="CalDAV: OAuth; the secret is the "
                               "refresh token, exchanged at --token-endpoint"),
    token_endpoint: str = typer.Option("", help="--oauth: the OAuth token URL"),
    client_id: str = typer.Option("", help="--oauth: the OAuth client id"),
    scope: str = typer.Option("", help="--oauth: scope to request"),
) -> None:
    """Add a calendar. Its password or token is sealed with AES-256-GCM, like a mail
    account's."""
    from mailmoat.calendar.registry import (
        CalendarError,
        CalendarSettings,
        Credential,
        add_calendar,
    )

    if ics and freebusy:
        raise common.fail("choose one of --ics and --freebusy")
    kind = "ics" if ics else "freebusy" if freebusy else "caldav"
    if bearer and oauth:
        raise common.fail("choose one of --bearer and --oauth")
    auth = "bearer" if bearer else "oauth" if oauth else "password"
    label = {"password": "password (or app password)", "bearer": "bearer token",
             "oauth": "OAuth refresh token"}[auth]
    settings = CalendarSettings(name=name, url=url, kind=kind, username=user, account=account,
                                zone=zone)
    store, ring = common.open_store(), common.key_ring()
    secret = _secret(secret_stdin, kind, label)
    cred = None if secret is None else Credential(
        auth, secret, token_endpoint, client_id, scope,
        os.environ.get("MAILMOAT_OAUTH_CLIENT_SECRET", "") if oauth else "")
    try:
        add_calendar(store, ring, settings, cred)
    except CalendarError as exc:
        raise common.fail(str(exc)) from None
    console.print(f"added calendar [bold]{name}[/bold]; try it: mailmoat calendar test {name}")


@app.command("list")
def list_() -> None:
    """List calendars (never their secrets)."""
    from mailmoat.calendar.registry import list_calendars
    from mailmoat.store.calendar_store import calendar_row, count_events

    store = common.open_store()
    cals = list_calendars(store)
    if not cals:
        console.print("no calendars; add one with: mailmoat calendar add")
        return
    table = Table("name", "kind", "url", "user", "account", "zone", "events", "last sync")
    for c in cals:
        row = calendar_row(store, c.name)
        last = row.last_sync_at.isoformat(timespec="seconds") if row and row.last_sync_at else "-"
        table.add_row(c.name, c.kind, c.url, c.username or "-", c.account or "-", c.zone,
                      str(count_events(store, c.id or 0)), last)
    console.print(table)


@app.command("test")
def test(name: str = typer.Argument(...)) -> None:
    """Reach the calendar step by step (dns, tcp, auth, calendar, read); say which fails."""
    from mailmoat.accounts.secrets import SecretKeyError
    from mailmoat.calendar.check import check
    from mailmoat.calendar.registry import CalendarError, get_calendar, open_credential

    store, ring = common.open_store(), common.key_ring()
    try:
        cal = get_calendar(store, name)
        cred = open_credential(store, ring, name)
    except (CalendarError, SecretKeyError) as exc:
        raise common.fail(str(exc)) from None
    steps = check(cal, cred)
    for step in steps:
        mark = "[green]ok[/green]" if step.ok else "[red]failed[/red]"
        console.print(f"{mark} {step.name}: {step.detail}")
    if not steps[-1].ok:
        raise typer.Exit(1)


@app.command("sync")
def sync(name: str = typer.Argument(...)) -> None:
    """Fetch what changed since the last sync (sync-token, else the feed's ETag)."""
    from mailmoat.calendar.caldav_source import CalDAVError
    from mailmoat.calendar.ics_feed import FeedError
    from mailmoat.calendar.registry import CalendarError
    from mailmoat.calendar.sync import sync_calendar

    store, ring = common.open_store(), common.key_ring()
    try:
        report = sync_calendar(store, ring, name)
    except CalendarError as exc:
        raise common.fail(str(exc)) from None
    except (CalDAVError, FeedError) as exc:
        raise common.fail(str(exc), 1) from None
    how = "full" if report.full else "incremental"
    console.print(f"{name}: {how} sync, {report.written} written, {report.deleted} removed")


@app.command("remove")
def remove(name: str = typer.Argument(...)) -> None:
    """Forget a calendar, its secret and its synced events (the server is not touched)."""
    from mailmoat.calendar.registry import CalendarError, remove_calendar

    try:
        remove_calendar(common.open_store(), name)
    except CalendarError as exc:
        raise common.fail(str(exc)) from None
    console.print(f"removed calendar {name}")


@meeting_app.command("show")
def show(
    message_id: int = typer.Argument(..., help="the message id (as in `mailmoat lane`)"),
    account: str = typer.Option("local", help="the account the message belongs to"),
    locale: str = typer.Option("en-US", help="how to read 3/5: en-US month first, else day"),
    as_json: bool = typer.Option(False, "--json", help="print JSON"),
) -> None:
    """What the mail proposes, how sure, the clashes, that day's events and alternatives."""
    from mailmoat.accounts.secrets import SecretKeyError
    from mailmoat.act.service import ActionService
    from mailmoat.services.bootstrap import key_ring
    from mailmoat.services.meeting import MeetingNotFound, meeting_context
    from mailmoat.services.meeting_proposals import proposals_for

    store = common.open_store()
    try:
        ring = key_ring()  # opens the calendar logins that ask the sender's free/busy
    except SecretKeyError:
        ring = None  # their free/busy stays unknown
    try:
        ctx = meeting_context(store, message_id, account, locale, ring=ring)
    except MeetingNotFound as exc:
        raise common.fail(str(exc)) from None
    data = ctx.as_dict()
    actions = ActionService(store.engine)
    data["proposals"] = [
        {**p.as_dict(), **{k: actions.show(v) if v is not None else None
                           for k, v in (("reply", p.reply_action_id),
                                        ("event", p.event_action_id))}}
        for p in proposals_for(store, message_id)]
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    r = data["reading"]
    console.print(f"message {message_id} ({data['lane'] or 'no lane'}): {r['kind']}, "
                  f"[bold]{r['certainty']}[/bold]")
    console.print(f"understood: {r['understood']}", markup=False)
    for note in r["notes"]:
        console.print(f"  note: {note}", markup=False)
    if r["certainty"] == "unsure":
        console.print("unsure: no event will be proposed; read the mail itself.")
    if r["links"]:
        console.print("links: " + ", ".join(r["links"]), markup=False)
    if not data["calendars"]:
        console.print("no calendar linked: add one with `mailmoat calendar add` to check "
                      "conflicts")
    elif data["checked"]:
        console.print(f"calendars: {', '.join(data['calendars'])} ({data['zone']})")
        if data["conflicts"]:
            for c in data["conflicts"]:
                console.print(f"  [red]conflict[/red] {c['start']} - {c['end']} "
                              f"{c['summary']!r}")
        else:
            console.print("  no conflict")
        fb = data["counterparty_freebusy"]
        console.print(f"  {fb['address'] or 'the sender'}: {data['counterparty']} at that "
                      f"time ({fb['note']})", markup=False)
        for n in data["nearby"]:
            console.print(f"  that day: {n['start']} - {n['end']} {n['summary']!r}",
                          markup=False)
        for a in data["alternatives"]:
            console.print(f"  alternative: {a['start']} - {a['end']} (them: "
                          f"{a['counterparty']})")
    for p in data["proposals"]:
        for label in ("reply", "event"):
            a = p[label]
            if a is not None:
                console.print(f"proposal ({p['answer']}): action {a['id']} {a['action']} "
                              f"{a['status']} sha256 {a['payload_sha256'][:16]}; approve with "
                              f"`mailmoat actions approve {a['id']}` or `mailmoat meeting "
                              f"approve {message_id}` for all", markup=False)


@meeting_app.command("propose")
def propose(
    message_id: int = typer.Argument(...),
    account: str = typer.Option("local", help="the account the message belongs to"),
    answer: str = typer.Option("auto", help="auto (decline on a clash) | accept | decline"),
    calendar: str | None = typer.Option(None, help="the CalDAV calendar to write to"),
    invite_sender: bool = typer.Option(False, help="make the event invite the sender (a "
                                       "floor action: invitations go out)"),
    locale: str = typer.Option("en-US", help="how to read 3/5"),
) -> None:
    """Draft the reply and the calendar write; both wait for approval."""
    import getpass

    from mailmoat.act.service import ActionService
    from mailmoat.services.meeting import MeetingNotFound
    from mailmoat.services.meeting_proposals import NotProposable, propose_meeting

    store = common.open_store()
    try:
        made = propose_meeting(store, ActionService(store.engine), message_id, account=account,
                               proposed_by=f"cli:{getpass.getuser()}", source="cli", answer=answer,
                               calendar=calendar, invite_sender=invite_sender, locale=locale)
    except (MeetingNotFound, NotProposable) as exc:
        raise common.fail(str(exc)) from None
    console.print(f"proposed ({made.answer}): reply action {made.reply_action_id or '-'}, "
                  f"calendar action {made.event_action_id or '-'}; review with `mailmoat "
                  f"meeting show {message_id}`")


@meeting_app.command("approve")
def approve(message_id: int = typer.Argument(...)) -> None:
    """Approve every pending proposal of this meeting (each gets its own receipt)."""
    import getpass

    from mailmoat.act.service import ActionService
    from mailmoat.services.meeting_proposals import NotProposable, approve_meeting

    store = common.open_store()
    try:
        done = approve_meeting(store, ActionService(store.engine), message_id,
                               f"cli:{getpass.getuser()}")
    except NotProposable as exc:
        raise common.fail(str(exc)) from None
    for a in done:
        console.print(f"approved action {a['id']} {a['action']} sha256 "
                      f"{a['receipt']['payload_sha256'][:16]}")


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="calendar")
    root.add_typer(meeting_app, name="meeting")
