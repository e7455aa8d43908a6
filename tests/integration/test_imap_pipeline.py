"""The large-pull pipeline (fetch thread, worker processes, grouped transactions) against a
real IMAP server: it decides exactly as in-process parsing does, and a connection cut in the
middle of it still resumes with no gaps and no duplicates."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from mailmoat.mail import parse_pool, sync
from mailmoat.mail.runner import open_client, sync_once
from mailmoat.mail.sync import MailboxSync
from mailmoat.store.tables.accounts import LocationRow
from mailmoat.store.tables.messages import DecisionRow, MessageRow
from tests.support.imap_fixtures import Proxy, make_message, make_setup, marketing, running
from tests.support.mailserver import MailServer


@pytest.fixture
def server() -> Iterator[MailServer]:
    with running(MailServer()) as started:
        yield started


@pytest.fixture
def small_large_pulls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Make a pull of 10+ UIDs "large" (workers, groups of 2 batches); record pool sizes."""
    monkeypatch.setattr(sync, "POOL_MIN", 10)
    monkeypatch.setattr(sync, "GROUP_BATCHES", 2)
    sizes: list[int] = []
    real_init = parse_pool.ParsePool.__init__

    def recording_init(self: parse_pool.ParsePool, workers: int) -> None:
        sizes.append(workers)
        real_init(self, workers)

    monkeypatch.setattr(parse_pool.ParsePool, "__init__", recording_init)
    return sizes


def _fill(server: MailServer, count: int) -> None:
    client = server.imap()
    try:
        client.multiappend("INBOX", [marketing(i) if i % 3 == 0 else make_message(i)
                                     for i in range(count)])
    finally:
        client.logout()


def _decisions(store: Any) -> dict[str, tuple[str, str, dict[str, Any]]]:
    with store.sessions() as session:
        rows = session.execute(select(MessageRow.subject, DecisionRow.lane,
                                      DecisionRow.input_hash, DecisionRow.trace)
                               .join(DecisionRow, DecisionRow.message_id == MessageRow.id))
        return {subject: (lane, digest, trace) for subject, lane, digest, trace in rows}


def test_workers_decide_exactly_as_in_process(
    tmp_path: Path, server: MailServer, small_large_pulls: list[int]
) -> None:
    _fill(server, 40)
    results = []
    for workers in (1, 0):
        (tmp_path / f"w{workers}").mkdir()
        setup = make_setup(tmp_path / f"w{workers}", server)
        progress: list[int] = []
        client = open_client(setup.store, setup.ring, setup.account)
        try:
            report = MailboxSync(setup.store, setup.account, batch=5,
                                 parse_workers=workers).run_pass(
                client, progress=lambda _f, done, _t, seen=progress: seen.append(done))
        finally:
            client.logout()
        assert report.created == report.fetched == 40
        assert progress == [10, 20, 30, 40]  # one step per stored group of two batches
        results.append(_decisions(setup.store))
    assert small_large_pulls == [1, 0]
    with_workers, in_process = results
    assert len(with_workers) == 40
    assert with_workers == in_process
    assert {lane for lane, _, _ in with_workers.values()} >= {"SILENT", "QUEUE"}


def test_cut_in_the_middle_of_a_large_pull_resumes_without_gaps_or_duplicates(
    tmp_path: Path, server: MailServer, small_large_pulls: list[int]
) -> None:
    _fill(server, 60)
    proxy = Proxy(server.imap_port).restore()
    setup = make_setup(tmp_path, server, port=proxy.port)
    syncer = MailboxSync(setup.store, setup.account, batch=5, parse_workers=1)

    def cut_after_two_groups(_folder: str, done: int, _total: int) -> None:
        if done >= 20:
            proxy.cut()

    client = open_client(setup.store, setup.ring, setup.account, timeout=5)
    with pytest.raises((OSError, EOFError, client.Error, client.AbortError)):
        syncer.run_pass(client, progress=cut_after_two_groups)
    partial = setup.store.count("work")
    assert 20 <= partial < 60
    assert small_large_pulls == [1]

    proxy.restore()
    report = sync_once(setup.store, setup.ring, setup.account)
    assert report.created == 60 - partial
    assert setup.store.count("work") == 60
    with setup.store.sessions() as session:
        assert session.scalar(select(func.count()).select_from(LocationRow)) == 60
        assert session.scalar(select(func.count(func.distinct(MessageRow.subject)))) == 60
    proxy.cut()


def test_worker_count_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(parse_pool.ENV_WORKERS, "0")
    assert parse_pool.default_workers() == 0
    monkeypatch.setenv(parse_pool.ENV_WORKERS, "two")
    with pytest.raises(ValueError, match="MAILMOAT_PARSE_WORKERS must be a whole number"):
        parse_pool.default_workers()
    monkeypatch.delenv(parse_pool.ENV_WORKERS)
    assert 1 <= parse_pool.default_workers() <= 2


def test_parse_workers_run_below_the_syncing_process_priority() -> None:
    import os

    with parse_pool.ParsePool(1) as pool:
        assert pool._pool is not None
        worker_niceness = pool._pool.submit(os.nice, 0).result(timeout=60)
    assert worker_niceness == min(19, os.nice(0) + parse_pool.WORKER_NICENESS)
    assert worker_niceness > os.nice(0)


def test_a_dead_worker_costs_speed_not_mail() -> None:
    items = [(make_message(i), ()) for i in range(3)] + [(marketing(9), ())]
    expected = parse_pool.prepare_batch(items)
    with parse_pool.ParsePool(1) as pool:
        assert pool.submit(items).result() == expected
        assert pool._pool is not None
        (worker,) = pool._pool._processes.values()  # type: ignore[attr-defined]  # to kill it
        worker.kill()
        worker.join()
        got = [sync._prepared(pool.submit(items)) for _ in range(3)]
    # A batch caught by the death comes back None (the store then parses it in-process);
    # once the pool is known broken, batches are prepared in-process.
    assert all(g is None or g == expected for g in got)
    assert got[-1] == expected
