"""Parse and perceive RFC 822 messages in worker processes while the caller does its I/O.

Parsing, signals, the local scorer's features and the input hash are most of the CPU cost
of ingesting mail and need nothing but the bytes, so a large backfill hands each fetched
batch to a worker and fetches the next one meanwhile. Deciding and storing stay in the
caller's process: sender facts come from the database, and model scorers keep their budget
and cache there. Small batches (IDLE arrivals) are done in-process: starting a worker would
cost more than it saves.

Workers die with their parent: each watches its parent's pid and exits once it changes
(the parent was killed, even by SIGKILL, and the worker was handed to init), within
PARENT_POLL_S. Not prctl(PR_SET_PDEATHSIG): Linux sends that signal when the *thread* that
started the worker ends, and the pool starts workers from whichever thread submits first
(sync's fetch thread, which ends before the pool does).
"""

from __future__ import annotations

import copyreg
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from types import TracebackType
from typing import TYPE_CHECKING

from mailmoat.core.evidence import Evidence
from mailmoat.core.features import Features
from mailmoat.core.local_scorer import Scored
from mailmoat.core.message import Attachment, Message, parse_message
from mailmoat.core.records import field_names
from mailmoat.core.signals import Signals
from mailmoat.judge.cascade import Perception, perceive

if TYPE_CHECKING:  # the workers need not import the database layer
    from mailmoat.store.messages import Prepared

log = logging.getLogger(__name__)

ENV_WORKERS = "MAILMOAT_PARSE_WORKERS"
WORKER_NICENESS = 10
PARENT_POLL_S = 0.5  # how long a worker may outlive a killed parent
Item = tuple[bytes, tuple[str, ...]]  # raw bytes, labels


def _by_fields(record: object) -> tuple[type, tuple[object, ...]]:
    return type(record), tuple(getattr(record, name) for name in field_names(type(record)))


# What a worker sends back, pickled as the class and its field values in order: the
# default pickling of a frozen dataclass with slots stores a dict per object and sets
# each field through Python on the way back, which cost the syncing process about 30 us
# a message (tests/unit/test_parse_pool.py checks the round trip).
for _record in (Message, Attachment, Perception, Signals, Scored, Features, Evidence):
    copyreg.pickle(_record, _by_fields)


def prepare_batch(items: list[Item]) -> list[Prepared]:
    """The worker's job (module level, so a spawned process can import it)."""
    out: list[Prepared] = []
    for raw, labels in items:
        message = parse_message(raw, labels=labels)
        out.append((message, perceive(message)))
    return out


def _watch_parent(parent: int, interval: float) -> None:
    while True:
        time.sleep(interval)
        if os.getppid() != parent:
            os._exit(1)  # the parent is gone: nobody will read what this worker makes


def init_worker(niceness: int, parent: int, interval: float = PARENT_POLL_S) -> None:
    """Each worker's start: a lower priority, and a watch on the parent (module level, so a
    spawned process can import it)."""
    os.nice(niceness)
    if os.getppid() != parent:  # the parent died while this worker was starting
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent, interval), daemon=True,
                     name="mailmoat-parent-watch").start()


def default_workers() -> int:
    """`MAILMOAT_PARSE_WORKERS` when set (0: in-process), else one per core up to two.
    Measured on two cores shared with the IMAP server: in-process is 1.3x slower; one and
    two niced workers are within noise of each other (docs/mailboxes.md). Each worker
    holds about 40 MB."""
    configured = os.environ.get(ENV_WORKERS, "").strip()
    if configured:
        try:
            return max(0, int(configured))
        except ValueError:
            raise ValueError(f"{ENV_WORKERS} must be a whole number, got {configured!r}") from None
    return min(2, os.cpu_count() or 1)


class ParsePool:
    """A process pool for `prepare_batch`, or the same call in-process with `workers=0`."""

    def __init__(self, workers: int) -> None:
        # spawn, not fork: sync runs next to threads (IDLE watchers, the web server), and a
        # forked child of a threaded process can inherit a lock held by another thread.
        # A daemonic process (a process-type job worker) may not start children at all.
        # Workers run at a lower priority (nice): the syncing process stores what they
        # prepared and is the pipeline's critical path, and on a small machine the IMAP
        # server shares the cores; the workers use what CPU is left (on two cores, syncs
        # of 10,000 messages took 9.2-9.4 s against 10.5-12.6 s at equal priority). Each
        # worker also exits when this process dies (init_worker).
        usable = workers > 0 and not multiprocessing.current_process().daemon
        self._pool = (ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                                          initializer=init_worker,
                                          initargs=(WORKER_NICENESS, os.getpid()))
                      if usable else None)

    def submit(self, items: list[Item]) -> Future[list[Prepared]]:
        if self._pool is not None:
            try:
                return self._pool.submit(prepare_batch, items)
            except BrokenProcessPool:
                log.warning("the parse pool broke (a worker died); parsing in-process")
                self.close()
        done: Future[list[Prepared]] = Future()
        done.set_result(prepare_batch(items))
        return done

    def worker_pids(self) -> list[int]:
        """The pids of the workers started so far (none in-process)."""
        if self._pool is None:
            return []
        return sorted(getattr(self._pool, "_processes", None) or {})

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def __enter__(self) -> ParsePool:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
