"""Leases in the database (core/leases.py rules, store/leases.py swaps, services/leases.py
holders) on SQLite and PostgreSQL: a live lease is never broken, a dead holder's lease is
taken over after it expires, and the grant record shows no two holders overlapped."""

from __future__ import annotations

import threading
import time

import pytest

from mailmoat.core import leases as rules
from mailmoat.services.bootstrap import open_store
from mailmoat.services.leases import (
    LeaseLost,
    abandoned,
    hold_or_ask,
    overlaps,
    try_hold,
)
from mailmoat.store import leases as table


class Clock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_rules() -> None:
    live = rules.Lease("sync:a", "w1", "t1", 100.0)
    assert rules.is_live(live, 99.9) and not rules.may_take(live, 99.9)
    assert rules.may_take(live, 100.0) and rules.abandoned(live, 100.0)
    released = rules.Lease("sync:a", None, None, 0.0)
    assert rules.may_take(released, 5.0) and not rules.abandoned(released, 5.0)
    assert rules.may_take(None, 0.0)
    assert rules.account_of(rules.sync_lease("a:b")) == "a:b"
    with pytest.raises(ValueError, match="outlast"):
        rules.check_timing(10.0, 10.0)
    assert rules.pickup_bound() <= 60.0  # the goal for a dead holder's account


def test_a_live_lease_is_never_taken_and_an_expired_one_is(store_url: str) -> None:
    store = open_store(store_url)
    clock = Clock()
    first = try_hold(store, "sync:work", "w1", clock=clock, seconds=30, heartbeat=10)
    assert first is not None
    clock.now += 29.9
    assert try_hold(store, "sync:work", "w2", clock=clock, seconds=30, heartbeat=10) is None
    clock.now += 0.1  # w1 died: no heartbeat, the grant ran out
    assert abandoned(store, "sync:", clock=clock) == ["sync:work"]
    second = try_hold(store, "sync:work", "w2", clock=clock, seconds=30, heartbeat=10)
    assert second is not None and second.token != first.token
    first._stop_beat()
    # The dead holder, if it wakes up, cannot renew or release the new grant.
    assert not table.renew(store, "sync:work", first.token, clock.now + 30)
    table.release(store, "sync:work", first.token, clock.now)
    assert table.read(store, "sync:work").token == second.token  # type: ignore[union-attr]
    second.release()
    assert abandoned(store, "sync:", clock=clock) == []
    grants = table.grants(store, "sync:")
    assert [g.holder for g in grants] == ["w1", "w2"]
    assert grants[0].released_at is None and grants[1].released_at is not None
    assert overlaps(grants) == []


def test_the_heartbeat_keeps_a_lease_live_past_its_first_expiry(store_url: str) -> None:
    store = open_store(store_url)
    held = try_hold(store, "sync:work", "w1", seconds=1.0, heartbeat=0.2)
    assert held is not None
    deadline = time.time() + 2.5  # more than twice the grant
    while time.time() < deadline:
        assert try_hold(store, "sync:work", "w2", seconds=1.0, heartbeat=0.2) is None
        time.sleep(0.1)
    held.check()
    held.release()
    after = try_hold(store, "sync:work", "w2", seconds=1.0, heartbeat=0.2)
    assert after is not None
    after.release()


def test_a_holder_whose_lease_was_taken_over_learns_it(store_url: str) -> None:
    store = open_store(store_url)
    clock = Clock()
    held = try_hold(store, "sync:work", "w1", clock=clock, seconds=1.0, heartbeat=0.1)
    assert held is not None
    held._stop.set()  # a stalled holder: its heartbeats stop for a while
    time.sleep(0.3)
    clock.now += 5
    taker = try_hold(store, "sync:work", "w2", clock=clock, seconds=1.0, heartbeat=0.5)
    assert taker is not None
    held._stop.clear()
    held.start()  # it comes back and beats again: the renewal fails, work must stop
    assert held.lost.wait(3)
    with pytest.raises(LeaseLost):
        held.check()
    taker.release()


def test_a_busy_lease_asks_its_holder_for_one_more_pass(store_url: str) -> None:
    store = open_store(store_url)
    held = hold_or_ask(store, "sync:work", "w1")
    assert held is not None
    assert hold_or_ask(store, "sync:work", "w2") is None  # asked, not taken
    assert held.finish() is True  # one more pass, lease kept
    assert held.finish() is False  # nothing more asked: released
    assert table.read(store, "sync:work").token is None  # type: ignore[union-attr]


def test_many_claimants_at_once_get_one_grant(store_url: str) -> None:
    store = open_store(store_url)
    clock = Clock()
    wins: list[str] = []
    holders = []
    barrier = threading.Barrier(8)

    def claim(i: int) -> None:
        barrier.wait()
        held = try_hold(store, "sync:race", f"w{i}", clock=clock, seconds=30, heartbeat=10)
        if held is not None:
            wins.append(f"w{i}")
            holders.append(held)

    for _round in range(3):  # a missing row, then an expired one, twice
        wins.clear()
        threads = [threading.Thread(target=claim, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(wins) == 1, wins
        clock.now += 31
    for held in holders:
        held._stop_beat()  # (their grants ran out on the test's clock)
    assert overlaps(table.grants(store, "sync:race")) == []
