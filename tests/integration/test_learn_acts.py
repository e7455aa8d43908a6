"""A person's approvals, rejections and triage dismissals land in the corrections ledger, in
the same transaction as the decision, with the decision trace they concern (real store,
SQLite and PostgreSQL); so do moves a person makes in their own mail client."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from mailmoat.act.errors import InvalidState
from mailmoat.act.service import ActionService
from mailmoat.core.lanes import Lane
from mailmoat.core.rules import CorrectionKind
from mailmoat.learn.service import Learning
from mailmoat.mail.runner import sync_once
from mailmoat.services.bootstrap import open_store
from mailmoat.store.tables.messages import MessageRow
from tests.support.imap_fixtures import make_setup, marketing, running
from tests.support.learn_mail import QUESTION, eml
from tests.support.mailserver import MailServer

ACCOUNT = "acct"


def setup(store_url: str) -> tuple[Any, ActionService, Learning, int]:
    store = open_store(store_url)
    mid = store.ingest(eml("Ann <ann@acme.example>", "Draft", QUESTION), "imap",
                       account=ACCOUNT).message_id
    return store, ActionService(store.engine), Learning(store, account=ACCOUNT), mid


def reply(mid: int) -> dict[str, Any]:
    return {"action": "send_email", "to": "ann@acme.example", "subject": "Re: Draft",
            "body": "Looks good."}


def test_approving_and_rejecting_record_the_decision_they_concern(store_url: str) -> None:
    store, service, learn, mid = setup(store_url)
    shown = store.get_message(mid, account=ACCOUNT)
    sent = service.propose(ACCOUNT, reply(mid), "sam", "web", reply_to_message=mid)
    service.approve(sent["id"], "sam")
    archive = service.propose(ACCOUNT, {"action": "archive", "message": mid}, "agent", "mcp")
    service.reject(archive["id"], "sam", note="keep it in the inbox")
    fresh = service.propose(ACCOUNT, {"action": "send_email", "to": "bob@acme.example",
                                      "subject": "Hello", "body": "Hi."}, "sam", "cli")
    service.approve(fresh["id"], "sam")  # answers no stored message: corrects no decision

    rows = learn.corrections()
    assert [(r["kind"], r["message_id"], r["actor"]) for r in rows] == [
        ("approval", mid, "sam"), ("rejection", mid, "sam")]
    assert rows[0]["note"] == f"send_email #{sent['id']}"
    assert rows[1]["note"] == "keep it in the inbox"
    assert all(r["shown_lane"] == shown["lane"] for r in rows)  # type: ignore[index]
    assert all(r["trace"] == shown["trace"] for r in rows)  # type: ignore[index]
    assert learn.facts("ann@acme.example").human_corrections == 2


def test_the_auto_sweeps_own_decisions_are_not_a_persons(store_url: str) -> None:
    _, service, learn, mid = setup(store_url)
    action = service.propose(ACCOUNT, {"action": "archive", "message": mid}, "auto:acct",
                             "auto")
    service.reject(action["id"], f"auto:{ACCOUNT}", note="refused by policy")
    assert learn.corrections() == []


def test_a_dismissed_triage_item_is_recorded_once(store_url: str) -> None:
    _, service, learn, mid = setup(store_url)
    assert service.add_triage(ACCOUNT, mid, "high confidence, but no history")
    item = service.triage(ACCOUNT)[0]
    service.resolve_triage(item["id"], "sam")
    service.resolve_triage(item["id"], "sam")  # already resolved: nothing new to learn
    rows = learn.corrections()
    assert [(r["kind"], r["message_id"], r["actor"]) for r in rows] == [("dismissal", mid, "sam")]
    assert rows[0]["note"] == "triage: high confidence, but no history"


def test_the_act_and_its_ledger_row_commit_together(store_url: str) -> None:
    store, _, learn, mid = setup(store_url)

    def broken(*args: object) -> None:
        raise RuntimeError("ledger unavailable")

    service = ActionService(store.engine, record_human_act=broken)
    action = service.propose(ACCOUNT, reply(mid), "sam", "web", reply_to_message=mid)
    with pytest.raises(RuntimeError):
        service.approve(action["id"], "sam")
    assert service.show(action["id"])["status"] == "pending"  # no approval without its row
    assert service.list(ACCOUNT, "approved") == []

    working = ActionService(store.engine)
    working.reject(action["id"], "sam")
    with pytest.raises(InvalidState):
        working.approve(action["id"], "sam")  # refused: and so nothing is recorded for it
    assert [r["kind"] for r in learn.corrections()] == ["rejection"]


def test_a_custom_recorder_receives_each_act(store_url: str) -> None:
    store, _, _, mid = setup(store_url)
    seen: list[tuple[str, int, CorrectionKind, str]] = []

    def recorder(session: object, account: str, message_id: int, kind: CorrectionKind,
                 actor: str, note: str, now: datetime) -> None:
        seen.append((account, message_id, kind, actor))

    service = ActionService(store.engine, record_human_act=recorder)
    action = service.propose(ACCOUNT, {"action": "mark_read", "message": mid}, "sam", "cli")
    service.approve(action["id"], "sam")
    assert seen == [(ACCOUNT, mid, CorrectionKind.APPROVAL, "sam")]


@pytest.fixture
def keyword_server() -> Iterator[MailServer]:
    with running(MailServer(keywords=True)) as started:
        yield started


def test_moves_in_the_persons_own_client_are_lane_changes_that_teach(
    tmp_path: Path, keyword_server: MailServer
) -> None:
    """mail/sync.py: a person dragging mail out of the SILENT folder in any IMAP client is a
    lane change like one made in mailmoat: two of them for a sender make a rule."""
    for i in (1, 2, 3):
        keyword_server.append(marketing(i))
    setup = make_setup(tmp_path, keyword_server, moves=True)
    sync_once(setup.store, setup.ring, setup.account)
    client = keyword_server.imap()
    try:
        client.select_folder("Moat/Silent")
        uids = sorted(client.search(["ALL"]))
        assert len(uids) == 3
        client.move(uids[:2], "INBOX")  # "show me these"
    finally:
        client.logout()
    report = sync_once(setup.store, setup.ring, setup.account)
    assert report.corrections == 2

    learn = Learning(setup.store, account="work")
    rows = learn.corrections()
    assert [(r["kind"], r["lane"], r["shown_lane"], r["actor"]) for r in rows] == \
        [("lane_change", "QUEUE", "SILENT", "imap:user-move")] * 2
    assert [(v.rule.key.value, v.rule.lane.value) for v in learn.rules()] == [
        ("deals@shop-offers.example", "QUEUE"), ("shop-offers.example", "QUEUE")]
    keyword_server.append(marketing(4))
    sync_once(setup.store, setup.ring, setup.account)
    with setup.store.sessions() as session:
        newest = max(session.scalars(select(MessageRow.id)))
    assert learn.lane(newest) is Lane.QUEUE  # the rule keeps this sender visible now
