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
    """Digests and "later" links coming due for one account (notify/dispatch.py), and its
    daily digest when that is due (services/digest.py)."""
    from mailmoat.notify.dispatch import notify_account
    from mailmoat.services.digest import send_digest
    from mailmoat.store.repos import Repos

    report = notify_account(Repos(store, sealer=key_ring()), account, base_url)
    daily = send_digest(store, account, base_url)
    return {"sent": len(report.sent), "held": len(report.held), "digest": len(report.digest),
            "daily": int(daily.sent)}


def daily_digests(store: Store, base_url: str) -> list[str]:
    """The embedded schedule hook: every account's daily digest that is due, once a day."""
    from mailmoat.services.digest import send_due_digests

    return [o.account for o in send_due_digests(store, base_url) if o.sent]


def heal(store: Store) -> int:
    """Re-judge degraded decisions when a model is configured; how many were healed."""
    from mailmoat.judge.heal import heal as run_heal

    models = model_scorers(store.scorers)
    if not models:
        return 0
    return run_heal(store, models).rejudged


ENV_CALENDAR_EVERY = "MAILMOAT_CALENDAR_SYNC_SECONDS"
DEFAULT_CALENDAR_EVERY = 900.0


def calendar_every() -> float:
    """Seconds between syncs of each linked calendar (MAILMOAT_CALENDAR_SYNC_SECONDS,
    default 900); 0 switches the scheduled calendar sync off."""
    import os

    raw = os.environ.get(ENV_CALENDAR_EVERY, "").strip()
    try:
        return float(raw) if raw else DEFAULT_CALENDAR_EVERY
    except ValueError:
        raise ValueError(f"{ENV_CALENDAR_EVERY} must be a number of seconds") from None


def sync_calendars(store: Store, every: float | None = None,
                   clock: Any = time.time) -> list[str]:
    """Sync the linked calendars: with `every`, only those whose last sync is at least that
    many seconds old (0 or less: none); without, all of them. Each runs under its lease
    `calendar:<name>` (a calendar synced elsewhere right now is skipped), and a calendar
    that fails is reported ("<name> failed: ...") and left for the next run."""
    from mailmoat.calendar.registry import list_calendars
    from mailmoat.calendar.sync import sync_calendar
    from mailmoat.core.schedule import due
    from mailmoat.store.calendar_store import calendar_row

    now = clock()
    out: list[str] = []
    for cal in list_calendars(store):
        if every is not None:
            row = calendar_row(store, cal.name)
            last = row.last_sync_at if row is not None else None
            seen = {} if last is None else {cal.name: last.timestamp()}
            if not due({cal.name: every}, seen, now):
                continue
        held = try_hold(store, f"calendar:{cal.name}", holder_name("calendar"))
        if held is None:
            continue
        try:
            report = sync_calendar(store, key_ring(), cal.name)
            out.append(f"{cal.name} {report.written} written {report.deleted} removed")
        except Exception as exc:  # unreachable, refused: the next run tries again
            log.warning("calendar %s not synced: %s", cal.name, exc)
            out.append(f"{cal.name} failed: {str(exc)[:200]}")
        finally:
            held.release()
    return out


def account_names(store: Store) -> list[str]:
    return [a.name for a in list_accounts(store)]
