"""Sync as huey jobs, on both backends: SQLite storage (embedded default) with a SQLite
store, and Redis storage with PostgreSQL (scaled out). Several workers share the load and
the result has no duplicates."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from huey import Huey
from sqlalchemy import func, select

from mailmoat.accounts.registry import AccountSettings, add_account
from mailmoat.accounts.secrets import ENV_KEY, ENV_KEY_FILE
from mailmoat.entrypoints.jobs import account_lock, make_huey, register, start_workers
from mailmoat.store.tables.messages import MessageRow
from tests.conftest import require_service
from tests.support.imap_fixtures import make_message, make_setup, running
from tests.support.mailserver import MailServer


@pytest.fixture
def server() -> Iterator[MailServer]:
    with running(MailServer()) as started:
        yield started


def _run_jobs(huey: Huey, url: str, tmp_path: Path, server: MailServer,
              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_KEY, raising=False)
    monkeypatch.setenv(ENV_KEY_FILE, str(tmp_path / "secret.key"))
    for i in range(20):
        server.append(make_message(i))
    setup = make_setup(tmp_path, server, url=url)
    for name in ("second", "third"):
        add_account(setup.store, setup.ring, AccountSettings(
            name=name, host=server.host, port=server.imap_port, username=server.user,
            tls="plain"), server.password)
    jobs = register(huey)
    consumer = start_workers(huey, workers=3)
    try:
        # Every account twice: a duplicate job must neither fail nor duplicate mail.
        results = [jobs.sync_account(name, url) for name in ("work", "second", "third") * 2]
        outcomes = [r.get(blocking=True, timeout=60) for r in results]
    finally:
        consumer.stop(graceful=True)
    assert all("account" in o for o in outcomes), outcomes
    for name in ("work", "second", "third"):
        assert setup.store.count(name) == 20
        with setup.store.sessions() as session:
            distinct = session.scalar(select(func.count(func.distinct(MessageRow.subject)))
                                      .where(MessageRow.account == name))
        assert distinct == 20
    created = sum(o.get("created", 0) for o in outcomes)
    assert created == 60


def test_jobs_on_sqlite_storage(tmp_path: Path, server: MailServer,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    huey = make_huey("mm-test", redis_url="", sqlite_path=tmp_path / "jobs.db")
    _run_jobs(huey, f"sqlite:///{tmp_path / 'mailmoat.db'}", tmp_path, server, monkeypatch)


@pytest.mark.redis
@pytest.mark.postgres
def test_jobs_on_redis_storage_with_postgresql(tmp_path: Path, server: MailServer,
                                               pg_url: str,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    require_service("Redis", "127.0.0.1", 6379)
    huey = make_huey(f"mm-test-{uuid.uuid4().hex[:8]}", redis_url="redis://127.0.0.1:6379/0")
    try:
        _run_jobs(huey, pg_url, tmp_path, server, monkeypatch)
    finally:
        huey.storage.flush_all()


@pytest.mark.redis
@pytest.mark.postgres
def test_worker_processes_share_the_load(tmp_path: Path, server: MailServer, pg_url: str,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Scaled out: two `mailmoat worker` processes on one Redis queue and one PostgreSQL."""
    import os
    import signal
    import subprocess
    import sys

    require_service("Redis", "127.0.0.1", 6379)
    queue = f"mm-test-{uuid.uuid4().hex[:8]}"
    redis_url = "redis://127.0.0.1:6379/0"
    monkeypatch.delenv(ENV_KEY, raising=False)
    monkeypatch.setenv(ENV_KEY_FILE, str(tmp_path / "secret.key"))
    for i in range(10):
        server.append(make_message(i))
    setup = make_setup(tmp_path, server, url=pg_url)
    names = ["work", *(f"extra{i}" for i in range(3))]
    for name in names[1:]:
        add_account(setup.store, setup.ring, AccountSettings(
            name=name, host=server.host, port=server.imap_port, username=server.user,
            tls="plain"), server.password)
    env = {**os.environ, "MAILMOAT_REDIS_URL": redis_url, "MAILMOAT_QUEUE_NAME": queue,
           "MAILMOAT_DATABASE_URL": pg_url}
    workers = [subprocess.Popen([sys.executable, "-m", "mailmoat", "worker", "--workers",
                                 "1"], env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL) for _ in range(2)]
    huey = make_huey(queue, redis_url=redis_url)
    try:
        for proc in workers:  # each prints one line once its consumer is about to start
            assert proc.stdout is not None and b"mailmoat worker" in proc.stdout.readline()
        jobs = register(huey)
        results = [jobs.sync_account(name, None) for name in names]
        outcomes = [r.get(blocking=True, timeout=90) for r in results]
        assert sum(o["created"] for o in outcomes) == 40
        for name in names:
            assert setup.store.count(name) == 10
        assert {o["worker_pid"] for o in outcomes} == {p.pid for p in workers}
    finally:
        for proc in workers:
            proc.send_signal(signal.SIGINT)
        for proc in workers:
            proc.wait(timeout=30)
        huey.storage.flush_all()


def test_a_job_that_finds_the_account_locked_runs_once_the_lock_is_free(
        tmp_path: Path, server: MailServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """Under `mailmoat up` the IDLE watcher queues a job when mail arrives, also while
    another job's pass is running, maybe past its search already. That job must not be
    dropped for finding the lock taken, or the mail waits for the next delivery or poll."""
    monkeypatch.delenv(ENV_KEY, raising=False)
    monkeypatch.setenv(ENV_KEY_FILE, str(tmp_path / "secret.key"))
    url = f"sqlite:///{tmp_path / 'mailmoat.db'}"
    setup = make_setup(tmp_path, server, url=url)
    huey = make_huey("mm-test-lock", redis_url="", sqlite_path=tmp_path / "jobs.db")
    jobs = register(huey)
    consumer = start_workers(huey, workers=2)
    try:
        with huey.lock_task("sync:work"):  # another worker's pass, still running
            result = jobs.sync_account("work", url)
            server.deliver(make_message(1, subject="arrived during the other pass"))
            time.sleep(2.5)  # the job has met the lock at least once meanwhile
            assert setup.store.count("work") == 0
        outcome = result.get(blocking=True, timeout=60)
    finally:
        consumer.stop(graceful=True)
    assert outcome["created"] == 1
    assert setup.store.count("work") == 1


def test_workers_clear_a_lock_left_by_a_killed_worker(tmp_path: Path, server: MailServer,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker killed during a pass leaves its account's lock in the queue's storage; the
    next workers to start clear it, or every job for that account would wait on it."""
    monkeypatch.delenv(ENV_KEY, raising=False)
    monkeypatch.setenv(ENV_KEY_FILE, str(tmp_path / "secret.key"))
    url = f"sqlite:///{tmp_path / 'mailmoat.db'}"
    server.append(make_message(1))
    setup = make_setup(tmp_path, server, url=url)
    killed = make_huey("mm-test-stale", redis_url="", sqlite_path=tmp_path / "jobs.db")
    assert killed.lock_task(account_lock("work")).acquire()  # then that worker died
    # The next process: a queue object of its own on the same storage.
    huey = make_huey("mm-test-stale", redis_url="", sqlite_path=tmp_path / "jobs.db")
    jobs = register(huey)
    assert killed.is_locked(account_lock("work"))  # (asking registers the name: not on `huey`)
    consumer = start_workers(huey, workers=1, accounts=["work"])
    try:
        assert not killed.is_locked(account_lock("work"))
        outcome = jobs.sync_account("work", url).get(blocking=True, timeout=60)
    finally:
        consumer.stop(graceful=True)
    assert outcome["created"] == 1 and setup.store.count("work") == 1
