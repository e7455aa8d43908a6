"""`mailmoat scheduler`: queue the periodic work on RabbitMQ (entrypoints/queue.py)."""

from __future__ import annotations

import os

import typer

from mailmoat.entrypoints.cli import common

console, err = common.console, common.err


def scheduler_command(
    sync_every: float = typer.Option(300.0, help="seconds between syncs of every account "
                                                 "(the polling safety net beside IDLE)"),
    outbox_every: float = typer.Option(60.0, help="seconds between outbox drains"),
    notify_every: float = typer.Option(300.0, help="seconds between digest/'later' checks"),
    heal_every: float = typer.Option(300.0, help="seconds between heal sweeps"),
    calendar_every: float | None = typer.Option(
        None, help="seconds between syncs of the linked calendars (default "
                   "MAILMOAT_CALENDAR_SYNC_SECONDS or 900; 0: off)"),
    base_url: str = typer.Option("", help="where links in notifications point "
                                          "(default MAILMOAT_BASE_URL or http://127.0.0.1:8025)"),
) -> None:
    """Queue periodic jobs (sync, abandoned-lease sweep, outbox, notifications, heal,
    calendars) until stopped; needs MAILMOAT_BROKER_URL. Run one or more: one acts, the
    others stand by."""
    from mailmoat.entrypoints import queue as mq
    from mailmoat.services.jobs import calendar_every as configured_calendar_every

    try:
        q = mq.declare(mq.make_broker())
    except mq.QueueConfigError as exc:
        err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from exc
    stop = mq.stop_on_signals()
    url = base_url or os.environ.get(mq.ENV_BASE_URL, "http://127.0.0.1:8025")
    try:
        calendars = (configured_calendar_every() if calendar_every is None
                     else calendar_every)
    except ValueError as exc:
        err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from exc
    intervals = mq.Intervals(sync=sync_every, outbox=outbox_every, notify=notify_every,
                             heal=heal_every, calendar=calendars)
    mq.run_scheduler(q, stop, intervals, url, on_ready=lambda: console.print(
        f"mailmoat scheduler: queue {q.name}, every {intervals.as_dict()}"))
    console.print("mailmoat scheduler: stopped")


def register(app: typer.Typer) -> None:
    app.command("scheduler")(scheduler_command)
