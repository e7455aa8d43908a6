"""Sync against a real IMAP server (mail-devel on loopback): first sync, incremental,
crash/resume through a cut connection, UIDVALIDITY change, \\Seen in step, BODY.PEEK."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, select

from mailmoat.accounts.registry import get_account
from mailmoat.mail.runner import open_client, sync_once
from mailmoat.mail.sync import MailboxSync
from mailmoat.store.mailbox_state import SyncBook
from mailmoat.store.tables.accounts import LocationRow
from mailmoat.store.tables.messages import MessageRow
from tests.support.imap_fixtures import Proxy, make_message, make_setup, running
from tests.support.mailserver import MailServer


@pytest.fixture
def server() -> Iterator[MailServer]:
    with running(MailServer()) as started:
        yield started



def _uids_on_server(server: MailServer, folder: str = "INBOX") -> list[int]:
    client = server.imap()
    try:
        client.select_folder(folder, readonly=True)
        return list(client.search(["ALL"]))
    finally:
        client.logout()


def _locations(store, account_id: int) -> int:  # type: ignore[no-untyped-def]
    with store.sessions() as session:
        return int(session.scalar(select(func.count()).select_from(LocationRow)
                                  .where(LocationRow.account_id == account_id)) or 0)


def test_first_sync_newest_first_then_incremental(tmp_path: Path, server: MailServer) -> None:
    raws = [make_message(i) for i in range(12)]
    for raw in raws:
        server.append(raw)
    setup = make_setup(tmp_path, server)
    seen_progress: list[tuple[str, int, int]] = []
    syncer = MailboxSync(setup.store, setup.account, batch=5)
    client = open_client(setup.store, setup.ring, setup.account)
    try:
        report = syncer.run_pass(client, progress=lambda f, d, t: seen_progress.append((f, d, t)))
    finally:
        client.logout()
    assert report.created == 12 and report.fetched == 12
    assert setup.store.count("work") == 12
    assert seen_progress[-1] == ("INBOX", 12, 12) and len(seen_progress) == 3
    # Newest first: the backfill stored the highest UID (the last appended) first.
    with setup.store.sessions() as session:
        subjects = list(session.scalars(select(MessageRow.subject).order_by(MessageRow.id)))
    assert subjects[0] == "note number 11" and subjects[-1] == "note number 0"
    # Every stored message has its decision and its exact bytes.
    assert sum(setup.store.lane_counts("work").values()) == 12
    with setup.store.sessions() as session:
        stored = set(session.scalars(select(MessageRow.raw)))
    assert {r.replace(b"\n", b"\r\n").replace(b"\r\r\n", b"\r\n") for r in raws} == stored

    again = sync_once(setup.store, setup.ring, setup.account)
    assert again.fetched == 0 and again.created == 0

    server.deliver(make_message(99, subject="arrived later"))
    later = sync_once(setup.store, setup.ring, setup.account)
    assert later.created == 1 and later.fetched == 1
    assert setup.store.count("work") == 13


def test_backfill_window_skips_old_mail(tmp_path: Path, server: MailServer) -> None:
    from datetime import UTC, datetime, timedelta

    client = server.imap()
    old = datetime.now(UTC) - timedelta(days=90)
    client.append("INBOX", make_message(1, subject="ancient", days_ago=90), msg_time=old)
    client.append("INBOX", make_message(2, subject="recent"))
    client.logout()
    setup = make_setup(tmp_path, server, backfill_days=30)
    sync_once(setup.store, setup.ring, setup.account)
    with setup.store.sessions() as session:
        assert list(session.scalars(select(MessageRow.subject))) == ["recent"]


def test_peek_never_marks_read_and_seen_stays_in_step(tmp_path: Path,
                                                      server: MailServer) -> None:
    server.append(make_message(1, subject="unread one"))
    server.append(make_message(2, subject="read one"), flags=(b"\\Seen",))
    setup = make_setup(tmp_path, server)
    sync_once(setup.store, setup.ring, setup.account)

    client = server.imap()
    client.select_folder("INBOX")
    uids = client.search(["ALL"])
    flags = client.get_flags(uids)
    assert b"\\Seen" not in flags[uids[0]], "sync marked a message read"
    with setup.store.sessions() as session:
        seen = dict(session.execute(select(MessageRow.subject, MessageRow.seen)).all())
    assert seen == {"unread one": False, "read one": True}

    # The person reads the first one and un-reads the second in their own client.
    client.add_flags([uids[0]], [b"\\Seen"])
    client.remove_flags([uids[1]], [b"\\Seen"])
    client.logout()
    report = sync_once(setup.store, setup.ring, setup.account)
    assert report.flag_changes == 2
    with setup.store.sessions() as session:
        seen = dict(session.execute(select(MessageRow.subject, MessageRow.seen)).all())
    assert seen == {"unread one": True, "read one": False}


def test_body_size_is_bounded(tmp_path: Path, server: MailServer) -> None:
    big = make_message(1, body="x" * 300_000)
    server.append(big)
    setup = make_setup(tmp_path, server)
    from mailmoat.store.tables.accounts import AccountRow

    with setup.store.sessions.begin() as session:
        session.scalar(select(AccountRow)).max_body_bytes = 64 * 1024
    account = get_account(setup.store, "work")
    sync_once(setup.store, setup.ring, account)
    with setup.store.sessions() as session:
        raw = session.scalar(select(MessageRow.raw))
    assert raw is not None and len(raw) == 64 * 1024
    assert raw.startswith(big[:200])


def test_server_dropped_mid_sync_resumes_without_gaps_or_duplicates(
    tmp_path: Path, server: MailServer
) -> None:
    for i in range(30):
        server.append(make_message(i))
    proxy = Proxy(server.imap_port).restore()
    setup = make_setup(tmp_path, server, port=proxy.port)
    syncer = MailboxSync(setup.store, setup.account, batch=7)

    def cut_after_first_batches(_folder: str, done: int, _total: int) -> None:
        if done >= 14:
            proxy.cut()

    client = open_client(setup.store, setup.ring, setup.account, timeout=5)
    with pytest.raises((OSError, EOFError, client.Error, client.AbortError)):
        syncer.run_pass(client, progress=cut_after_first_batches)
    partial = setup.store.count("work")
    assert 14 <= partial < 30

    # New mail arrives while the connection is down.
    server.deliver(make_message(100, subject="arrived during the outage"))
    proxy.restore()
    report = sync_once(setup.store, setup.ring, setup.account)
    assert setup.store.count("work") == 31
    assert report.created == 31 - partial
    assert _locations(setup.store, setup.account.id or 0) == 31
    with setup.store.sessions() as session:
        subjects = list(session.scalars(select(MessageRow.subject)))
    assert len(subjects) == len(set(subjects)) == 31
    proxy.cut()


def test_uidvalidity_change_resyncs_without_duplicates(tmp_path: Path) -> None:
    server = MailServer().start()
    try:
        raws = [make_message(i) for i in range(5)]
        for raw in raws:
            server.append(raw)
        setup = make_setup(tmp_path, server)
        sync_once(setup.store, setup.ring, setup.account)
        assert setup.store.count("work") == 5
        book = SyncBook(setup.store, setup.account.id or 0)
        first = book.folder_state("INBOX")

        server.restart()  # empty mailbox, new UIDVALIDITY: the same mail is put back
        for raw in raws:
            server.append(raw)
        server.append(make_message(50, subject="new after the restore"))
        report = sync_once(setup.store, setup.ring, setup.account)
        assert report.resynced == ["INBOX"]
        assert report.created == 1 and report.already_known == 5
        assert setup.store.count("work") == 6
        assert _locations(setup.store, setup.account.id or 0) == 6
        second = book.folder_state("INBOX")
        assert first is not None and second is not None
        assert first.uidvalidity != second.uidvalidity
        # Every stored location belongs to the new UIDVALIDITY: no stale UID can be acted on.
        assert set(book.known_uids("INBOX", second.uidvalidity)) == set(_uids_on_server(server))
    finally:
        server.stop()


class RecordingHook:
    def __init__(self, fail: bool = False) -> None:
        self.arrivals: list[tuple[str, str]] = []
        self.fail = fail

    def on_decided(self, arrival) -> None:  # type: ignore[no-untyped-def]
        self.arrivals.append((arrival.subject, arrival.lane))
        if self.fail:
            raise RuntimeError("notification service down")


def test_pipeline_on_both_stores_notifies_once_per_new_message(
    tmp_path: Path, server: MailServer, store_url: str
) -> None:
    second = make_message(2, subject="second")
    server.append(make_message(1, subject="first"))
    server.append(second)
    setup = make_setup(tmp_path, server, url=store_url)
    hook = RecordingHook(fail=True)  # a failing hook must not stop sync
    sync_once(setup.store, setup.ring, setup.account, hook=hook)
    assert sorted(s for s, _ in hook.arrivals) == ["first", "second"]
    assert all(lane in {"PUSH", "MEETING", "QUEUE", "INFO", "SILENT"} for _, lane in hook.arrivals)
    assert setup.store.count("work") == 2
    server.append(second)  # the same bytes again: decided once, not announced again
    server.deliver(make_message(3, subject="third"))
    sync_once(setup.store, setup.ring, setup.account, hook=hook)
    assert sorted(s for s, _ in hook.arrivals) == ["first", "second", "third"]
    for subject in ("first", "second", "third"):
        with setup.store.sessions() as session:
            mid = session.scalar(select(MessageRow.id).where(MessageRow.subject == subject))
        assert [e["event"] for e in setup.store.ledger(mid)] == ["decided"]


def test_mailmoat_killed_mid_sync_resumes_without_gaps_or_duplicates(
    tmp_path: Path, server: MailServer
) -> None:
    """SIGKILL the `mailmoat sync --once` process itself part-way through a backfill."""
    import os
    import signal
    import subprocess
    import sys
    import time

    raws = [make_message(i, body="x" * 2000) for i in range(400)]
    client = server.imap()
    for start in range(0, len(raws), 100):
        client.multiappend("INBOX", raws[start : start + 100])
    client.logout()
    setup = make_setup(tmp_path, server)
    env = {**os.environ, "MAILMOAT_DATABASE_URL": f"sqlite:///{tmp_path / 'mailmoat.db'}",
           "MAILMOAT_KEY_FILE": str(tmp_path / "secret.key")}
    env.pop("MAILMOAT_SECRET_KEY", None)
    proc = subprocess.Popen([sys.executable, "-m", "mailmoat", "sync", "--once"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while setup.store.count("work") < 100 and time.monotonic() < deadline:
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    partial = setup.store.count("work")
    assert 100 <= partial < 400, f"the kill came too late to test anything ({partial})"

    report = sync_once(setup.store, setup.ring, setup.account)
    assert setup.store.count("work") == 400
    assert report.created == 400 - partial
    assert _locations(setup.store, setup.account.id or 0) == 400
    with setup.store.sessions() as session:
        assert session.scalar(select(func.count(func.distinct(MessageRow.subject)))) == 400


def test_removing_an_account_keeps_its_mail_and_drops_its_sync_state(
    tmp_path: Path, server: MailServer, store_url: str
) -> None:
    from mailmoat.accounts.registry import remove_account
    from mailmoat.store.tables.accounts import FolderStateRow, ServerActionRow

    server.append(make_message(1))
    setup = make_setup(tmp_path, server, url=store_url)
    sync_once(setup.store, setup.ring, setup.account)
    assert _locations(setup.store, setup.account.id or 0) == 1
    remove_account(setup.store, "work")
    with setup.store.sessions() as session:
        for table in (LocationRow, FolderStateRow, ServerActionRow):
            assert session.scalar(select(func.count()).select_from(table)) == 0
    assert setup.store.count("work") == 1
