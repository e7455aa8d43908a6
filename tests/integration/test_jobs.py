"""Sync as background jobs: huey on SQLite (the embedded default) and Dramatiq on RabbitMQ
with PostgreSQL (past one machine). Several workers share the load, the result has no
duplicates, and the sync leases in the database keep passes of one account apart."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from huey import Huey
from sqlalchemy import func, select

from mailmoat.accounts.registry import AccountSettings, add_account
from mailmoat.accounts.secrets import ENV_KEY, ENV_KEY_FILE
from mailmoat.entrypoints.jobs import make_huey, register, start_workers
from mailmoat.store.tables.messages import MessageRow
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
    huey = make_huey("mm-test", sqlite_path=tmp_path / "jobs.db")
    _run_jobs(huey, f"sqlite:///{tmp_path / 'mailmoat.db'}", tmp_path, server, monkeypatch)


@pytest.mark.rabbitmq
@pytest.mark.postgres
def test_jobs_on_rabbitmq_with_postgresql(tmp_path: Path, server: MailServer, pg_url: str,
                                          rabbitmq_queue: tuple[str, str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Past one machine: the same job bodies on Dramatiq with RabbitMQ, three worker
    threads, every account queued twice; the leases keep passes of one account apart."""
    import dramatiq

    from mailmoat.entrypoints import queue as mq

    broker_url, name = rabbitmq_queue
    monkeypatch.delenv(ENV_KEY, raising=False)
    monkeypatch.setenv(ENV_KEY_FILE, str(tmp_path / "secret.key"))
    for i in range(20):
        server.append(make_message(i))
    setup = make_setup(tmp_path, server, url=pg_url)
    for extra in ("second", "third"):
        add_account(setup.store, setup.ring, AccountSettings(
            name=extra, host=server.host, port=server.imap_port, username=server.user,
            tls="plain"), server.password)
    q = mq.declare(mq.make_broker(broker_url), name, database_url=pg_url)
    worker = dramatiq.Worker(q.broker, queues={name}, worker_threads=3)
    worker.start()
    try:
        for account in ("work", "second", "third") * 2:
            q.sync_account.send(account)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and any(
                setup.store.count(a) < 20 for a in ("work", "second", "third")):
            time.sleep(0.3)
        worker.join()
    finally:
        worker.stop(timeout=30_000)
        q.broker.close()
    for account in ("work", "second", "third"):
        assert setup.store.count(account) == 20
        with setup.store.sessions() as session:
            distinct = session.scalar(select(func.count(func.distinct(MessageRow.subject)))
                                      .where(MessageRow.account == account))
        assert distinct == 20
    from mailmoat.services.leases import overlaps
    from mailmoat.store.leases import grants

    record = grants(setup.store, "sync:")
    assert {g.name for g in record} == {"sync:work", "sync:second", "sync:third"}
    assert all(g.released_at is not None for g in record)
    assert overlaps(record) == []


@pytest.mark.rabbitmq
@pytest.mark.postgres
def test_worker_processes_share_the_load(tmp_path: Path, server: MailServer, pg_url: str,
                                         rabbitmq_queue: tuple[str, str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Scaled out: two `mailmoat worker` processes on one RabbitMQ queue and one PostgreSQL;
    SIGTERM stops each cleanly."""
    import os
    import signal
    import subprocess
    import sys

    from mailmoat.entrypoints import queue as mq

    broker_url, queue = rabbitmq_queue
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
    env = {**os.environ, "MAILMOAT_BROKER_URL": broker_url, "MAILMOAT_QUEUE_NAME": queue,
           "MAILMOAT_DATABASE_URL": pg_url}
    workers = [subprocess.Popen([sys.executable, "-m", "mailmoat", "worker", "--workers",
                                 "1"], env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL) for _ in range(2)]
    q = mq.declare(mq.make_broker(broker_url), queue)
    try:
        for proc in workers:  # each prints one line once it consumes
            assert proc.stdout is not None and b"mailmoat worker" in proc.stdout.readline()
        for name in names:
            q.sync_account.send(name)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and any(setup.store.count(n) < 10 for n in names):
            time.sleep(0.3)
        for name in names:
            assert setup.store.count(name) == 10
        from mailmoat.store.leases import grants

        holders = {g.holder.split(":")[1] for g in grants(setup.store, "sync:")}
        assert holders == {str(p.pid) for p in workers}, holders
    finally:
        for proc in workers:
            proc.send_signal(signal.SIGTERM)
        codes = [proc.wait(timeout=60) for proc in workers]
        q.broker.close()
    assert codes == [0, 0]


def test_a_job_that_finds_the_lease_live_asks_its_holder_for_another_pass(
        tmp_path: Path, server: MailServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """Under `mailmoat up` the IDLE watcher queues a job when mail arrives, also while
    another job's pass is running, maybe past its search already. That job must not be
    dropped: it asks the live holder for one more pass (and never breaks its lease)."""
    from mailmoat.services.leases import try_hold

    monkeypatch.delenv(ENV_KEY, raising=False)
    monkeypatch.setenv(ENV_KEY_FILE, str(tmp_path / "secret.key"))
    url = f"sqlite:///{tmp_path / 'mailmoat.db'}"
    setup = make_setup(tmp_path, server, url=url)
    huey = make_huey("mm-test-lease", sqlite_path=tmp_path / "jobs.db")
    jobs = register(huey)
    consumer = start_workers(huey, workers=2)
    try:
        other = try_hold(setup.store, "sync:work", "another worker")  # its pass is running
        assert other is not None
        server.deliver(make_message(1, subject="arrived during the other pass"))
        outcome = jobs.sync_account("work", url).get(blocking=True, timeout=60)
        assert outcome["busy"] is True and setup.store.count("work") == 0
        assert other.finish() is True  # the holder was asked for one more pass
        other.release()
    finally:
        consumer.stop(graceful=True)


def test_a_dead_holders_account_is_synced_again_after_its_lease_expires(
        tmp_path: Path, server: MailServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker killed during a pass leaves its lease behind, unreleased. Nobody clears it:
    it expires, the sweep finds it abandoned and queues the account, and a worker takes the
    lease over and syncs."""
    from mailmoat.store import leases as table

    monkeypatch.delenv(ENV_KEY, raising=False)
    monkeypatch.setenv(ENV_KEY_FILE, str(tmp_path / "secret.key"))
    url = f"sqlite:///{tmp_path / 'mailmoat.db'}"
    server.append(make_message(1))
    setup = make_setup(tmp_path, server, url=url)
    now = time.time()
    assert table.take(setup.store, None, "sync:work", "killed worker", "dead", now - 31,
                      now - 1)  # granted 31 s ago, never renewed: its holder died
    huey = make_huey("mm-test-dead", sqlite_path=tmp_path / "jobs.db")
    jobs = register(huey)
    consumer = start_workers(huey, workers=1)
    try:
        assert jobs.sweep(url).get(blocking=True, timeout=30) == ["work"]
        deadline = time.monotonic() + 60
        while setup.store.count("work") < 1 and time.monotonic() < deadline:
            time.sleep(0.2)
    finally:
        consumer.stop(graceful=True)
    assert setup.store.count("work") == 1
    record = table.grants(setup.store, "sync:")
    assert record[0].holder == "killed worker" and len(record) == 2
    assert record[1].released_at is not None


@pytest.mark.rabbitmq
@pytest.mark.postgres
def test_a_worker_told_to_stop_finishes_the_pass_in_hand(
        tmp_path: Path, server: MailServer, pg_url: str, rabbitmq_queue: tuple[str, str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """SIGTERM during a sync: the worker takes no new job, finishes the pass it holds,
    releases its lease and exits 0."""
    import os
    import signal
    import subprocess
    import sys

    from mailmoat.entrypoints import queue as mq
    from mailmoat.store import leases as table

    broker_url, queue = rabbitmq_queue
    monkeypatch.delenv(ENV_KEY, raising=False)
    monkeypatch.setenv(ENV_KEY_FILE, str(tmp_path / "secret.key"))
    client = server.imap()
    try:
        for i in range(400):
            client.append("INBOX", make_message(i))
    finally:
        client.logout()
    setup = make_setup(tmp_path, server, url=pg_url)
    env = {**os.environ, "MAILMOAT_BROKER_URL": broker_url, "MAILMOAT_QUEUE_NAME": queue,
           "MAILMOAT_DATABASE_URL": pg_url, "MAILMOAT_PARSE_WORKERS": "0"}
    worker = subprocess.Popen([sys.executable, "-m", "mailmoat", "worker", "--workers", "1"],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    q = mq.declare(mq.make_broker(broker_url), queue)
    try:
        assert worker.stdout is not None and b"mailmoat worker" in worker.stdout.readline()
        q.sync_account.send("work")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            lease = table.read(setup.store, "sync:work")
            if lease is not None and lease.token is not None:
                break
            time.sleep(0.05)
        assert setup.store.count("work") < 400  # caught mid-pass
        worker.send_signal(signal.SIGTERM)
        assert worker.wait(timeout=120) == 0
    finally:
        if worker.poll() is None:
            worker.kill()
        q.broker.close()
    assert setup.store.count("work") == 400
    record = table.grants(setup.store, "sync:")
    assert len(record) == 1 and record[0].released_at is not None
