"""Lane actions on a real IMAP server, seen by a separate client: keywords per lane,
opt-in folder moves, undo by a lane change, and a person's own move taken as a correction."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select

from mailmoat.core.lanes import Lane
from mailmoat.core.message import parse_message
from mailmoat.core.policy import Facts
from mailmoat.judge.cascade import classify
from mailmoat.mail.runner import sync_once
from mailmoat.store.mailbox_state import SyncBook
from mailmoat.store.tables.accounts import ServerActionRow
from mailmoat.store.tables.messages import MessageRow
from tests.support.imap_fixtures import Setup, make_message, make_setup, marketing, running
from tests.support.mailserver import MailServer


@pytest.fixture
def server() -> Iterator[MailServer]:
    with running(MailServer()) as started:
        yield started



def _folder(server: MailServer, folder: str) -> dict[str, tuple[bytes, ...]]:
    """Subject -> flags of every message in `folder`, as the person's own client sees it."""
    client = server.imap()
    try:
        if not client.folder_exists(folder):
            return {}
        client.select_folder(folder, readonly=True)
        uids = client.search(["ALL"])
        if not uids:
            return {}
        data = client.fetch(uids, ["FLAGS", "BODY.PEEK[HEADER.FIELDS (SUBJECT)]"])
        out = {}
        for item in data.values():
            header = item[b"BODY[HEADER.FIELDS (SUBJECT)]"].decode().strip()
            out[header.removeprefix("Subject: ")] = tuple(item[b"FLAGS"])
        return out
    finally:
        client.logout()


def _move_as_person(server: MailServer, subject: str, source: str, destination: str) -> None:
    client = server.imap()
    try:
        client.select_folder(source)
        uids = client.search(["SUBJECT", subject])
        assert len(uids) == 1
        client.move(uids, destination)
    finally:
        client.logout()


def _message_id(setup: Setup, subject: str) -> int:
    with setup.store.sessions() as session:
        return int(session.scalar(select(MessageRow.id).where(MessageRow.subject == subject)))


def _actions(setup: Setup) -> list[tuple[str, str, str]]:
    with setup.store.sessions() as session:
        return [(r.kind, r.argument, r.status) for r in session.scalars(
            select(ServerActionRow).order_by(ServerActionRow.id))]


def test_keyword_per_lane_by_default_and_idempotent(tmp_path: Path,
                                                    keyword_server: MailServer) -> None:
    keyword_server.append(make_message(1, subject="a friendly note"))
    keyword_server.append(marketing(2))
    setup = make_setup(tmp_path, keyword_server)
    sync_once(setup.store, setup.ring, setup.account)
    inbox = _folder(keyword_server, "INBOX")
    assert b"$MoatQueue" in inbox["a friendly note"]
    promo = next(k for k in inbox if k.startswith("50% off"))
    assert b"$MoatSilent" in inbox[promo]
    assert not keyword_server.imap().folder_exists("Moat/Silent"), "moved without opt-in"
    assert {status for _, _, status in _actions(setup)} == {"done"}

    recorded = _actions(setup)
    sync_once(setup.store, setup.ring, setup.account)
    assert _actions(setup) == recorded, "a second pass planned the same actions again"
    assert _folder(keyword_server, "INBOX") == inbox


def test_the_runner_selects_a_folder_once_for_all_its_lanes(
        tmp_path: Path, keyword_server: MailServer, monkeypatch: pytest.MonkeyPatch) -> None:
    # Each lane's keyword is a separate group of actions in the same folder; a SELECT per
    # group made the server open the folder again each time.
    from mailmoat.mail.server_actions import ActionRunner

    keyword_server.append(make_message(1, subject="a friendly note"))
    keyword_server.append(marketing(2))
    selected: list[str] = []
    run_pending = ActionRunner.run_pending

    def counting(runner: ActionRunner) -> int:
        select = runner.client.select_folder

        def select_folder(folder: str, *args: object, **kwargs: object) -> object:
            selected.append(folder)
            return select(folder, *args, **kwargs)

        monkeypatch.setattr(runner.client, "select_folder", select_folder)
        return run_pending(runner)

    monkeypatch.setattr(ActionRunner, "run_pending", counting)
    setup = make_setup(tmp_path, keyword_server)
    sync_once(setup.store, setup.ring, setup.account)
    assert {argument for _, argument, _ in _actions(setup)} == {"$MoatQueue", "$MoatSilent"}
    assert {status for _, _, status in _actions(setup)} == {"done"}
    assert selected == ["INBOX"]


def test_server_without_keywords_skips_cleanly(tmp_path: Path, server: MailServer) -> None:
    server.append(make_message(1))
    setup = make_setup(tmp_path, server)
    sync_once(setup.store, setup.ring, setup.account)
    assert [(k, s) for k, _, s in _actions(setup)] == [("add_keyword", "skipped")]


def test_moves_undo_and_corrections(tmp_path: Path, keyword_server: MailServer) -> None:
    keyword_server.append(make_message(1, subject="a friendly note"))
    keyword_server.append(marketing(2))
    keyword_server.append(marketing(3))
    setup = make_setup(tmp_path, keyword_server, moves=True)
    sync_once(setup.store, setup.ring, setup.account)

    silent = _folder(keyword_server, "Moat/Silent")
    assert len(silent) == 2 and all(b"$MoatSilent" in f for f in silent.values())
    assert list(_folder(keyword_server, "INBOX")) == ["a friendly note"]
    promo_a, promo_b = sorted(silent)
    sync_once(setup.store, setup.ring, setup.account)  # sees the moved copies; changes nothing
    assert len(_folder(keyword_server, "Moat/Silent")) == 2

    # Undo in mailmoat: a person says promo_a is worth a look. The next pass reverses the
    # server action (moves it back, swaps the keyword).
    mid = _message_id(setup, promo_a)
    raw = setup.store.get_message(mid, account="work")
    assert raw is not None
    with setup.store.sessions() as session:
        message = parse_message(session.get(MessageRow, mid).raw)
    setup.store.record_decision(mid, classify(message, Facts(pinned_lane=Lane.QUEUE)),
                                "corrected", "person:test")
    sync_once(setup.store, setup.ring, setup.account)
    inbox = _folder(keyword_server, "INBOX")
    assert promo_a in inbox and b"$MoatQueue" in inbox[promo_a]
    assert b"$MoatSilent" not in inbox[promo_a]
    assert promo_a not in _folder(keyword_server, "Moat/Silent")

    # The person moves promo_b back to the inbox in their own client: recorded as a
    # correction, and not fought (it stays in the inbox).
    _move_as_person(keyword_server, promo_b, "Moat/Silent", "INBOX")
    report = sync_once(setup.store, setup.ring, setup.account)
    assert report.corrections == 1
    mid_b = _message_id(setup, promo_b)
    events = [(e["event"], e["lane"], e["actor"]) for e in setup.store.ledger(mid_b)]
    assert events == [("decided", "SILENT", "system"), ("corrected", "QUEUE", "imap:user-move")]
    sync_once(setup.store, setup.ring, setup.account)
    inbox = _folder(keyword_server, "INBOX")
    assert promo_b in inbox and b"$MoatQueue" in inbox[promo_b]
    assert promo_b not in _folder(keyword_server, "Moat/Silent")

    # And a move into a lane folder says that lane.
    _move_as_person(keyword_server, "a friendly note", "INBOX", "Moat/Silent")
    report = sync_once(setup.store, setup.ring, setup.account)
    assert report.corrections == 1
    friendly = _message_id(setup, "a friendly note")
    assert setup.store.ledger(friendly)[-1]["lane"] == "SILENT"
    assert "a friendly note" in _folder(keyword_server, "Moat/Silent")
    book = SyncBook(setup.store, setup.account.id or 0)
    assert not book.has_pending(friendly)
    assert all(a["status"] in {"done", "skipped"} for a in book.actions(friendly))


def test_mark_read_lane_and_its_reversal(tmp_path: Path, keyword_server: MailServer) -> None:
    from mailmoat.accounts.registry import get_account, update_lane_actions
    from mailmoat.core.lane_actions import LaneAction, LaneActions, default_keyword

    keyword_server.append(marketing(1))
    keyword_server.append(marketing(2), flags=(b"\\Seen",))  # the person read this one
    setup = make_setup(tmp_path, keyword_server)
    lanes = {lane: LaneAction(keyword=default_keyword(lane)) for lane in Lane}
    lanes[Lane.SILENT] = LaneAction(keyword="$MoatSilent", mark_read=True)
    update_lane_actions(setup.store, "work", LaneActions(lanes))
    account = get_account(setup.store, "work")
    sync_once(setup.store, setup.ring, account)
    inbox = _folder(keyword_server, "INBOX")
    assert all(b"\\Seen" in flags for flags in inbox.values())
    with setup.store.sessions() as session:
        assert set(session.scalars(select(MessageRow.seen))) == {True}

    for subject in inbox:  # a person moves both to QUEUE in mailmoat
        mid = _message_id(setup, subject)
        with setup.store.sessions() as session:
            message = parse_message(session.get(MessageRow, mid).raw)
        setup.store.record_decision(mid, classify(message, Facts(pinned_lane=Lane.QUEUE)),
                                    "corrected", "person:test")
    sync_once(setup.store, setup.ring, account)
    after = _folder(keyword_server, "INBOX")
    unread, read = sorted(after, key=lambda s: s.endswith("2"))
    assert b"\\Seen" not in after[unread], "mailmoat's own read mark was not taken back"
    assert b"\\Seen" in after[read], "the person's own read mark was taken back"
    assert all(b"$MoatQueue" in f and b"$MoatSilent" not in f for f in after.values())


def test_reversal_undoes_what_was_applied_after_the_configuration_changed(
    tmp_path: Path, keyword_server: MailServer
) -> None:
    from mailmoat.accounts.registry import get_account, update_lane_actions
    from mailmoat.core.lane_actions import LaneAction, LaneActions

    keyword_server.append(marketing(1))
    setup = make_setup(tmp_path, keyword_server)
    sync_once(setup.store, setup.ring, setup.account)
    (subject,) = _folder(keyword_server, "INBOX")
    assert b"$MoatSilent" in _folder(keyword_server, "INBOX")[subject]

    lanes = dict(setup.account.lane_actions.lanes)
    lanes[Lane.SILENT] = LaneAction(keyword="$Junk")
    update_lane_actions(setup.store, "work", LaneActions(lanes))
    mid = _message_id(setup, subject)
    with setup.store.sessions() as session:
        message = parse_message(session.get(MessageRow, mid).raw)
    setup.store.record_decision(mid, classify(message, Facts(pinned_lane=Lane.QUEUE)),
                                "corrected", "person:test")
    sync_once(setup.store, setup.ring, get_account(setup.store, "work"))
    flags = _folder(keyword_server, "INBOX")[subject]
    assert b"$MoatSilent" not in flags and b"$MoatQueue" in flags and b"$Junk" not in flags
