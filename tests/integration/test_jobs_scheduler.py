"""The scheduler and the IDLE watch pools: periodic work is queued by one scheduler at a
time (a second stands by and takes over when the first stops), and the IDLE watchers of
many accounts spread over pools by their leases, one connection per account, and move to
another pool when theirs stops."""

from __future__ import annotations

import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from mailmoat.accounts.registry import AccountSettings, add_account
from mailmoat.accounts.secrets import ENV_KEY, ENV_KEY_FILE
from mailmoat.core.schedule import due
from mailmoat.services.jobs import store_for
from mailmoat.services.watchers import WatchPool
from tests.support.imap_fixtures import make_message, make_setup
from tests.support.mailserver import MailServer


def test_due() -> None:
    every = {"sync": 300.0, "sweep": 10.0, "heal": 0.0}
    assert due(every, {}, 1000.0) == ["sweep", "sync"]  # never run: due; 0 switches off
    assert due(every, {"sync": 900.0, "sweep": 995.0}, 1000.0) == []
    assert due(every, {"sync": 700.0, "sweep": 990.0}, 1000.0) == ["sweep", "sync"]


class _Actor:
    def __init__(self, sent: list[tuple[str, tuple[Any, ...]]], name: str) -> None:
        self.sent, self.name = sent, name

    def send(self, *args: Any) -> None:
        self.sent.append((self.name, args))


class _Queue:
    """Records what a scheduler queues (the broker itself is tested in test_jobs.py)."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, tuple[Any, ...]]] = []
        for name in ("sync_account", "resume", "run_outbox", "notify", "heal",
                     "sync_calendars"):
            setattr(self, name, _Actor(self.sent, name))


def test_one_scheduler_acts_and_a_second_takes_over_when_it_stops(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mail_server: MailServer) -> None:
    from mailmoat.entrypoints.queue import Intervals, run_scheduler

    monkeypatch.delenv(ENV_KEY, raising=False)
    monkeypatch.setenv(ENV_KEY_FILE, str(tmp_path / "secret.key"))
    url = f"sqlite:///{tmp_path / 'mailmoat.db'}"
    monkeypatch.setenv("MAILMOAT_DATABASE_URL", url)
    make_setup(tmp_path, mail_server, url=url)
    first, second = _Queue(), _Queue()
    stop1, stop2 = threading.Event(), threading.Event()
    every = Intervals(sync=0.5, sweep=0.5, outbox=0.5, notify=0, heal=0)
    t1 = threading.Thread(target=run_scheduler, args=(first, stop1, every, "http://x"),
                          kwargs={"tick": 0.1})
    t1.start()
    time.sleep(1.0)
    t2 = threading.Thread(target=run_scheduler, args=(second, stop2, every, "http://x"),
                          kwargs={"tick": 0.1})
    t2.start()
    time.sleep(2.0)
    assert Counter(n for n, _ in first.sent)["sync_account"] >= 3
    assert ("run_outbox", ()) in first.sent
    assert second.sent == []  # standing by
    stop1.set()
    t1.join()
    time.sleep(2.0)  # the first released its lease on the way out
    stop2.set()
    t2.join()
    assert ("sync_account", ("work", False)) in second.sent  # a poll: never asks a holder


def test_watch_pools_share_the_accounts_and_take_over_a_stopped_pool(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mail_server: MailServer) -> None:
    monkeypatch.delenv(ENV_KEY, raising=False)
    monkeypatch.setenv(ENV_KEY_FILE, str(tmp_path / "secret.key"))
    url = f"sqlite:///{tmp_path / 'mailmoat.db'}"
    setup = make_setup(tmp_path, mail_server, url=url)
    for name in ("b", "c"):
        add_account(setup.store, setup.ring, AccountSettings(
            name=name, host=mail_server.host, port=mail_server.imap_port,
            username=mail_server.user, tls="plain"), mail_server.password)
    store = store_for(url)
    woke: list[tuple[str, str]] = []
    lock = threading.Lock()

    def on(pool: str) -> Any:
        def activity(account: str) -> None:
            with lock:
                woke.append((pool, account))
        return activity

    one = WatchPool(store, setup.ring, on("one"), capacity=2, holder="pool-one")
    two = WatchPool(store, setup.ring, on("two"), capacity=2, holder="pool-two")
    try:
        one.rebalance()
        two.rebalance()
        assert len(one.watching) == 2 and len(two.watching) == 1
        assert set(one.watching) | set(two.watching) == {"work", "b", "c"}
        deadline = time.monotonic() + 30  # each watcher reports once as it starts
        while len({a for _, a in woke}) < 3 and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1.0)  # the watchers sit in IDLE now
        before = len(woke)
        mail_server.deliver(make_message(1, subject="wakes every watcher of this mailbox"))
        deadline = time.monotonic() + 30
        while len(woke) < before + 3 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(woke) >= before + 3  # IDLE woke each account's watcher
        moved = set(one.watching)
        one.close()  # hands its leases back
        two.rebalance()
        assert len(two.watching) == 2 and set(two.watching) & moved
    finally:
        one.close()
        two.close()
