"""Against real Dovecot: the user's own mail is stored but never judged (issue 16 bug 5), and a
sync SIGKILLed between recording locations and planning lane actions is repaired by the next
pass (issue 20): every stored mail ends with its lane keyword on the server."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from mailmoat.accounts.registry import AccountSettings, Submission, add_account, get_account
from mailmoat.accounts.secrets import load_key_ring
from mailmoat.act.auto import AutoSweep
from mailmoat.act.service import ActionService
from mailmoat.core.autonomy import Mode
from mailmoat.core.lane_actions import default_keyword as keyword_for
from mailmoat.core.lanes import Lane
from mailmoat.core.local_scorer import score_local
from mailmoat.learn.service import Learning
from mailmoat.mail.runner import sync_once
from mailmoat.services.bootstrap import open_store
from mailmoat.store import messages as messages_module
from mailmoat.store.mailbox_state import SyncBook
from mailmoat.store.tables.accounts import LocationRow
from mailmoat.store.tables.messages import DecisionRow, LedgerRow, MessageRow
from tests.support.dovecot import Dovecot
from tests.support.imap_fixtures import make_message, marketing
from tests.support.mailserver import HOST, LoopbackImap, MailServer

SENT = "Outgoing Copies"  # \Sent by SPECIAL-USE only: no name mailmoat would guess


def _append_all(server: LoopbackImap, items: list[tuple[str, bytes]]) -> None:
    client = server.imap()
    try:
        for folder in {f for f, _ in items}:
            if not client.folder_exists(folder):
                client.create_folder(folder)
        for folder, raw in items:
            client.append(folder, raw)
    finally:
        client.logout()


def _flags(server: LoopbackImap, folder: str) -> dict[int, tuple[bytes, ...]]:
    client = server.imap()
    try:
        client.select_folder(folder, readonly=True)
        uids = client.search(["ALL"])
        got = client.fetch(uids, ["FLAGS"]) if uids else {}
        return {uid: tuple(item[b"FLAGS"]) for uid, item in got.items()}
    finally:
        client.logout()


def _mine(n: int, to: str = "Ann <ann@acme.example>", subject: str | None = None) -> bytes:
    return (f"From: Me <test@example.org>\r\nTo: {to}\r\n"
            f"Subject: {subject or f'URGENT: production is down, call me now {n}'}\r\n"
            f"Message-ID: <mine{n}@example.org>\r\n\r\nPlease call me asap. {n}\r\n").encode()


def test_own_mail_is_stored_for_history_but_never_judged_or_marked(
    tmp_path: Path, dovecot: Dovecot
) -> None:
    _append_all(dovecot, [
        (SENT, _mine(1)), (SENT, _mine(2, to="Bob <bob@b.example>")),
        (SENT, _mine(3, subject="Mine: 50% off everything, unsubscribe")),
        ("Notes", _mine(4, to="Carol <carol@c.example>")),  # From me, outside the inbox
        ("INBOX", _mine(5, subject="From me in the inbox")),  # anyone can write that From
        ("INBOX", make_message(6, subject="a colleague asks")), ("INBOX", marketing(7)),
    ])
    store = open_store(f"sqlite:///{tmp_path / 'm.db'}")
    ring = load_key_ring(tmp_path / "secret.key")
    add_account(store, ring, AccountSettings(
        name="work", host=HOST, port=dovecot.imap_port, username=dovecot.user, tls="plain",
        folders=("INBOX", SENT, "Notes")), dovecot.password)
    account = get_account(store, "work")
    report = sync_once(store, ring, account)
    assert report.own == 4 and report.created == 3

    with store.sessions() as session:
        stored = dict(session.execute(select(MessageRow.subject, MessageRow.id)).all())
        judged = set(session.scalars(select(DecisionRow.message_id)))
        traced = set(session.scalars(select(LedgerRow.message_id)))
    assert len(stored) == 7
    own = {stored[s] for s in stored if s.startswith(("URGENT", "Mine:"))}
    assert len(own) == 4
    assert not own & judged and not own & traced  # no scorer ran, no lane, no trace
    assert stored["From me in the inbox"] in judged
    book = SyncBook(store, account.id or 0)
    assert all(book.actions(mid) == [] for mid in own)  # no lane action planned
    for folder in (SENT, "Notes"):  # and none reached the server
        assert all(not any(f.startswith(b"$Moat") for f in flags)
                   for flags in _flags(dovecot, folder).values())
    assert any(f.startswith(b"$Moat") for flags in _flags(dovecot, "INBOX").values()
               for f in flags)
    # Sender history still knows whom the user wrote to (from the Sent folder).
    learning = Learning(store, account="work")
    assert learning.facts("ann@acme.example").replies_sent == 2
    assert learning.facts("bob@b.example").replies_sent == 1
    # From me outside a Sent folder is not trusted for history: anyone can write a From.
    assert learning.facts("carol@c.example").replies_sent == 0
    # Nothing of it reaches the AUTO sweep (its triage list and replies read the same list).
    service = ActionService(store.engine)
    service.set_mode("work", Mode.AUTO, "ann", guidelines="Be brief.", daily_cap=10)
    sweep = AutoSweep(store, service)
    assert not {c.message_id for c in sweep._candidates("work")} & own
    ran = sweep.run("work")
    assert not set(ran.triaged) & own and not {m for m, _ in ran.refused} & own
    assert not {t["message_id"] for t in service.triage("work", include_resolved=True)} & own
    # A second pass finds them known and still leaves them alone.
    again = sync_once(store, ring, account)
    assert again.created == 0 and again.actions_planned == 0
    with store.sessions() as session:
        assert session.scalar(select(func.count()).select_from(DecisionRow)) == 3


class RecordingScorer:
    """The local scorer, noting the subject of every message it is asked to read."""

    name = "recording"

    def __init__(self) -> None:
        self.read: list[str] = []

    def score(self, message: Any, signals: Any, facts: Any) -> Any:
        self.read.append(message.subject)
        return score_local(message, signals)


def test_a_sent_folder_by_name_or_by_configuration_is_not_judged(
    tmp_path: Path, keyword_server: MailServer
) -> None:
    """mail-devel has no SPECIAL-USE: the usual name `Sent` and the account's configured
    Sent folder still say it; no scorer is asked about anything in them."""
    alias = "Me <me@alias.example>"  # not the account's address: the folder alone decides
    _append_all(keyword_server, [
        ("Sent", _mine(1).replace(b"Me <test@example.org>", alias.encode())),
        ("Kopien", _mine(2, to="Bob <bob@b.example>").replace(
            b"Me <test@example.org>", alias.encode())),
        ("INBOX", make_message(3, subject="a colleague asks")),
    ])
    store = open_store(f"sqlite:///{tmp_path / 'm.db'}")
    scorer = RecordingScorer()
    store.scorers = [scorer]
    ring = load_key_ring(tmp_path / "secret.key")
    add_account(store, ring, AccountSettings(
        name="work", host=HOST, port=keyword_server.imap_port, username=keyword_server.user,
        tls="plain", folders=("INBOX", "Sent", "Kopien"),
        submission=Submission(host=HOST, port=keyword_server.smtp_port, tls="plain",
                              sent_folder="Kopien")), keyword_server.password)
    report = sync_once(store, ring, get_account(store, "work"))
    assert (report.own, report.created) == (2, 1)
    assert scorer.read == ["a colleague asks"]  # the scorer never read the user's own mail
    for folder in ("Sent", "Kopien"):
        assert all(not any(f.startswith(b"$Moat") for f in flags)
                   for flags in _flags(keyword_server, folder).values())
    assert any(f.startswith(b"$Moat") for flags in _flags(
        keyword_server, "INBOX").values() for f in flags)
    learning = Learning(store, account="work")
    assert learning.facts("ann@acme.example").replies_sent == 1
    assert learning.facts("bob@b.example").replies_sent == 1


def test_an_inbox_configured_as_the_sent_folder_is_still_judged_and_marked(
    tmp_path: Path, keyword_server: MailServer
) -> None:
    """A server that files sent copies in INBOX (the chaos topology's mail-devel) leads to a
    Sent folder configured as INBOX: the inbox stays an inbox, every mail in it is decided
    and marked (issue 20: it was all stored as the user's own mail, never decided)."""
    _append_all(keyword_server, [("INBOX", make_message(n, subject=f"inbox {n}"))
                                 for n in range(4)] + [("INBOX", _mine(9))])
    store = open_store(f"sqlite:///{tmp_path / 'm.db'}")
    ring = load_key_ring(tmp_path / "secret.key")
    add_account(store, ring, AccountSettings(
        name="work", host=HOST, port=keyword_server.imap_port, username=keyword_server.user,
        tls="plain", submission=Submission(host=HOST, port=keyword_server.smtp_port,
                                           tls="plain", sent_folder="INBOX")),
        keyword_server.password)
    report = sync_once(store, ring, get_account(store, "work"))
    assert (report.own, report.created) == (0, 5)
    with store.sessions() as session:
        assert session.scalar(select(func.count()).select_from(DecisionRow)) == 5
    flags = _flags(keyword_server, "INBOX")
    assert len(flags) == 5
    assert all(sum(f.startswith(b"$Moat") for f in fl) == 1 for fl in flags.values())


def test_mail_stored_without_a_decision_is_decided_by_the_next_pass(
    tmp_path: Path, keyword_server: MailServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pass that stored inbox mail as the user's own (the rule an older build applied to a
    Sent folder configured as INBOX) left it stored and located, with no decision, no plan
    and no mark. The next pass decides it (`decided_late`), plans and marks it, once."""
    _append_all(keyword_server, [("INBOX", make_message(n, subject=f"inbox {n}"))
                                 for n in range(5)])
    store = open_store(f"sqlite:///{tmp_path / 'm.db'}")
    ring = load_key_ring(tmp_path / "secret.key")
    add_account(store, ring, AccountSettings(
        name="work", host=HOST, port=keyword_server.imap_port, username=keyword_server.user,
        tls="plain"), keyword_server.password)
    account = get_account(store, "work")
    with monkeypatch.context() as patch:  # the older rule: this inbox was "own mail"
        patch.setattr(messages_module, "is_own_mail", lambda *_args: True)
        first = sync_once(store, ring, account)
    assert (first.own, first.created) == (5, 0)
    with store.sessions() as session:
        assert session.scalar(select(func.count()).select_from(DecisionRow)) == 0
    assert store.undecided("work") != []
    assert not any(f.startswith(b"$Moat") for fl in _flags(keyword_server, "INBOX").values()
                   for f in fl)

    second = sync_once(store, ring, account)
    assert second.decided_late == 5 and second.repaired == 5 and second.created == 0
    assert store.undecided("work") == []
    flags = _flags(keyword_server, "INBOX")
    assert len(flags) == 5
    assert all(sum(f.startswith(b"$Moat") for f in fl) == 1 for fl in flags.values())
    with store.sessions() as session:
        ledger = Counter(session.scalars(select(LedgerRow.message_id)))
    assert sorted(ledger.values()) == [1] * 5  # one decision each
    third = sync_once(store, ring, account)
    assert third.decided_late == 0 and third.repaired == 0 and third.actions_planned == 0


def _sync_process(tmp_path: Path, crash: bool) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("MAILMOAT_") or k == "MAILMOAT_TEST_PG"}
    env.update({
        "MAILMOAT_DATABASE_URL": f"sqlite:///{tmp_path / 'm.db'}",
        "MAILMOAT_KEY_FILE": str(tmp_path / "secret.key"),
        "MAILMOAT_PARSE_WORKERS": "1",
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "PYTHONPATH": os.pathsep.join(p for p in sys.path if p),
    })
    if crash:
        env["MAILMOAT_SYNC_CRASH_AT"] = "after_locations"
    return subprocess.run([sys.executable, "-m", "mailmoat", "sync", "--once"], env=env,
                          capture_output=True, timeout=300)


def _keywords_missing(store: Any, server: Dovecot) -> list[int]:
    """Stored messages whose lane keyword is not on the server."""
    flags = _flags(server, "INBOX")
    with store.sessions() as session:
        rows = session.execute(
            select(LocationRow.uid, DecisionRow.lane)
            .join(DecisionRow, DecisionRow.message_id == LocationRow.message_id)
            .where(LocationRow.folder == "INBOX")).all()
    assert {uid for uid, _ in rows} <= set(flags)
    return [uid for uid, lane in rows
            if keyword_for(Lane(lane)).encode() not in flags.get(uid, ())]


def test_a_sync_killed_between_locations_and_plans_is_repaired_by_the_next_pass(
    tmp_path: Path, dovecot: Dovecot
) -> None:
    total = 600  # a large pull: prepared by a parse worker, stored 500 at a time
    _append_all(dovecot, [("INBOX", marketing(i) if i % 3 == 0 else make_message(i))
                          for i in range(total)])
    store = open_store(f"sqlite:///{tmp_path / 'm.db'}")
    add_account(store, load_key_ring(tmp_path / "secret.key"), AccountSettings(
        name="work", host=HOST, port=dovecot.imap_port, username=dovecot.user, tls="plain"),
        dovecot.password)
    account = get_account(store, "work")

    killed = _sync_process(tmp_path, crash=True)
    assert killed.returncode == -signal.SIGKILL, killed.stderr.decode()[-2000:]
    book = SyncBook(store, account.id or 0)
    stranded = book.unplanned("work")
    assert len(stranded) == 500  # stored and located, no lane action planned: the window
    missing = _keywords_missing(store, dovecot)
    assert len(missing) == 500

    finished = _sync_process(tmp_path, crash=False)
    assert finished.returncode == 0, finished.stderr.decode()[-2000:]
    assert book.unplanned("work") == []
    assert store.count("work") == total
    assert len(_flags(dovecot, "INBOX")) == total
    assert _keywords_missing(store, dovecot) == []  # every mail marked on the server
    with store.sessions() as session:
        located = session.scalar(select(func.count()).select_from(LocationRow))
    assert located == total
    # Planned once: one keyword action per repaired message, not one per pass.
    assert all(len(book.actions(u.message_id)) == 1 for u in stranded[:50])
