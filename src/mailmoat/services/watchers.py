"""IDLE watchers for many accounts, sharded across worker processes by leases.

A pool holds up to `capacity` accounts, each under its `watch:<account>` lease, with one
IMAP connection and one thread per account (mail/runner.run_forever). On every IDLE wake-up
(or poll, where the server has no IDLE) it calls `on_activity(account)`, which queues a
sync job: the watcher never syncs itself. A pool that dies stops renewing its leases; after
they expire another pool takes the accounts over. A watcher whose lease is lost stops.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from mailmoat.accounts.registry import list_accounts
from mailmoat.accounts.secrets import KeyRing
from mailmoat.core.leases import watch_lease
from mailmoat.mail.runner import run_forever
from mailmoat.services.leases import Held, holder_name, try_hold
from mailmoat.store.messages import Store

log = logging.getLogger(__name__)


@dataclass
class _Watch:
    held: Held
    stop: threading.Event
    thread: threading.Thread


@dataclass
class WatchPool:
    store: Store
    ring: KeyRing
    on_activity: Callable[[str], object]
    capacity: int = 500
    poll_seconds: float = 300.0
    holder: str = field(default_factory=lambda: holder_name("watch"))
    watching: dict[str, _Watch] = field(default_factory=dict)

    def rebalance(self) -> None:
        """Drop watchers whose lease was lost; take free accounts up to capacity."""
        for name, w in list(self.watching.items()):
            if w.held.lost.is_set() or not w.thread.is_alive():
                w.stop.set()
                if not w.held.lost.is_set():
                    w.held.release()
                del self.watching[name]
        for account in list_accounts(self.store):
            if len(self.watching) >= self.capacity:
                break
            if account.name in self.watching:
                continue
            held = try_hold(self.store, watch_lease(account.name), self.holder)
            if held is None:
                continue
            stop = threading.Event()
            thread = threading.Thread(
                target=run_forever, args=(self.store, self.ring, account, stop),
                kwargs={"on_activity": lambda a=account.name: self.on_activity(a),
                        "poll_seconds": self.poll_seconds},
                daemon=True, name=f"idle-{account.name}")
            thread.start()
            self.watching[account.name] = _Watch(held, stop, thread)

    def run(self, stop: threading.Event, every: float = 5.0) -> None:
        while not stop.is_set():
            try:
                self.rebalance()
            except Exception:  # the database is away for a moment: try again
                log.exception("watch pool: rebalance failed")
            stop.wait(every)
        self.close()

    def close(self) -> None:
        """Stop every watcher and hand its lease back (another pool takes it at once)."""
        for w in self.watching.values():
            w.stop.set()
        deadline = time.monotonic() + 5
        for w in self.watching.values():
            w.thread.join(timeout=max(0.0, deadline - time.monotonic()))
            w.held.release()
        self.watching.clear()
