"""`mailmoat account ...` and `mailmoat sync`: live mailboxes from the command line."""

from __future__ import annotations

import os
import signal
import sys
import threading
from typing import TYPE_CHECKING, Any

import typer
from rich.table import Table

from mailmoat.core.lane_actions import LaneActions
from mailmoat.entrypoints.cli import common

if TYPE_CHECKING:
    from mailmoat.accounts.secrets import KeyRing
    from mailmoat.store.messages import Store

ENV_SECRET = "MAILMOAT_ACCOUNT_SECRET"

account_app = typer.Typer(help="Mail accounts: add, list, test, remove.", no_args_is_help=True)
console, err = common.console, common.err


def _fail(message: str, code: int = 2) -> typer.Exit:
    err.print(f"[red]error:[/red] {message}")
    return typer.Exit(code)


def _store() -> Store:
    return common.open_store()


def _ring() -> KeyRing:
    return common.key_ring()


def _read_secret(what: str, from_stdin: bool) -> str:
    if from_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    from_env = os.environ.get(ENV_SECRET)
    if from_env:
        return from_env
    return str(typer.prompt(what, hide_input=True))


# The SMTP side, shared by `account add` and `account smtp`.
SMTP_HOST = typer.Option(None, help="SMTP submission host (to send approved mail; logs in "
                         "with the same password/token)")
SMTP_PORT = typer.Option(None, help="default 587 (starttls) or 465 (implicit)")
SMTP_TLS = typer.Option("starttls", help="implicit | starttls | plain (loopback only)")
SMTP_LOGIN = typer.Option(True, "--smtp-login/--smtp-no-login",
                          help="AUTH as the account (off: a relay trusting you)")
FROM_ADDR = typer.Option(None, "--from", help="sender address (default: user)")
SENT_FOLDER = typer.Option("Sent", help="where copies of sent mail go")
SERVER_FILES_SENT = typer.Option(
    False, help="the server files sent mail in the Sent folder itself (Gmail, Outlook)")


def _submission(host: str, port: int | None, tls: str, login: bool, from_addr: str | None,
                sent_folder: str, server_files_sent: bool) -> Any:
    from mailmoat.accounts.registry import Submission

    return Submission(host=host, port=port or (465 if tls == "implicit" else 587), tls=tls,
                      from_addr=from_addr or "", login=login, sent_folder=sent_folder,
                      server_files_sent=server_files_sent)


@account_app.command("add")
def account_add(
    name: str = typer.Argument(..., help="a short name for the account"),
    host: str = typer.Option(..., help="IMAP server host name"),
    user: str = typer.Option(..., help="login name"),
    port: int | None = typer.Option(None, help="default 993 (implicit TLS) or 143"),
    tls: str = typer.Option("implicit", help="implicit | starttls | plain (loopback only)"),
    auth: str = typer.Option("password", help="password | xoauth2"),
    token_endpoint: str | None = typer.Option(None, help="xoauth2: the OAuth token URL"),
    client_id: str | None = typer.Option(None, help="xoauth2: the OAuth client id"),
    scope: str | None = typer.Option(None, help="xoauth2: scope to request"),
    folder: list[str] = typer.Option(["INBOX"], help="folders to sync (repeatable)"),
    backfill_days: int = typer.Option(30, help="first sync reaches back this many days (0: all)"),
    move: bool = typer.Option(False, "--move/--no-move",
                              help="opt in: file SILENT in Moat/Silent and INFO in Moat/Records"),
    secret_stdin: bool = typer.Option(False, "--secret-stdin",
                                      help=f"read the password/refresh token from stdin "
                                           f"(else ${ENV_SECRET}, else a hidden prompt)"),
    smtp_host: str | None = SMTP_HOST,
    smtp_port: int | None = SMTP_PORT,
    smtp_tls: str = SMTP_TLS,
    smtp_login: bool = SMTP_LOGIN,
    from_addr: str | None = FROM_ADDR,
    sent_folder: str = SENT_FOLDER,
    server_files_sent: bool = SERVER_FILES_SENT,
) -> None:
    """Add an account. The password (or refresh token) is sealed with AES-256-GCM."""
    from mailmoat.accounts.registry import AccountError, AccountSettings, add_account

    submission = None if smtp_host is None else _submission(
        smtp_host, smtp_port, smtp_tls, smtp_login, from_addr, sent_folder, server_files_sent)
    settings = AccountSettings(
        name=name, host=host, port=port or (993 if tls == "implicit" else 143), username=user,
        tls=tls, auth=auth, token_endpoint=token_endpoint, client_id=client_id, scope=scope,
        folders=tuple(folder), backfill_days=backfill_days,
        lane_actions=LaneActions.with_moves() if move else LaneActions(),
        submission=submission,
    )
    store, ring = _store(), _ring()
    label = "refresh token" if auth == "xoauth2" else "password"
    client_secret = os.environ.get("MAILMOAT_OAUTH_CLIENT_SECRET") if auth == "xoauth2" else None
    try:
        add_account(store, ring, settings, _read_secret(label, secret_stdin), client_secret)
    except AccountError as exc:
        raise _fail(str(exc)) from None
    console.print(f"added account [bold]{name}[/bold]; try it: mailmoat account test {name}")
    _show_to_the_only_user(store, name)


def _show_to_the_only_user(store: Any, name: str) -> None:
    """Single-user self-hosting: the one web user sees the new mailbox at once. With several
    users, who reads which mailbox is an explicit `mailmoat user grant`."""
    people = common.repos(store)
    users = people.users.names()
    if len(users) == 1:
        people.users.grant(users[0], name)
        console.print(f"web user {users[0]} may read {name}")
    elif users:
        console.print(f"grant it to a web user: mailmoat user grant USER {name}")


@account_app.command("list")
def account_list() -> None:
    """List accounts (never their secrets)."""
    from mailmoat.accounts.registry import list_accounts

    accounts = list_accounts(_store())
    if not accounts:
        console.print("no accounts; add one with: mailmoat account add")
        return
    table = Table("name", "server", "tls", "user", "auth", "folders", "smtp")
    for a in accounts:
        sub = a.submission
        table.add_row(a.name, f"{a.host}:{a.port}", a.tls, a.username, a.auth,
                      ", ".join(a.folders), f"{sub.host}:{sub.port} {sub.tls}" if sub else "-")
    console.print(table)


@account_app.command("test")
def account_test(name: str = typer.Argument(...)) -> None:
    """Connect and log in; say exactly which step fails (dns, tcp, tls, auth, capability)."""
    from mailmoat.accounts.oauth import TokenError
    from mailmoat.accounts.registry import AccountError, get_account
    from mailmoat.accounts.secrets import SecretKeyError
    from mailmoat.mail.imap import ConnectError, ServerFeatures
    from mailmoat.mail.runner import close, open_client

    store, ring = _store(), _ring()
    try:
        account = get_account(store, name)
        client = open_client(store, ring, account)
    except (AccountError, SecretKeyError) as exc:
        raise _fail(str(exc)) from None
    except TokenError as exc:
        raise _fail(f"auth: {exc}", 1) from None
    except ConnectError as exc:
        raise _fail(str(exc), 1) from None
    try:
        features = ServerFeatures.of(client)
        status = client.folder_status(account.folders[0], ["MESSAGES", "UIDVALIDITY"])
    finally:
        close(client)
    console.print(f"[green]ok[/green] {account.host}:{account.port} ({account.tls}): "
                  f"logged in as {account.username}; {account.folders[0]} holds "
                  f"{status[b'MESSAGES']} messages; server offers: "
                  f"{', '.join(features.names()) or 'no extensions'}")


@account_app.command("lane")
def account_lane(
    name: str = typer.Argument(...),
    lane: str = typer.Argument(..., help="PUSH, MEETING, QUEUE, INFO or SILENT"),
    keyword: str | None = typer.Option(None, help="keyword (Gmail: label) for this lane; "
                                                  "'-' for none"),
    folder: str | None = typer.Option(None, help="file this lane's mail in this folder; "
                                                 "'-' to leave it where it is"),
    mark_read: bool | None = typer.Option(None, "--mark-read/--no-mark-read",
                                          help="mark this lane's mail read on the server"),
) -> None:
    """Show or change what one lane does on this account's server (reversible actions only).
    Applies to messages as they are decided or change lane from now on."""
    from dataclasses import replace

    from mailmoat.accounts.registry import get_account, update_lane_actions
    from mailmoat.core.lane_actions import LaneActions
    from mailmoat.core.lanes import Lane

    store = _store()
    try:
        which = Lane(lane.upper())
        account = get_account(store, name)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    current = account.lane_actions.for_lane(which)
    changed = current
    if keyword is not None:
        changed = replace(changed, keyword=None if keyword == "-" else keyword)
    if folder is not None:
        changed = replace(changed, folder=None if folder == "-" else folder)
    if mark_read is not None:
        changed = replace(changed, mark_read=mark_read)
    if changed != current:
        lanes = {**account.lane_actions.lanes, which: changed}
        update_lane_actions(store, name, LaneActions(lanes))
    console.print(f"{name} {which}: keyword {changed.keyword or '-'}, "
                  f"folder {changed.folder or '- (stays put)'}, "
                  f"mark read {'yes' if changed.mark_read else 'no'}")


@account_app.command("smtp")
def account_smtp(
    name: str = typer.Argument(..., help="the account"),
    smtp_host: str | None = SMTP_HOST,
    smtp_port: int | None = SMTP_PORT,
    smtp_tls: str = SMTP_TLS,
    smtp_login: bool = SMTP_LOGIN,
    from_addr: str | None = FROM_ADDR,
    sent_folder: str = SENT_FOLDER,
    server_files_sent: bool = SERVER_FILES_SENT,
    off: bool = typer.Option(False, "--off", help="stop sending from this account"),
) -> None:
    """Give an existing account its SMTP side, so approved mail from it can be sent (or
    --off: stop sending from it). It logs in with the account's own password or token."""
    from mailmoat.accounts.registry import AccountError, set_submission

    if off == (smtp_host is not None):
        raise _fail("give --smtp-host HOST, or --off to stop sending from this account")
    submission = None if smtp_host is None else _submission(
        smtp_host, smtp_port, smtp_tls, smtp_login, from_addr, sent_folder, server_files_sent)
    try:
        set_submission(_store(), name, submission)
    except AccountError as exc:
        raise _fail(str(exc)) from None
    if submission is None:
        console.print(f"{name}: sending off; approved mail from it waits until SMTP is set")
    else:
        console.print(f"{name}: sends through {submission.host}:{submission.port} "
                      f"({submission.tls}); queued approved mail leaves on the next "
                      f"`mailmoat actions run` or sync pass")


@account_app.command("remove")
def account_remove(name: str = typer.Argument(...)) -> None:
    """Forget an account and its secrets. Stored mail stays; nothing changes on the server."""
    from mailmoat.accounts.registry import AccountError, remove_account

    try:
        remove_account(_store(), name)
    except AccountError as exc:
        raise _fail(str(exc)) from None
    console.print(f"removed account {name}")


@account_app.command("rotate-key")
def account_rotate_key() -> None:
    """Seal every stored secret with a new key, then retire the old one."""
    from mailmoat.accounts.registry import reseal_all
    from mailmoat.accounts.secrets import ENV_KEY, SecretKeyError, add_primary_key, drop_old_keys

    store, ring = _store(), _ring()
    from_env = ring.path is None
    try:
        if from_env and len(ring.keys) < 2:
            raise SecretKeyError(
                f"the keys come from {ENV_KEY}: set it to new,old (new key first) and run "
                "this again; then drop the old key from it")
        if not from_env:
            ring = add_primary_key(ring)
        count = reseal_all(store, ring)
        if not from_env:
            drop_old_keys(ring)
    except SecretKeyError as exc:
        raise _fail(str(exc)) from None
    console.print(f"re-sealed {count} account(s) with key {ring.primary_id}")
    if from_env:
        console.print(f"now remove the old key(s) from {ENV_KEY}")


def accounts_configured() -> bool:
    return bool(common.account_names(strict=False))


def web_account() -> str:
    """The mailbox the web page shows: the first account, or the demo/imported mail."""
    return next(iter(common.account_names(strict=False)), "local")


def _summary(name: str, report: Any) -> str:
    extra = f", resynced {', '.join(report.resynced)}" if report.resynced else ""
    if report.decided_late:  # stored mail that had no decision (Store.undecided)
        extra += f", decided late {report.decided_late}"
    return (f"{name}: fetched {report.fetched}, new {report.created}, "
            f"known {report.already_known}, corrections {report.corrections}, "
            f"server actions {report.actions_done}{extra}")


def sync_command(
    once: bool = typer.Option(False, "--once", help="one pass and exit (for scripts and cron)"),
    account: list[str] = typer.Option([], help="only these accounts (repeatable)"),
    poll: float = typer.Option(300.0, help="seconds between polls when the server has no IDLE"),
) -> None:
    """Sync mail accounts: once, or for good with IMAP IDLE. Every pass notifies, runs the
    AUTO sweep and drains the outbox (services/sync_pass.py)."""
    from mailmoat.accounts.oauth import TokenError
    from mailmoat.accounts.registry import list_accounts
    from mailmoat.accounts.secrets import SecretKeyError
    from mailmoat.mail.imap import ConnectError
    from mailmoat.services.sync_pass import SyncPass

    store, ring = common.open_store(with_scorers=True), _ring()
    passes = SyncPass.on(store, ring)
    accounts = [a for a in list_accounts(store) if not account or a.name in account]
    if not accounts:
        raise _fail("no accounts to sync; add one with: mailmoat account add")
    if once:
        failed = False
        for a in accounts:
            with common.progress(f"{a.name}: backfill") as meter:

                def report_progress(folder: str, done: int, total: int, meter: Any = meter,
                                    name: str = a.name) -> None:
                    meter.update(description=f"{name}/{folder}", completed=done, total=total)

                try:
                    report = passes.run(a, progress=report_progress)
                except (ConnectError, TokenError, SecretKeyError) as exc:
                    err.print(f"[red]{a.name}:[/red] {exc}")
                    failed = True
                    continue
            console.print(_summary(a.name, report))
        if failed:
            raise typer.Exit(1)
        return
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    threads = [threading.Thread(target=passes.watch, args=(a, stop),
                                kwargs={"poll_seconds": poll}, daemon=True, name=f"sync-{a.name}")
               for a in accounts]
    for t in threads:
        t.start()
    console.print(f"syncing {len(accounts)} account(s) with IDLE; Ctrl-C stops")
    try:
        while not stop.wait(1.0):
            pass
    except KeyboardInterrupt:
        stop.set()
    for t in threads:
        t.join(timeout=5)


def start_background_sync(workers: int = 2, poll: float = 300.0) -> Any:
    """For `mailmoat up`: huey workers in this process, and one IDLE watcher per account
    that queues a sync job whenever the server reports activity. Returns a stop function."""
    from mailmoat.accounts.registry import AccountSettings, list_accounts
    from mailmoat.entrypoints.jobs import make_huey, register, start_workers
    from mailmoat.mail.runner import run_forever

    store, ring = _store(), _ring()
    jobs = register(make_huey())
    accounts = list_accounts(store)
    consumer = start_workers(jobs.huey, workers, outbox=jobs.run_outbox)
    stop = threading.Event()

    def watcher(a: AccountSettings) -> None:
        run_forever(store, ring, a, stop, on_activity=lambda: jobs.sync_account(a.name),
                    poll_seconds=poll)

    threads = [threading.Thread(target=watcher, args=(a,), daemon=True, name=f"idle-{a.name}")
               for a in accounts]
    for t in threads:
        t.start()
    console.print(f"syncing {len(threads)} account(s) in the background "
                  f"({workers} workers, IDLE)")

    def shutdown() -> None:
        stop.set()
        for t in threads:
            t.join(timeout=5)
        consumer.stop(graceful=True)

    return shutdown


def worker_command(
    workers: int = typer.Option(2, help="worker threads in this process"),
    watch: int = typer.Option(0, help="with a broker: also watch up to this many accounts "
                                      "with IDLE (one connection each), sharded by leases"),
    poll: float = typer.Option(300.0, help="seconds between polls where IDLE is missing"),
    grace: float = typer.Option(120.0, help="on SIGTERM: seconds to finish the jobs in hand"),
) -> None:
    """Run background job workers until stopped. With MAILMOAT_BROKER_URL (RabbitMQ) any
    number of workers on any machines share one queue and one database; without it, huey
    on the local SQLite queue file (the embedded default)."""
    import os

    from mailmoat.entrypoints import queue as mq

    if os.environ.get(mq.ENV_BROKER):
        try:
            q = mq.declare(mq.make_broker())
        except mq.QueueConfigError as exc:
            err.print(f"[red]error:[/red] {exc}")
            raise typer.Exit(2) from exc
        stop = mq.stop_on_signals()
        mq.run_worker(q, workers, stop, grace, watch=watch, poll_seconds=poll,
                      on_ready=lambda: console.print(
                          f"mailmoat worker: {workers} thread(s) on queue {q.name} "
                          f"(RabbitMQ), watching up to {watch} account(s)"))
        console.print("mailmoat worker: stopped")
        return
    from mailmoat.entrypoints.jobs import make_huey, register

    jobs = register(make_huey())
    console.print(f"mailmoat worker: {workers} thread(s) on queue {jobs.huey.name}")
    consumer = jobs.huey.create_consumer(workers=workers, worker_type="thread", periodic=True)
    jobs.run_outbox()  # approvals made while no worker ran leave now, then every minute
    consumer.run()


def register(app: typer.Typer) -> None:
    app.add_typer(account_app, name="account")
    app.command("sync")(sync_command)
    app.command("worker")(worker_command)


app = account_app  # the group as main.py registers it
