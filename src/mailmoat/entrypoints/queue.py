"""Past one machine: the background jobs on Dramatiq with RabbitMQ (docs/deploy.md says
why), any number of `mailmoat worker` processes and one active `mailmoat scheduler`.

RabbitMQ acknowledges a job only after it ran: a worker killed mid-job has its job
delivered again to another worker. Failed jobs retry with exponential backoff. The job
bodies are services/jobs.py, the same ones the embedded huey path runs; exclusivity per
account comes from leases in the database (services/leases.py), not from the queue.

The scheduler queues the periodic work: a sync of every account (the polling safety net;
IDLE watchers in the workers queue syncs as mail arrives), the sweep that re-queues accounts
whose sync holder died, the outbox, notifications (digests, "later" links coming due), the
heal sweep and the sync of the linked calendars. Several schedulers may run; the
`scheduler` lease lets one act at a time.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from queue import Empty
from queue import Queue as Queue_
from typing import Any

import dramatiq
from dramatiq.brokers.rabbitmq import RabbitmqBroker

from mailmoat.core.leases import SWEEP_SECONDS
from mailmoat.core.schedule import due
from mailmoat.services import jobs as bodies
from mailmoat.services.leases import Held, LeaseLost, holder_name, try_hold

log = logging.getLogger(__name__)

ENV_BROKER = "MAILMOAT_BROKER_URL"
ENV_QUEUE = "MAILMOAT_QUEUE_NAME"
ENV_BASE_URL = "MAILMOAT_BASE_URL"
RETRIES: dict[str, Any] = {"max_retries": 8, "min_backoff": 1_000, "max_backoff": 60_000}
# A first sync of a large mailbox takes long; the lease, not a time limit, guards it.
SYNC_TIME_LIMIT_MS = 6 * 3600 * 1000


def resume_queue(name: str) -> str:
    return f"{name}-resume"


class QueueConfigError(ValueError):
    """The broker is not configured or not reachable; says what to set."""


def make_broker(url: str | None = None) -> RabbitmqBroker:
    url = url or os.environ.get(ENV_BROKER, "")
    if not url.startswith(("amqp://", "amqps://")):
        raise QueueConfigError(f"set {ENV_BROKER} to the RabbitMQ URL "
                               "(amqp://user:password@host:5672/vhost)")
    # confirm_delivery: an enqueue returns only once RabbitMQ has the message.
    return RabbitmqBroker(url=url, confirm_delivery=True)


@dataclass(frozen=True)
class Queue:
    broker: RabbitmqBroker
    name: str
    sync_account: Any  # dramatiq Actor: sync_account(account, ask=True)
    resume: Any  # dramatiq Actor on the resume queue: resume(account), an abandoned sync
    run_outbox: Any  # dramatiq Actor: run_outbox()
    notify: Any  # dramatiq Actor: notify(account, base_url)
    heal: Any  # dramatiq Actor: heal()
    sync_calendars: Any  # dramatiq Actor: sync_calendars(), every linked calendar


def declare(broker: RabbitmqBroker, name: str | None = None,
            database_url: str | None = None) -> Queue:
    """mailmoat's actors on `broker`, on queue `name` (default MAILMOAT_QUEUE_NAME or
    "mailmoat"). Workers and the scheduler must use the same name."""
    name = name or os.environ.get(ENV_QUEUE, "mailmoat")

    def actor(fn: Callable[..., Any], **options: Any) -> Any:
        return dramatiq.actor(broker=broker, queue_name=name,
                              actor_name=f"{name}.{fn.__name__}", **RETRIES, **options)(fn)

    def sync_account(account: str, ask: bool = True) -> dict[str, Any]:
        try:
            result = bodies.sync_account(bodies.store_for(database_url), account, ask=ask)
        except LeaseLost:
            log.warning("%s: the sync lease ran out under this pass; retrying", account)
            raise
        return {**result.as_dict(), "worker_pid": os.getpid()}

    def run_outbox() -> list[str]:
        return bodies.run_outbox(bodies.store_for(database_url), holder_name("outbox"))

    def notify(account: str, base_url: str) -> dict[str, int]:
        return bodies.notify(bodies.store_for(database_url), account, base_url)

    def heal() -> int:
        return bodies.heal(bodies.store_for(database_url))

    def sync_calendars() -> list[str]:
        return bodies.sync_calendars(bodies.store_for(database_url))

    def resume(account: str) -> dict[str, Any]:
        return sync_account(account, ask=False)

    # The resume queue has its own consumer in every worker, and its messages go first
    # among those a worker has fetched (dramatiq: lower priority number first): an account
    # whose holder died does not wait behind the queue of routine syncs.
    resume_actor = dramatiq.actor(broker=broker, queue_name=resume_queue(name),
                                  actor_name=f"{name}.resume", priority=0,
                                  time_limit=SYNC_TIME_LIMIT_MS, **RETRIES)(resume)
    return Queue(broker, name, actor(sync_account, time_limit=SYNC_TIME_LIMIT_MS,
                                     priority=10),
                 resume_actor, actor(run_outbox, priority=10), actor(notify, priority=20),
                 actor(heal, priority=20), actor(sync_calendars, priority=20))


def stop_on_signals() -> threading.Event:
    """An event set by SIGTERM or SIGINT (the process then shuts down cleanly)."""
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    return stop


def run_worker(queue: Queue, threads: int, stop: threading.Event, grace_seconds: float,
               watch: int = 0, poll_seconds: float = 300.0,
               on_ready: Callable[[], object] | None = None) -> None:
    """Consume jobs with `threads` threads (and watch up to `watch` accounts with IDLE)
    until `stop`; then finish the jobs in hand (up to `grace_seconds`) and hand the
    prefetched ones back to the broker."""
    from mailmoat.services.bootstrap import key_ring
    from mailmoat.services.watchers import WatchPool

    worker = dramatiq.Worker(queue.broker, queues={queue.name, resume_queue(queue.name)},
                             worker_threads=threads)
    worker.start()
    pool_thread = None
    if watch > 0:
        # One sender thread: the broker opens a connection per sending thread, and there is
        # a watcher thread per account.
        woken: Queue_[str] = Queue_()
        threading.Thread(target=_send_syncs, args=(queue, woken, stop), daemon=True,
                         name="watch-sender").start()
        pool = WatchPool(bodies.store_for(None), key_ring(), woken.put,
                         capacity=watch, poll_seconds=poll_seconds)
        pool_thread = threading.Thread(target=pool.run, args=(stop,), daemon=True,
                                       name="watch-pool")
        pool_thread.start()
    if on_ready is not None:
        on_ready()
    stop.wait()
    if pool_thread is not None:
        pool_thread.join(timeout=10)
    worker.stop(timeout=int(grace_seconds * 1000))


def _send_syncs(queue: Queue, woken: Queue_[str], stop: threading.Event) -> None:
    """Queue a sync job for every account a watcher reported, from this one thread."""
    while not stop.is_set():
        try:
            account = woken.get(timeout=1.0)
        except Empty:
            continue
        try:
            queue.sync_account.send(account)
        except Exception:  # the broker is away for a moment: the next wake-up or poll retries
            log.exception("%s: could not queue a sync job", account)


@dataclass
class Intervals:
    sync: float = 300.0  # every account, IDLE or not: the polling safety net
    sweep: float = SWEEP_SECONDS  # accounts whose sync holder died
    outbox: float = 60.0
    notify: float = 300.0
    heal: float = 300.0
    calendar: float = 900.0  # every linked calendar (MAILMOAT_CALENDAR_SYNC_SECONDS)

    def as_dict(self) -> dict[str, float]:
        return {"sync": self.sync, "sweep": self.sweep, "outbox": self.outbox,
                "notify": self.notify, "heal": self.heal, "calendar": self.calendar}


def scheduler_tick(queue: Queue, jobs: list[str], base_url: str) -> dict[str, int]:
    """Queue the due `jobs` once; how many messages each queued."""
    store = bodies.store_for(None)
    sent: dict[str, int] = {}
    if "sync" in jobs:
        names = bodies.account_names(store)
        for name in names:
            queue.sync_account.send(name, False)  # a poll: satisfied by a pass running now
        sent["sync"] = len(names)
    if "sweep" in jobs:
        names = bodies.abandoned_syncs(store)
        for name in names:
            queue.resume.send(name)
        sent["sweep"] = len(names)
    if "outbox" in jobs:
        queue.run_outbox.send()
        sent["outbox"] = 1
    if "notify" in jobs:
        names = bodies.account_names(store)
        for name in names:
            queue.notify.send(name, base_url)
        sent["notify"] = len(names)
    if "heal" in jobs:
        queue.heal.send()
        sent["heal"] = 1
    if "calendar" in jobs:
        queue.sync_calendars.send()
        sent["calendar"] = 1
    return sent


def run_scheduler(queue: Queue, stop: threading.Event, intervals: Intervals, base_url: str,
                  tick: float = 1.0, on_ready: Callable[[], object] | None = None) -> None:
    """Queue periodic work while holding the `scheduler` lease; stand by while another
    scheduler holds it."""
    store = bodies.store_for(None)
    holder = holder_name("scheduler")
    held: Held | None = None
    last: dict[str, float] = {}
    if on_ready is not None:
        on_ready()
    while not stop.is_set():
        if held is None or held.lost.is_set():
            held = try_hold(store, "scheduler", holder)
        if held is not None:
            now = time.time()
            jobs = due(intervals.as_dict(), last, now)
            if jobs:
                try:
                    sent = scheduler_tick(queue, jobs, base_url)
                    log.info("scheduler queued %s", sent)
                    last.update(dict.fromkeys(jobs, now))
                except Exception:  # broker or database away for a moment: next tick
                    log.exception("scheduler tick failed")
        stop.wait(tick)
    if held is not None and not held.lost.is_set():
        held.release()
