"""Exactly once across SIGKILL: a subprocess executor killed at named crash points, in a loop.

The executor runs as `python -m mailmoat.entrypoints.worker` with its transports built from the
accounts store; MAILMOAT_CRASH_AT makes it SIGKILL itself between claim and send, or after
send and before the outcome is recorded. After the
loop a clean worker drains the outbox. Every approved message must be delivered exactly once.
"""

from __future__ import annotations

import datetime
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from mailmoat.store.tables.act import OutboxRow
from tests.support.act_support import (
    add_mail_account,
    delivered,
    rig,
    secret_key,
    send_payload,
    wipe,
)
from tests.support.mailserver import MailServer

LEASE = 0.3  # seconds: a killed worker's claim expires before the next worker starts


@pytest.fixture(scope="module")
def server() -> Iterator[MailServer]:
    running = MailServer().start()
    try:
        yield running
    finally:
        running.stop()


def _account(r: Any, server: MailServer, monkeypatch: pytest.MonkeyPatch,
             server_files_sent: bool) -> None:
    add_mail_account(r.store, secret_key(monkeypatch), server,
                     server_files_sent=server_files_sent,
                     sent_folder="INBOX" if server_files_sent else "Sent")


def _args(url: str, lease: float = LEASE) -> list[str]:
    return [sys.executable, "-m", "mailmoat.entrypoints.worker", "--database-url", url,
            "--lease", str(lease)]


def _worker(url: str, crash_at: str | None, once: bool) -> int:
    env = {k: v for k, v in os.environ.items() if k != "MAILMOAT_CRASH_AT"}
    if crash_at:
        env["MAILMOAT_CRASH_AT"] = crash_at
    args = _args(url)
    if once:
        args.append("--once")
    done = subprocess.run(args, env=env, capture_output=True, timeout=120)
    if done.returncode not in (0, -signal.SIGKILL):
        raise AssertionError(done.stderr.decode(errors="replace"))
    return done.returncode


def _approve(r: Any, n: int) -> list[int]:
    ids = []
    for i in range(n):
        p = r.service.propose("acct", send_payload(subject=f"crash test {i}"), "sam", "cli")
        r.service.approve(p["id"], "sam")
        ids.append(p["id"])
    return ids


def _crash_loop(url: str, points: list[str], rounds: int) -> Counter[int]:
    codes: Counter[int] = Counter()
    for i in range(rounds):
        time.sleep(LEASE)
        codes[_worker(url, points[i % len(points)], once=True)] += 1
    time.sleep(LEASE)
    assert _worker(url, None, once=False) == 0
    return codes


@pytest.mark.slow
def test_sigkill_anywhere_delivers_every_message_exactly_once(
    server: MailServer, store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server files each accepted submission (here: the account's INBOX, where mail-devel
    delivers it), so our Message-ID there settles every outcome-unknown send."""
    wipe(server)
    r = rig(store_url)
    _account(r, server, monkeypatch, server_files_sent=True)  # its key ring signs receipts
    ids = _approve(r, 5)
    points = ["after_claim", "before_send", "after_send", "after_append"]
    codes = _crash_loop(store_url, points, rounds=9)
    # The crashes really happened (a reconciled row finishes before some points).
    assert codes[-signal.SIGKILL] >= 5
    inbox = delivered(server)
    per_subject = Counter(str(m["Subject"]) for m in inbox)
    assert per_subject == Counter({f"crash test {i}": 1 for i in range(5)})
    assert len({m["Message-ID"] for m in inbox}) == 5
    with r.service.sessions() as session:
        states = list(session.scalars(select(OutboxRow.state)))
    assert states == ["done"] * 5
    assert all(r.service.show(i)["status"] == "done" for i in ids)


# Where a worker dies, and what a clean worker makes of it when mailmoat files the Sent copy
# itself: the copy is staged before submission and flagged just before DATA, so only a
# crash between that flag and the recorded answer is in doubt; the worker then looks for
# the message on the server (mail-devel delivers into this account's INBOX) before it holds
# it for a person.
STAGED_OUTCOMES = {
    "after_claim": ("done", 1),  # nothing staged, nothing sent: run again
    "before_send": ("done", 1),  # staged, DATA never began: run again, reusing the copy
    "before_data": ("dead", 0),  # flagged, DATA not sent, not on the server: a person
    "after_send": ("done", 1),  # accepted, answer lost: found on the server, never re-sent
    "after_append": ("done", 1),  # the copy was final: reconciled as sent
}


@pytest.mark.slow
def test_with_our_own_sent_copy_only_a_crash_inside_data_is_held(
    server: MailServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGKILL at every point, twice over, one message each: every message is delivered at
    most once; every crash outside the DATA exchange ends delivered exactly once and
    recorded done; a held message's Sent copy stays flagged as a draft for a person."""
    wipe(server)
    url = f"sqlite:///{tmp_path / 'm.db'}"
    r = rig(url)
    _account(r, server, monkeypatch, server_files_sent=False)
    for round_ in range(2):
        for point, (state, copies) in STAGED_OUTCOMES.items():
            subject = f"{point} {round_}"
            p = r.service.propose("acct", send_payload(subject=subject), "sam", "cli")
            r.service.approve(p["id"], "sam")
            assert _worker(url, point, once=True) == -signal.SIGKILL
            time.sleep(LEASE)
            assert _worker(url, None, once=False) == 0
            shown = r.service.show(p["id"])
            assert (point, shown["outbox"]["state"]) == (point, state)
            inbox = Counter(str(m["Subject"]) for m in delivered(server))
            assert (point, inbox[subject]) == (point, copies)
            sent = {str(m["Subject"]): m for m in delivered(server, "Sent")}
            assert subject in sent  # staged before submission: a copy always exists
            if state == "dead":
                assert "DATA began" in shown["outbox"]["last_error"]
    inbox = Counter(str(m["Subject"]) for m in delivered(server))
    assert max(inbox.values()) == 1  # never twice
    flags = _sent_flags(server)
    held = {s for s in flags if s.split()[0] == "before_data"}
    assert all(flags[s] >= {b"\\Draft", b"\\Flagged"} for s in held)
    assert all(b"\\Draft" not in flags[s] for s in set(flags) - held)


def _sent_flags(server: MailServer) -> dict[str, set[bytes]]:
    client = server.imap()
    try:
        client.select_folder("Sent", readonly=True)
        data = client.fetch(client.search(["ALL"]),
                            ["FLAGS", "BODY.PEEK[HEADER.FIELDS (SUBJECT)]"])
        return {next(v for k, v in d.items() if k.startswith(b"BODY")).decode()
                .split(":", 1)[1].strip(): set(d[b"FLAGS"]) for d in data.values()}
    finally:
        client.logout()


@pytest.mark.slow
def test_parallel_worker_processes_deliver_each_message_once(
    server: MailServer, store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three executor processes drain one outbox at the same time (SKIP LOCKED on
    PostgreSQL, single-statement claims on SQLite): each message goes out once."""
    wipe(server)
    r = rig(store_url)
    _account(r, server, monkeypatch, server_files_sent=False)
    _approve(r, 9)
    args = _args(store_url, lease=120)  # no crashes here: a claim outlives any send
    workers = [subprocess.Popen([*args, "--worker", f"p{i}"], stdout=subprocess.PIPE)
               for i in range(3)]
    outputs = [w.communicate(timeout=120)[0].decode() for w in workers]
    assert [w.returncode for w in workers] == [0, 0, 0]
    ran = Counter(line.split()[0] for out in outputs for line in out.splitlines())
    assert len(ran) == 9 and set(ran.values()) == {1}  # every row run by exactly one worker
    inbox = Counter(str(m["Subject"]) for m in delivered(server))
    assert inbox == Counter({f"crash test {i}": 1 for i in range(9)})


def test_a_polling_worker_sends_what_is_approved_while_it_runs(
    server: MailServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    wipe(server)
    url = f"sqlite:///{tmp_path / 'm.db'}"
    r = rig(url)
    _account(r, server, monkeypatch, server_files_sent=False)
    worker = subprocess.Popen([*_args(url, lease=120), "--poll", "0.2"],
                              stdout=subprocess.PIPE)
    try:
        time.sleep(1.0)
        assert worker.poll() is None  # still running, idle
        _approve(r, 2)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(delivered(server)) < 2:
            time.sleep(0.3)
    finally:
        worker.terminate()
        worker.wait(10)
    assert Counter(str(m["Subject"]) for m in delivered(server)) == Counter(
        {"crash test 0": 1, "crash test 1": 1})


def test_the_outbox_runs_as_a_queue_job(
    server: MailServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The job-queue entry point: a huey task (SQLite storage, as in the embedded default)
    drains the outbox through the same executor."""
    from mailmoat.entrypoints.jobs import make_huey, register, start_workers

    wipe(server)
    url = f"sqlite:///{tmp_path / 'm.db'}"
    r = rig(url)
    _account(r, server, monkeypatch, server_files_sent=False)
    _approve(r, 2)
    huey = make_huey(f"act-{tmp_path.name}", sqlite_path=tmp_path / "q.db")
    run_outbox = register(huey).run_outbox
    consumer = start_workers(huey, workers=1)
    try:
        result = run_outbox(url)
        ran = result.get(blocking=True, timeout=60)
    finally:
        consumer.stop(graceful=True)
    assert sorted(line.split()[1] for line in ran) == ["done", "done"]
    assert Counter(str(m["Subject"]) for m in delivered(server)) == Counter(
        {"crash test 0": 1, "crash test 1": 1})


def test_up_and_the_worker_drain_the_outbox_without_being_asked(
    server: MailServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Production registration (entrypoints.jobs.register, what `mailmoat up` and
    `mailmoat worker` call): starting the workers drains approved sends, and the outbox job
    is scheduled every minute; nobody runs `mailmoat actions run`."""
    from mailmoat.entrypoints.jobs import OUTBOX_EVERY, make_huey, register, start_workers

    wipe(server)
    url = f"sqlite:///{tmp_path / 'm.db'}"
    monkeypatch.setenv("MAILMOAT_DATABASE_URL", url)
    r = rig(url)
    _account(r, server, monkeypatch, server_files_sent=False)  # its key signs the receipts
    _approve(r, 2)
    huey = make_huey(f"up-{tmp_path.name}", sqlite_path=tmp_path / "q.db")
    jobs = register(huey)
    periodic = [t.__name__ for t in huey._registry._periodic_tasks]
    assert any(name.endswith("outbox_tick") for name in periodic), periodic
    consumer = start_workers(huey, workers=1, outbox=jobs.run_outbox)
    try:
        deadline = time.monotonic() + 60
        while len(delivered(server)) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
    finally:
        consumer.stop(graceful=True)
    assert Counter(str(m["Subject"]) for m in delivered(server)) == Counter(
        {"crash test 0": 1, "crash test 1": 1})
    assert OUTBOX_EVERY(datetime.datetime(2026, 1, 1, 12, 7))  # due every minute
