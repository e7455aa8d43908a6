"""`mailmoat notify run`: notify fresh PUSH/MEETING mail once (for cron or after a sync);
`mailmoat notify digest`: the daily digest (print, send once, schedule)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from mailmoat.entrypoints.cli import common

if TYPE_CHECKING:  # the store loads only when a command runs (CLI start-up)
    from mailmoat.store.messages import Store

notify_app = typer.Typer(help="Notifications: Apprise URLs and Web Push.", no_args_is_help=True)
console = common.console


@notify_app.command("run")
def run(
    account: str = typer.Option("local", help="the mail account to notify for"),
    base_url: str = typer.Option("http://127.0.0.1:8025",
                                 help="where links in notifications point"),
) -> None:
    """Send what the rules allow now, hold the rest for the digest; safe to run often."""
    from mailmoat.notify.dispatch import notify_account

    report = notify_account(common.repos(), account, base_url)
    console.print(f"sent {len(report.sent)}, held {len(report.held)}, "
                  f"in digest {len(report.digest)}, skipped {len(report.skipped)}")


@notify_app.command("digest")
def digest(
    account: str = typer.Option("local", help="the mail account"),
    send: bool = typer.Option(False, "--send", help="send it now through the account's "
                              "notification channels (once a day; the schedule skips it then)"),
    base_url: str | None = typer.Option(None, help="where its links point (default: "
                                        "MAILMOAT_BASE_URL, else http://127.0.0.1:8025)"),
    at: int | None = typer.Option(None, "--at", min=0, max=23, help="send it every day from "
                                  "this local hour on (the account's time zone)"),
    off: bool = typer.Option(False, "--off", help="stop sending it every day (the default)"),
) -> None:
    """Print the daily digest for the last 24 hours (approvals waiting, what was filed,
    how much was silenced), or --send it. Scheduled sending is off until --at sets an hour."""
    from mailmoat.notify.hook import base_url as default_base_url
    from mailmoat.services.digest import compose, send_digest

    store = common.open_store()
    if at is not None or off:
        _schedule(store, account, None if off else at)
        return
    url = base_url or default_base_url()
    if not send:
        note = compose(store, account, url)
        if note is None:
            console.print("nothing to say: no approval waiting and no new mail in the last "
                          "24 hours (no digest would be sent)")
            return
        typer.echo(note.title)
        typer.echo("")
        typer.echo(note.body)
        return
    outcome = send_digest(store, account, url, scheduled=False)
    if outcome.sent:
        console.print(f"sent the daily digest for {account}")
        return
    console.print(f"not sent: {outcome.why}", soft_wrap=True)
    if outcome.why.startswith("no "):
        raise typer.Exit(1)


def _schedule(store: Store, account: str, hour: int | None) -> None:
    from mailmoat.notify.settings import AccountNotifySettings

    people = common.repos(store)
    settings = AccountNotifySettings.load(people.settings.get(account))
    notify = settings.notify.model_copy(update={"daily_digest_hour": hour})
    people.settings.save(account, settings.model_copy(update={"notify": notify}).model_dump(
        mode="json"))
    console.print(f"{account}: daily digest off" if hour is None else
                  f"{account}: daily digest every day from {hour:02d}:00 "
                  f"{notify.timezone}, through its notification channels")


app = notify_app  # the group as main.py registers it
