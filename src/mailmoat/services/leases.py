"""Holding a lease while work runs: take it (core/leases.py decides, store/leases.py swaps),
renew it from a heartbeat thread, and finish or hand it back.

A sync of one account runs under `sync:<account>`; an IDLE watcher under `watch:<account>`.
A holder that dies stops renewing; its lease expires after LEASE_SECONDS and the scheduler's
sweep (`abandoned`) queues the account again. A live lease is never taken.
"""

from __future__ import annotations

import itertools
import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

from mailmoat.core import leases as rules
from mailmoat.store import leases as table
from mailmoat.store.messages import Store

log = logging.getLogger(__name__)
Clock = Callable[[], float]


class LeaseLost(RuntimeError):
    """The grant this work ran under is gone (it expired and another holder took it)."""


def holder_name(role: str = "worker") -> str:
    return f"{role}@{socket.gethostname()}:{os.getpid()}:{threading.get_ident() % 100000}"


@dataclass
class Held:
    store: Store
    name: str
    holder: str
    token: str
    seconds: float
    clock: Clock
    heartbeat: float
    lost: threading.Event = field(default_factory=threading.Event)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self) -> Held:
        self._thread = threading.Thread(target=self._beat, daemon=True,
                                        name=f"lease-{self.name}")
        self._thread.start()
        return self

    def _beat(self) -> None:
        while not self._stop.wait(self.heartbeat):
            try:
                if not table.renew(self.store, self.name, self.token,
                                   rules.expiry(self.clock(), self.seconds)):
                    log.warning("%s: lease lost by %s", self.name, self.holder)
                    self.lost.set()
                    return
            except Exception:  # the database is away: keep trying until the grant runs out
                log.exception("%s: heartbeat failed", self.name)

    def check(self) -> None:
        """Raise LeaseLost when the grant is gone: work stops at its next checkpoint."""
        if self.lost.is_set():
            raise LeaseLost(self.name)

    def _stop_beat(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)

    def finish(self) -> bool:
        """Done: release, or (True) keep it for one more pass somebody asked for."""
        again = table.finish(self.store, self.name, self.token, self.clock())
        if not again:
            self._stop_beat()
        return again

    def release(self) -> None:
        self._stop_beat()
        table.release(self.store, self.name, self.token, self.clock())


def try_hold(store: Store, name: str, holder: str, *, clock: Clock = time.time,
             seconds: float = rules.LEASE_SECONDS,
             heartbeat: float = rules.HEARTBEAT_SECONDS) -> Held | None:
    """Take `name` if nobody holds it live; None otherwise. Starts the heartbeat."""
    rules.check_timing(seconds, heartbeat)
    for _ in range(3):  # lost a race for a free lease: look again
        seen = table.read(store, name)
        now = clock()
        if not rules.may_take(seen, now):
            return None
        token = uuid.uuid4().hex
        if table.take(store, seen, name, holder, token, now, rules.expiry(now, seconds)):
            return Held(store, name, holder, token, seconds, clock, heartbeat).start()
    return None


def hold_or_ask(store: Store, name: str, holder: str, *, clock: Clock = time.time,
                seconds: float = rules.LEASE_SECONDS,
                heartbeat: float = rules.HEARTBEAT_SECONDS) -> Held | None:
    """Take `name`, or ask its live holder for one more pass when it finishes (mail that
    arrived during its pass is then fetched); None when the holder was asked."""
    for _ in range(5):
        held = try_hold(store, name, holder, clock=clock, seconds=seconds, heartbeat=heartbeat)
        if held is not None:
            return held
        seen = table.read(store, name)
        if (seen is not None and seen.token is not None and rules.is_live(seen, clock())
                and table.ask_again(store, name, seen.token)):
            return None
    return None


def abandoned(store: Store, prefix: str, *, clock: Clock = time.time) -> list[str]:
    """Names under `prefix` whose holder died mid-work (expired, never released)."""
    now = clock()
    return [lease.name for lease in table.all_leases(store, prefix)
            if rules.abandoned(lease, now)]


def overlaps(grants: list[table.Grant]) -> list[tuple[table.Grant, table.Grant]]:
    """Pairs of grants of one name whose lifetimes overlapped (should be none): a grant
    lives from acquisition until its release, or until its last renewed expiry."""
    found = []
    by_name: dict[str, list[table.Grant]] = {}
    for g in grants:
        by_name.setdefault(g.name, []).append(g)
    for items in by_name.values():
        items.sort(key=lambda g: g.acquired_at)
        for before, after in itertools.pairwise(items):
            end = before.released_at if before.released_at is not None else before.renewed_until
            if after.acquired_at < end:
                found.append((before, after))
    return found
