"""`mailmoat notify run`: notify fresh PUSH/MEETING mail once (for cron or after a sync)."""

from __future__ import annotations

import typer

from mailmoat.entrypoints.cli import common

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


app = notify_app  # the group as main.py registers it
