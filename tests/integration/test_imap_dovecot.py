"""Sync against Dovecot, a real server with CONDSTORE and QRESYNC (mail-devel has neither):
incremental flags by CHANGEDSINCE, expunges by VANISHED, lane keywords and moves."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import select

from mailmoat.mail.runner import open_client, sync_once
from mailmoat.mail.sync import MailboxSync, PassReport
from mailmoat.store.mailbox_state import SyncBook
from mailmoat.store.tables.messages import MessageRow
from tests.support.dovecot import Dovecot
from tests.support.imap_fixtures import Setup, make_message, make_setup, marketing


class Recording:
    """The real client, with a note of each FETCH of flags and each SEARCH it sent."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.flag_fetches: list[tuple[list[str] | None, list[int]]] = []
        self.searches: list[list[Any]] = []
        real_fetch, real_search = client.fetch, client.search

        def fetch(uids: Any, data: list[str], modifiers: list[str] | None = None) -> Any:
            got = real_fetch(uids, data, modifiers=modifiers)
            if list(data) == ["FLAGS"]:
                self.flag_fetches.append((modifiers, sorted(got)))
            return got

        def search(criteria: Any = "ALL", charset: str | None = None) -> Any:
            self.searches.append(list(criteria) if isinstance(criteria, list) else [criteria])
            return real_search(criteria, charset)

        client.fetch, client.search = fetch, search


def _pass(setup: Setup, syncer: MailboxSync) -> tuple[PassReport, Recording]:
    client = open_client(setup.store, setup.ring, setup.account)
    recording = Recording(client)
    try:
        return syncer.run_pass(client), recording
    finally:
        client.logout()


def _uid(server: Dovecot, subject: str, folder: str = "INBOX") -> int:
    client = server.imap()
    try:
        client.select_folder(folder, readonly=True)
        (uid,) = client.search(["SUBJECT", subject])
        return int(uid)
    finally:
        client.logout()


def _moat(item: dict[bytes, Any]) -> tuple[bytes, ...]:
    return tuple(f for f in item[b"FLAGS"] if f.startswith(b"$Moat"))


def _seen(setup: Setup) -> dict[str, bool | None]:
    with setup.store.sessions() as session:
        return {subject: seen for subject, seen in session.execute(
            select(MessageRow.subject, MessageRow.seen))}


def test_condstore_changedsince_keeps_seen_in_step(tmp_path: Path, dovecot: Dovecot) -> None:
    for i in range(5):
        dovecot.append(make_message(i, subject=f"note {i}"))
    setup = make_setup(tmp_path, dovecot)  # type: ignore[arg-type]
    syncer = MailboxSync(setup.store, setup.account)
    first, _ = _pass(setup, syncer)
    assert first.created == 5
    state = SyncBook(setup.store, setup.account.id or 0).folder_state("INBOX")
    assert state is not None and state.highest_modseq is not None
    assert set(_seen(setup).values()) == {False}
    # The lane keywords the first pass added changed the messages after its SELECT: the
    # next pass reads them back once (only those), and then the folder is quiet.
    settle, _ = _pass(setup, syncer)
    assert settle.flag_changes == 5
    state = SyncBook(setup.store, setup.account.id or 0).folder_state("INBOX")
    assert state is not None and state.highest_modseq is not None

    # The person reads one message in their own mail client.
    reader = dovecot.imap()
    reader.select_folder("INBOX")
    reader.add_flags([_uid(dovecot, "note 2")], [b"\\Seen"])
    reader.logout()

    second, recording = _pass(setup, syncer)
    assert second.flag_changes == 1
    assert _seen(setup) == {f"note {i}": i == 2 for i in range(5)}
    (modifiers, answered), = recording.flag_fetches
    assert modifiers == [f"CHANGEDSINCE {state.highest_modseq}", "VANISHED"]
    assert answered == [_uid(dovecot, "note 2")], "more than the changed message came back"

    third, recording = _pass(setup, syncer)
    assert third.flag_changes == 0
    assert [answered for _, answered in recording.flag_fetches] == [[]]


def test_qresync_vanished_forgets_expunged_mail(tmp_path: Path, dovecot: Dovecot) -> None:
    for i in range(4):
        dovecot.append(make_message(i, subject=f"note {i}"))
    setup = make_setup(tmp_path, dovecot)  # type: ignore[arg-type]
    syncer = MailboxSync(setup.store, setup.account)
    _pass(setup, syncer)
    book = SyncBook(setup.store, setup.account.id or 0)
    state = book.folder_state("INBOX")
    assert state is not None
    gone = _uid(dovecot, "note 1")
    assert gone in book.known_uids("INBOX", state.uidvalidity)

    # The person deletes one message for good in their own client.
    other = dovecot.imap()
    other.select_folder("INBOX")
    other.delete_messages([gone])
    other.expunge()
    other.logout()

    _, recording = _pass(setup, syncer)
    assert sorted(book.known_uids("INBOX", state.uidvalidity)) == sorted(
        _uid(dovecot, f"note {i}") for i in (0, 2, 3))
    assert ["ALL"] not in recording.searches, "listed the folder instead of reading VANISHED"
    assert setup.store.count("work") == 4, "mailmoat's own copy is never deleted"


def test_lane_keywords_moves_and_a_move_back_on_dovecot(tmp_path: Path,
                                                      dovecot: Dovecot) -> None:
    """Dovecot's Maildir separates folder levels with ".": the configured Moat/Silent is
    Moat.Silent there, and a person's move back out of it is still a correction."""
    dovecot.append(make_message(1, subject="a friendly note"))
    dovecot.append(marketing(2))
    setup = make_setup(tmp_path, dovecot, moves=True)  # type: ignore[arg-type]
    sync_once(setup.store, setup.ring, setup.account)

    client = dovecot.imap()
    try:
        client.select_folder("INBOX", readonly=True)
        inbox = client.fetch(client.search(["ALL"]), ["FLAGS"])
        assert [_moat(item) for item in inbox.values()] == [(b"$MoatQueue",)]
        client.select_folder("Moat.Silent")
        silent = client.fetch(client.search(["ALL"]), ["FLAGS"])
        assert [_moat(item) for item in silent.values()] == [(b"$MoatSilent",)]
        client.move(list(silent), "INBOX")  # the person disagrees
    finally:
        client.logout()
    report = sync_once(setup.store, setup.ring, setup.account)
    assert report.created == 0 and report.corrections == 1
    with setup.store.sessions() as session:
        subjects = [s for s in session.scalars(select(MessageRow.subject)) if "50% off" in s]
    promo = setup.store.list_messages("QUEUE", "work")
    assert [m["subject"] for m in promo if "50% off" in m["subject"]] == subjects
    client = dovecot.imap()
    try:
        client.select_folder("INBOX", readonly=True)
        flags = sorted(_moat(item) for item in client.fetch(client.search(["ALL"]),
                                                              ["FLAGS"]).values())
        assert flags == [(b"$MoatQueue",), (b"$MoatQueue",)]
    finally:
        client.logout()


def test_archive_and_trash_go_to_the_servers_special_use_folders(
    tmp_path: Path, dovecot: Dovecot
) -> None:
    from mailmoat.act.reversible import ReversibleApplier
    from mailmoat.act.service import ActionService

    for i in range(3):
        dovecot.append(make_message(i, subject=f"note {i}"))
    client = dovecot.imap()
    try:  # the person's own client made them; LIST now flags them \Archive and \Trash
        client.create_folder("Archived Mail")
        client.create_folder("Deleted Items")
    finally:
        client.logout()
    setup = make_setup(tmp_path, dovecot)  # type: ignore[arg-type]
    sync_once(setup.store, setup.ring, setup.account)
    with setup.store.sessions() as session:
        ids = {subject: mid for mid, subject in session.execute(
            select(MessageRow.id, MessageRow.subject).where(MessageRow.account == "work"))}
    service = ActionService(setup.store.engine)
    approved = []
    for action, subject in (("archive", "note 0"), ("trash", "note 1")):
        proposal = service.propose("work", {"action": action, "message": ids[subject]},
                                   "sam", "web")
        service.approve(proposal["id"], "sam")
        approved.append(proposal["id"])

    finished = ReversibleApplier(setup.store, setup.ring).run(setup.account)
    assert finished == {a: "done" for a in approved}
    assert [_subjects(dovecot, f) for f in ("Archived Mail", "Deleted Items", "INBOX")] == [
        ["note 0"], ["note 1"], ["note 2"]]
    client = dovecot.imap()
    try:  # nothing guessed: no folder named like the defaults was made beside them
        names = {name for _flags, _sep, name in client.list_folders()}
    finally:
        client.logout()
    assert not names & {"Archive", "Trash"}


def _subjects(server: Dovecot, folder: str) -> list[str]:
    client = server.imap()
    try:
        client.select_folder(folder, readonly=True)
        uids = client.search(["ALL"])
        found = client.fetch(uids, ["BODY.PEEK[HEADER.FIELDS (SUBJECT)]"]) if uids else {}
        return sorted(next(v for k, v in d.items() if k.startswith(b"BODY")).decode()
                      .split(":", 1)[1].strip() for d in found.values())
    finally:
        client.logout()
