"""Approved reversible actions reach the IMAP server: archive, trash, move, label, mark read,
snooze (and its wake-up), change lane. A separate IMAP client, as the person's own mail app,
sees each result; applying twice changes nothing more."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from mailmoat.act.audit import utcnow
from mailmoat.act.reversible import ReversibleApplier
from mailmoat.core.actions import SNOOZE_KEYWORD
from mailmoat.core.lane_actions import default_keyword
from mailmoat.core.lanes import Lane
from mailmoat.core.receipts import PayloadError
from mailmoat.mail.runner import sync_once
from mailmoat.services.outbox import build_worker
from mailmoat.store.tables.accounts import ServerActionRow
from mailmoat.store.tables.messages import DecisionRow, MessageRow
from tests.support.act_support import add_mail_account, incoming, rig, secret_key
from tests.support.mailserver import MailServer

NAMES = ("archive", "trash", "move", "label", "read", "snooze", "lane", "keep")


@pytest.fixture
def server() -> Iterator[MailServer]:
    running = MailServer(keywords=True).start()  # keeps keywords, like Dovecot or Fastmail
    try:
        yield running
    finally:
        running.stop()


def _synced(server: MailServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
            ) -> tuple[Any, Any, Any, dict[str, int]]:
    for name in NAMES:
        server.append(incoming(subject=f"about {name}", message_id=f"<{name}@client.example>"))
    r = rig(f"sqlite:///{tmp_path / 'm.db'}")
    ring = secret_key(monkeypatch)
    account = add_mail_account(r.store, ring, server)
    sync_once(r.store, ring, account)
    with r.store.sessions() as session:
        ids = {subject.removeprefix("about "): mid for mid, subject in session.execute(
            select(MessageRow.id, MessageRow.subject).where(MessageRow.account == "acct"))}
    return r, ring, account, ids


def _approve(r: Any, payload: dict[str, Any]) -> int:
    proposal = r.service.propose("acct", payload, "sam", "web")
    r.service.approve(proposal["id"], "sam")
    return int(proposal["id"])


def _where(server: MailServer) -> dict[str, tuple[str, set[str]]]:
    """Message-ID -> (folder, flags), as the person's own mail client sees it."""
    client = server.imap()
    found: dict[str, tuple[str, set[str]]] = {}
    try:
        for _flags, _delim, folder in client.list_folders():
            client.select_folder(folder, readonly=True)
            uids = client.search(["ALL"])
            if not uids:
                continue
            for data in client.fetch(uids, ["FLAGS", "BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)]"]
                                     ).values():
                header = next(v for k, v in data.items() if k.startswith(b"BODY"))
                mid = header.decode().split(":", 1)[1].strip()
                found[mid] = (folder, {f.decode() for f in data[b"FLAGS"]})
    finally:
        client.logout()
    return found


def test_approved_reversible_actions_are_applied_on_the_server_once(
    server: MailServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    r, ring, account, ids = _synced(server, tmp_path, monkeypatch)
    with r.store.sessions() as session:
        lane_before = session.get(DecisionRow, ids["lane"]).lane  # type: ignore[union-attr]
    target = "INFO" if lane_before != "INFO" else "QUEUE"
    until = utcnow() + timedelta(hours=2)
    actions = {
        "archive": _approve(r, {"action": "archive", "message": ids["archive"]}),
        "trash": _approve(r, {"action": "trash", "message": ids["trash"]}),
        "move": _approve(r, {"action": "move", "message": ids["move"], "folder": "Projects"}),
        "label": _approve(r, {"action": "label", "message": ids["label"], "label": "$Client"}),
        "read": _approve(r, {"action": "mark_read", "message": ids["read"]}),
        "snooze": _approve(r, {"action": "snooze", "message": ids["snooze"],
                               "until": until.isoformat()}),
        "lane": _approve(r, {"action": "change_lane", "message": ids["lane"], "lane": target}),
    }
    pending = r.service.propose("acct", {"action": "archive", "message": ids["keep"]},
                                "sam", "web")  # proposed, never approved

    finished = build_worker(r.url, "w1").applier.run(account)
    assert finished == {a: "done" for a in actions.values()}
    seen = _where(server)
    assert seen["<archive@client.example>"][0] == "Archive"
    assert seen["<trash@client.example>"][0] == "Trash"  # restorable: moved, not expunged
    assert seen["<move@client.example>"][0] == "Projects"
    assert seen["<label@client.example>"] [1] >= {"$Client"}
    assert "\\Seen" in seen["<read@client.example>"][1]
    assert SNOOZE_KEYWORD in seen["<snooze@client.example>"][1]
    folder, flags = seen["<lane@client.example>"]
    assert folder == "INBOX" and default_keyword(Lane(target)) in flags
    assert default_keyword(Lane(lane_before)) not in flags
    assert seen["<keep@client.example>"][0] == "INBOX"  # not approved: untouched
    assert "\\Seen" not in seen["<keep@client.example>"][1]
    for action_id in actions.values():
        assert r.service.show(action_id)["status"] == "done"
        assert [e["event"] for e in r.service.audit_trail(action_id)][-1] == "applied"
    assert r.service.show(pending["id"])["status"] == "pending"
    # The lane change is a human correction, in learn/'s ledger and the decision.
    with r.store.sessions() as session:
        decision = session.get(DecisionRow, ids["lane"])
        assert decision is not None and decision.lane == target and decision.branch == "human"
        rows = session.scalar(select(func.count()).select_from(ServerActionRow))

    # Again: nothing left to do, nothing planned twice, the server as it was.
    applier = ReversibleApplier(r.store, ring)
    assert applier.run(account) == {}
    with r.store.sessions() as session:
        assert session.scalar(select(func.count()).select_from(ServerActionRow)) == rows
    assert _where(server) == seen

    # The snooze's time passes: its keyword goes, the message never moved.
    later = ReversibleApplier(r.store, ring, clock=lambda: until + timedelta(minutes=1))
    later.run(account)
    woken = _where(server)["<snooze@client.example>"]
    assert woken[0] == "INBOX" and SNOOZE_KEYWORD not in woken[1]
    later.run(account)  # woken once
    with r.store.sessions() as session:
        assert session.scalar(select(func.count()).select_from(ServerActionRow)) == rows + 1


def test_an_action_on_a_message_out_of_reach_fails_with_a_reason(
    server: MailServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    r, ring, account, ids = _synced(server, tmp_path, monkeypatch)
    applier = ReversibleApplier(r.store, ring)
    _approve(r, {"action": "archive", "message": ids["archive"]})
    applier.run(account)
    # Archived: no longer in a synced folder, so a later label cannot reach it.
    label = _approve(r, {"action": "label", "message": ids["archive"], "label": "$Late"})
    assert applier.run(account) == {label: "failed"}
    shown = r.service.show(label)
    assert shown["status"] == "failed" and "not in a folder mailmoat syncs" in shown["note"]
    assert "$Late" not in _where(server)["<archive@client.example>"][1]


def test_a_label_on_a_server_without_keywords_fails_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = MailServer().start()  # mail-devel as shipped keeps no custom keywords
    try:
        r, ring, account, ids = _synced(plain, tmp_path, monkeypatch)
        label = _approve(r, {"action": "label", "message": ids["label"], "label": "$Client"})
        assert ReversibleApplier(r.store, ring).run(account) == {label: "failed"}
        assert "keeps no custom keywords" in r.service.show(label)["note"]
    finally:
        plain.stop()


@pytest.mark.parametrize("payload", [
    {"action": "move", "folder": ""},
    {"action": "move", "folder": "A\r\nB"},
    {"action": "move"},
    {"action": "label", "label": "two words"},
    {"action": "label", "label": "\\Deleted"},
    {"action": "snooze", "until": "tomorrow"},
    {"action": "snooze", "until": "2026-12-04T09:00:00"},  # no UTC offset
    {"action": "change_lane", "lane": "inbox"},
])
def test_payloads_that_could_not_run_are_refused_at_proposal(
    tmp_path: Path, payload: dict[str, Any]
) -> None:
    r = rig(f"sqlite:///{tmp_path / 'm.db'}")
    from mailmoat.store import Incoming

    [stored] = r.store.ingest_many([Incoming(incoming(), "test", "INBOX")], "acct")
    with pytest.raises(PayloadError):
        r.service.propose("acct", {**payload, "message": stored.message_id}, "sam", "cli")


def test_an_unreachable_account_leaves_approved_actions_for_the_next_pass(
    server: MailServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A token endpoint down or a server away: nothing is lost, nothing crashes the worker."""
    from mailmoat.accounts.oauth import TokenError

    r, ring, account, ids = _synced(server, tmp_path, monkeypatch)
    action = _approve(r, {"action": "mark_read", "message": ids["read"]})

    def down(*_args: object) -> None:
        raise TokenError("token endpoint https://login.example/token unreachable")

    assert ReversibleApplier(r.store, ring, opener=down).run(account) == {}
    assert r.service.show(action)["status"] == "approved"
    assert ReversibleApplier(r.store, ring).run(account) == {action: "done"}
    assert "\\Seen" in _where(server)["<read@client.example>"][1]
