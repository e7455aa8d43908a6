"""The bodies of the background jobs, shared by every job runner (huey in the embedded
default, Dramatiq on RabbitMQ past one machine: entrypoints/jobs.py, entrypoints/queue.py).

Each body is safe to run twice and safe to run on several workers at once: the sync of one
account runs under its lease (services/leases.py), the outbox under its row claims, the
notifier under its notification log. A runner only has to deliver each job at least once.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Any

from mailmoat.accounts.registry import get_account, list_accounts
from mailmoat.core.leases import sync_lease
from mailmoat.mail.sync import Progress
from mailmoat.services.bootstrap import key_ring, model_scorers, open_configured_store
from mailmoat.services.leases import LeaseLost, abandoned, hold_or_ask, holder_name, try_hold
from mailmoat.services.outbox import worker_for
from mailmoat.services.sync_pass import SyncPass
from mailmoat.store.db import default_url
from mailmoat.store.messages import Store

log = logging.getLogger(__name__)

_stores: dict[str, Store] = {}
_stores_lock = threading.Lock()


def store_for(url: str | None) -> Store:
    """One store per database per worker process: opening migrates, and Alembic's
    migration context is process-global, so it must not run in several threads at once."""
    with _stores_lock:
        key = url or default_url()  # the configured database now, not whichever came first
        if key not in _stores:
            _stores[key] = open_configured_store(url)
        return _stores[key]


@dataclass(frozen=True, slots=True)
class SyncResult:
    account: str
    busy: bool  # another live holder syncs it and was asked for one more pass
    passes: int = 0
    created: int = 0
    fetched: int = 0
    corrections: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {"account": self.account, "busy": self.busy, "passes": self.passes,
                "created": self.created, "fetched": self.fetched,
                "corrections": self.corrections}


def sync_account(store: Store, account: str, holder: str | None = None,
                 ask: bool = True, progress: Progress | None = None) -> SyncResult:
    """Sync `account` under its lease: sync, notify, AUTO sweep, outbox (the same pass as
    `mailmoat sync`), once more for every pass asked for meanwhile. Raises LeaseLost when
    the lease ran out under it (the pass stops at its next progress checkpoint).

    `ask`: when the lease is live, ask its holder for one more pass (mail arrived: IDLE,
    a queued job). A periodic poll passes False: a pass running now satisfies it, and asking
    would keep the holder (and its worker thread) on this account for good.

    `progress`: told (folder, done, total) as the pass goes (the web's first-sync view)."""
    name = sync_lease(account)
    who = holder or holder_name("sync")
    held = hold_or_ask(store, name, who) if ask else try_hold(store, name, who)
    if held is None:
        return SyncResult(account, busy=True)
    passes = created = fetched = corrections = 0

    def step(folder: str, done: int, total: int) -> None:
        held.check()
        if progress is not None:
            progress(folder, done, total)

    try:
        settings = get_account(store, account)
        runner = SyncPass.on(store, key_ring())
        while True:
            report = runner.run(settings, progress=step)
            held.check()
            passes += 1
            created += report.created
            fetched += report.fetched
            corrections += report.corrections
            if not held.finish():
                break
    except LeaseLost:
        raise
    except BaseException:
        held.release()  # hand it back now: a retry elsewhere need not wait for the expiry
        raise
    return SyncResult(account, False, passes, created, fetched, corrections)


def abandoned_syncs(store: Store) -> list[str]:
    """Accounts whose sync holder died mid-pass: queue them again."""
    return [name.split(":", 1)[1] for name in abandoned(store, "sync:", clock=time.time)]


def run_outbox(store: Store, worker: str) -> list[str]:
    """Drain the outbox once and apply approved reversible actions; row claims keep
    concurrent drains apart."""
    running = worker_for(store, key_ring(), worker)
    return [f"{o.outbox_id} {o.state}" for o in running.run_pass()]


def notify(store: Store, account: str, base_url: str) -> dict[str, int]:
    """Digests and "later" links coming due for one account (notify/dispatch.py)."""
    from mailmoat.notify.dispatch import notify_account
    from mailmoat.store.people import WebStore

    report = notify_account(WebStore(store, sealer=key_ring()), account, base_url)
    return {"sent": len(report.sent), "held": len(report.held), "digest": len(report.digest)}


def heal(store: Store) -> int:
    """Re-judge degraded decisions when a model is configured; how many were healed."""
    from mailmoat.judge.heal import heal as run_heal

    models = model_scorers(store.scorers)
    if not models:
        return 0
    return run_heal(store, models).rejudged


def account_names(store: Store) -> list[str]:
    return [a.name for a in list_accounts(store)]
