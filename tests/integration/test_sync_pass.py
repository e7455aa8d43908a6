"""The one sync pass (services/sync_pass.py): `mailmoat sync` once and with IDLE, and the
sync job, all notify, run the AUTO sweep and drain the outbox after every pass."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mailmoat.act.auto import AutoSweep
from mailmoat.services.sync_pass import SyncPass
from tests.support.imap_fixtures import make_message, make_setup, running
from tests.support.mailserver import MailServer


@pytest.fixture
def server() -> Iterator[MailServer]:
    with running(MailServer()) as started:
        yield started


def _sweeps(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Record each AUTO sweep (account, messages stored when it ran); the real sweep runs."""
    seen: list[tuple[str, int]] = []
    real = AutoSweep.run

    def run(self: AutoSweep, account: str) -> Any:
        seen.append((account, self.store.count(account)))
        return real(self, account)

    monkeypatch.setattr(AutoSweep, "run", run)
    return seen


def test_idle_sync_runs_the_auto_sweep_after_every_pass(
    tmp_path: Path, server: MailServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    setup = make_setup(tmp_path, server)
    sweeps = _sweeps(monkeypatch)
    stop = threading.Event()
    watcher = threading.Thread(target=SyncPass.on(setup.store, setup.ring).watch,
                               args=(setup.account, stop), kwargs={"poll_seconds": 120})
    watcher.start()
    try:
        time.sleep(1.5)  # the first pass, then IDLE
        assert sweeps == [("work", 0)]
        server.deliver(make_message(1, subject="arrived while idle"))
        deadline = time.monotonic() + 10
        while len(sweeps) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        stop.set()
        watcher.join(timeout=10)
    assert sweeps[:2] == [("work", 0), ("work", 1)]  # the sweep saw what IDLE brought


def test_one_pass_notifies_sweeps_and_drains_the_outbox(
    tmp_path: Path, server: MailServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    setup = make_setup(tmp_path, server)
    server.deliver(make_message(1, subject="one"))
    sweeps = _sweeps(monkeypatch)
    passes = SyncPass.on(setup.store, setup.ring)
    report = passes.run(setup.account)
    assert report.created == 1
    assert sweeps == [("work", 1)]
    assert passes.outcomes == []  # nothing approved: the drain ran and found nothing
