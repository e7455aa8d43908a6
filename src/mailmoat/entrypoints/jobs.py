"""Background jobs on huey: SQLite storage in the embedded default, Redis when configured.

A sync job is one pass over one account (services/sync_pass.py: fetch, classify, store, lane
actions, notify, AUTO sweep, outbox); the outbox job drains approved sends, at start and every
minute in `mailmoat up` and `mailmoat worker`. Jobs for
different accounts run on as many workers as there are; a per-account lock keeps two
workers off the same mailbox (the database would keep them correct anyway: messages are
unique per content hash and locations per UID, so the lock only saves work). A job that
finds the lock taken runs again shortly after, so mail that arrived during the other pass
is fetched.
"""

from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from huey import Huey, RedisHuey, SqliteHuey, crontab
from huey.consumer import Consumer
from huey.exceptions import RetryTask, TaskLockedException
from platformdirs import user_data_dir

from mailmoat.accounts.registry import get_account
from mailmoat.services.bootstrap import key_ring, open_configured_store
from mailmoat.services.outbox import build_worker
from mailmoat.services.sync_pass import SyncPass

log = logging.getLogger(__name__)

ENV_REDIS = "MAILMOAT_REDIS_URL"
ENV_QUEUE = "MAILMOAT_QUEUE_NAME"
LOCKED_RETRY_SECONDS = 1.0  # a sync job that finds its account locked runs again this soon


def make_huey(name: str | None = None, redis_url: str | None = None,
              sqlite_path: Path | None = None) -> Huey:
    name = name or os.environ.get(ENV_QUEUE, "mailmoat")
    redis_url = redis_url if redis_url is not None else os.environ.get(ENV_REDIS)
    if redis_url:
        return RedisHuey(name, url=redis_url)
    if sqlite_path is None:
        data = Path(user_data_dir("mailmoat", appauthor=False))
        data.mkdir(parents=True, exist_ok=True)
        sqlite_path = data / "jobs.db"
    return SqliteHuey(name, filename=str(sqlite_path))


OUTBOX_EVERY = crontab()  # every minute: approvals made between syncs still leave promptly


@dataclass(frozen=True)
class Jobs:
    huey: Huey
    sync_account: Any  # huey TaskWrapper: sync_account(account_name, database_url) -> dict
    run_outbox: Any  # huey TaskWrapper: run_outbox(database_url) -> ["<outbox id> <state>"]


_stores: dict[str, Any] = {}
_stores_lock = threading.Lock()


def _store(url: str | None) -> Any:
    """One store per database per worker process: opening migrates, and Alembic's
    migration context is process-global, so it must not run in several threads at once."""
    with _stores_lock:
        key = url or ""
        if key not in _stores:
            _stores[key] = open_configured_store(url)
        return _stores[key]


def register(huey: Huey) -> Jobs:
    """Declare mailmoat's tasks on `huey` (one set per queue, so tests can run both): the
    sync pass per account, and the outbox (also every minute, for consumers started with
    periodic tasks on: `mailmoat up`, `mailmoat worker`)."""

    @huey.task(retries=2, retry_delay=5)
    def sync_account(account: str, database_url: str | None = None) -> dict[str, Any]:
        try:
            with huey.lock_task(account_lock(account)):
                store = _store(database_url)
                # Sync, notify, AUTO sweep, outbox: the same pass as `mailmoat sync`.
                report = SyncPass.on(store, key_ring()).run(get_account(store, account))
                return {"account": account, "worker_pid": os.getpid(), "created": report.created,
                        "fetched": report.fetched, "corrections": report.corrections}
        except TaskLockedException:
            # Another worker is syncing this account right now. It may have searched for
            # new mail already, and this job was queued because more arrived (the IDLE
            # watcher wakes during that pass): run once the lock is free, never drop it.
            raise RetryTask(delay=LOCKED_RETRY_SECONDS) from None

    @huey.task()
    def run_outbox(database_url: str | None = None) -> list[str]:
        """Drain the outbox once and apply approved reversible actions. Several workers may
        run it at once; the row claims keep them apart, so it needs no queue lock: the
        exactly-once guarantee lives in the database, not in the queue."""
        running = build_worker(database_url, f"huey-{id(huey):x}")
        return [f"{o.outbox_id} {o.state}" for o in running.run_pass()]

    @huey.periodic_task(OUTBOX_EVERY)
    def outbox_tick() -> None:
        run_outbox.call_local()

    return Jobs(huey, sync_account, run_outbox)


class EmbeddedConsumer(Consumer):
    """A huey consumer run inside another process (`mailmoat up`, tests): worker threads
    only, and the host process keeps its own signal handlers."""

    def _set_signal_handlers(self) -> None:
        return None


def account_lock(account: str) -> str:
    """The huey lock a sync job holds while it syncs `account`."""
    return f"sync:{account}"


def stale_lock_options(accounts: list[str]) -> dict[str, Any]:
    """Consumer options that clear the accounts' locks at start. A worker killed during a
    pass leaves its lock behind, and every later job for that account would wait on it
    for good. Clearing a lock another live worker holds costs at most one pass done
    twice (the store keeps that correct)."""
    return {"flush_locks": True, "extra_locks": ",".join(account_lock(a) for a in accounts)}


def start_workers(huey: Huey, workers: int = 2, accounts: list[str] | None = None,
                  outbox: Any = None) -> EmbeddedConsumer:
    """Worker threads in this process. With `outbox` (Jobs.run_outbox) the outbox is drained
    at start and every minute after (periodic tasks on), as `mailmoat up` runs it."""
    consumer = EmbeddedConsumer(huey, workers=workers, worker_type="thread",
                                periodic=outbox is not None, check_worker_health=False,
                                **stale_lock_options(accounts or []))
    consumer.start()
    if outbox is not None:
        outbox()
    return consumer
