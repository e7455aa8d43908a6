"""Background jobs in the embedded default: huey on a SQLite file, worker threads inside
`mailmoat up`. One process, no broker. Past one machine the same job bodies run on Dramatiq
with RabbitMQ instead (entrypoints/queue.py; docs/deploy.md says why).

The bodies live in services/jobs.py: a sync job syncs one account under its lease in the
database (services/leases.py), so two workers never sync one account at once and a job
that finds the lease live asks its holder for one more pass instead of waiting; the outbox
job drains approved sends, at start and every minute. Every minute the sweep queues the
accounts whose holder died mid-pass (their lease expired without a release), and the linked
calendars whose last sync is older than their interval are synced.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from huey import Huey, SqliteHuey, crontab
from huey.consumer import Consumer
from platformdirs import user_data_dir

from mailmoat.services import jobs as bodies

log = logging.getLogger(__name__)

ENV_QUEUE = "MAILMOAT_QUEUE_NAME"


def make_huey(name: str | None = None, sqlite_path: Path | None = None) -> Huey:
    name = name or os.environ.get(ENV_QUEUE, "mailmoat")
    if sqlite_path is None:
        data = Path(user_data_dir("mailmoat", appauthor=False))
        data.mkdir(parents=True, exist_ok=True)
        sqlite_path = data / "jobs.db"
    return SqliteHuey(name, filename=str(sqlite_path))


OUTBOX_EVERY = crontab()  # every minute: approvals made between syncs still leave promptly
# Every minute the calendars whose last sync is older than MAILMOAT_CALENDAR_SYNC_SECONDS
# (default 900) are synced.
CALENDAR_EVERY = crontab()
SWEEP_EVERY = crontab()  # every minute: accounts whose sync holder died are queued again
DIGEST_EVERY = crontab(minute="*/5")  # daily digests coming due (each goes once a day)


@dataclass(frozen=True)
class Jobs:
    huey: Huey
    sync_account: Any  # huey TaskWrapper: sync_account(account_name, database_url) -> dict
    run_outbox: Any  # huey TaskWrapper: run_outbox(database_url) -> ["<outbox id> <state>"]
    sweep: Any  # huey TaskWrapper: sweep(database_url) -> [account queued again]
    sync_calendars: Any  # huey TaskWrapper: sync_calendars(database_url) -> ["<name> ..."]


def register(huey: Huey, database_url: str | None = None,
             calendar_every: float | None = None) -> Jobs:
    """Declare mailmoat's tasks on `huey`: the sync pass per account under its lease, the
    outbox (also every minute), the sweep for abandoned leases (every minute), the
    calendar sync (checked every minute: each calendar every `calendar_every` seconds,
    default MAILMOAT_CALENDAR_SYNC_SECONDS or 900; 0 switches it off) and the daily digests
    coming due (every five minutes)."""
    calendar_seconds = bodies.calendar_every() if calendar_every is None else calendar_every

    @huey.task(retries=2, retry_delay=5)
    def sync_account(account: str, database_url: str | None = None) -> dict[str, Any]:
        result = bodies.sync_account(bodies.store_for(database_url), account)
        return {**result.as_dict(), "worker_pid": os.getpid()}

    @huey.task()
    def run_outbox(database_url: str | None = None) -> list[str]:
        return bodies.run_outbox(bodies.store_for(database_url), f"huey-{os.getpid()}")

    @huey.task()
    def sweep(database_url: str | None = None) -> list[str]:
        names = bodies.abandoned_syncs(bodies.store_for(database_url))
        for name in names:
            sync_account(name, database_url)
        return names

    @huey.task()
    def sync_calendars(database_url: str | None = None) -> list[str]:
        return bodies.sync_calendars(bodies.store_for(database_url), calendar_seconds)

    @huey.periodic_task(CALENDAR_EVERY)
    def calendar_tick() -> None:
        if calendar_seconds > 0:
            sync_calendars.call_local(database_url)

    @huey.periodic_task(OUTBOX_EVERY)
    def outbox_tick() -> None:
        run_outbox.call_local(database_url)

    @huey.periodic_task(SWEEP_EVERY)
    def sweep_tick() -> None:
        sweep.call_local(database_url)

    @huey.periodic_task(DIGEST_EVERY)
    def digest_tick() -> list[str]:
        from mailmoat.notify.hook import base_url

        return bodies.daily_digests(bodies.store_for(database_url), base_url())

    return Jobs(huey, sync_account, run_outbox, sweep, sync_calendars)


class EmbeddedConsumer(Consumer):
    """A huey consumer run inside another process (`mailmoat up`, tests): worker threads
    only, and the host process keeps its own signal handlers."""

    def _set_signal_handlers(self) -> None:
        return None


def start_workers(huey: Huey, workers: int = 2, outbox: Any = None) -> EmbeddedConsumer:
    """Worker threads in this process. With `outbox` (Jobs.run_outbox) the outbox is drained
    at start and every minute after (periodic tasks on), as `mailmoat up` runs it. No lock
    is cleared at start: leases expire on their own, and a live one is never broken."""
    consumer = EmbeddedConsumer(huey, workers=workers, worker_type="thread",
                                periodic=outbox is not None, check_worker_health=False)
    consumer.start()
    if outbox is not None:
        outbox()
    return consumer
