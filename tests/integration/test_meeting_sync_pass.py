"""Meeting proposals without being asked: mail arrives by IMAP (mail-devel), the sync pass
proposes the reply and the event for each new MEETING mail against Radicale (CalDAV), and
nothing runs until a person approves; the AUTO sweep proposes too and never approves."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from mailmoat.act.errors import PolicyRefused
from mailmoat.act.service import ActionService
from mailmoat.calendar.caldav_source import CalDAVSource
from mailmoat.calendar.registry import CalendarSettings, add_calendar
from mailmoat.core.autonomy import Mode
from mailmoat.services import meeting_sweep
from mailmoat.services.bootstrap import open_store
from mailmoat.services.meeting_proposals import approve_meeting, proposals_for
from mailmoat.services.sync_pass import SyncPass
from mailmoat.store.tables.act import ActionRow, TriageRow
from mailmoat.store.tables.messages import MessageRow
from tests.e2e.test_meeting_e2e import busy_event, deliver_meeting_mails, plain_mail, replies
from tests.support import act_support
from tests.support.act_support import add_mail_account, secret_key
from tests.support.mailserver import MailServer
from tests.support.radicale_server import PASSWORD, USER, Radicale

mail_server = act_support.mail_server  # a fixture of tests/support/act_support.py
server = act_support.server  # a fixture of tests/support/act_support.py
BEFORE = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)  # the mails' own day: their slots ahead


@pytest.fixture
def world(mail_server: MailServer, radicale: Radicale, tmp_path: Path,
          monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    monkeypatch.setattr(meeting_sweep, "now", lambda: BEFORE)
    store = open_store(f"sqlite:///{tmp_path / 'm.db'}")
    ring = secret_key(monkeypatch)
    account = add_mail_account(store, ring, mail_server)
    cal_url = radicale.make_calendar(f"sp-{tmp_path.name[-8:]}")
    add_calendar(store, ring, CalendarSettings("work", cal_url, username=USER, account="acct",
                                               zone="Europe/Berlin"), PASSWORD)
    # Booked after `calendar add` and never synced by hand: the pass must read it itself.
    busy_event(cal_url, "busy-wed", "20261202T140000", "20261202T150000")
    deliver_meeting_mails(mail_server)
    return {"store": store, "ring": ring, "account": account, "cal_url": cal_url,
            "server": mail_server, "actions": ActionService(store.engine)}


def _ids(store: Any) -> dict[str, int]:
    import email
    import email.policy

    with store.sessions() as session:
        rows = session.execute(select(MessageRow.id, MessageRow.raw)).all()
    return {str(email.message_from_bytes(raw, policy=email.policy.default)["Message-ID"]): mid
            for mid, raw in rows}


def test_the_sync_pass_proposes_for_new_meeting_mail_and_waits_for_a_person(
        world: dict[str, Any]) -> None:
    store, actions = world["store"], world["actions"]
    passes = SyncPass.on(store, world["ring"])
    passes.run(world["account"])
    ids = _ids(store)
    answers = {mid: [p.answer for p in proposals_for(store, ids[mid])] for mid in ids}
    assert answers == {"<invite-1@acme-corp.example>": ["accept"],
                       "<free-1@partnerco.example>": ["accept"],
                       "<clash-1@partnerco.example>": ["decline"],  # read the fresh calendar
                       "<vague-1@partnerco.example>": []}  # unsure: nothing proposed
    with store.sessions() as session:
        rows = session.scalars(select(ActionRow)).all()
    assert len(rows) == 5  # invite: reply + event, free: reply + event, clash: reply
    assert {(r.source, r.status) for r in rows} == {("sync", "pending")}
    assert passes.outcomes == []  # the drain after the pass found nothing approved
    clash = proposals_for(store, ids["<clash-1@partnerco.example>"])[0]
    body = actions.show(clash.reply_action_id)["payload"]["body"]
    assert "15:00-15:30" in body  # the alternative after the booked hour, Berlin time
    actions.set_mode("acct", Mode.AUTO, "sam", daily_cap=5)
    with pytest.raises(PolicyRefused, match="AUTO sweep's own"):
        actions.approve_unattended(rows[0].id, "acct")
    # A second pass proposes nothing again; a person's one approval fires the invite's two.
    passes.run(world["account"])
    with store.sessions() as session:
        assert len(session.scalars(select(ActionRow)).all()) == 5
    approve_meeting(store, actions, ids["<invite-1@acme-corp.example>"], "sam")
    passes.run(world["account"])
    assert sorted(o.state for o in passes.outcomes) == ["done", "done"]
    assert len(replies(world["server"], "jamie@acme-corp.example")) == 1
    assert CalDAVSource(world["cal_url"], USER, PASSWORD).get(
        "roadmap-sync-42@acme-corp.example") is not None
    assert replies(world["server"], "mina@partnerco.example") == []  # not approved: not sent


def test_the_auto_sweep_proposes_meetings_and_never_sends_or_approves_them(
        world: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    from mailmoat.act.auto import Draft

    store, actions = world["store"], world["actions"]
    actions.set_mode("acct", Mode.AUTO, "sam", daily_cap=50)
    drafted: list[str] = []

    class Drafter:  # a model that would answer anything: it must not be asked for MEETING
        def draft(self, request: Any) -> Draft:
            drafted.append(request.subject)
            return Draft(request.sender, "Re: " + request.subject, "Sure.")

    # The arrival hook off: the sweep alone must propose for what it finds.
    monkeypatch.setattr(SyncPass, "_propose_meetings", lambda *_: None)
    passes = SyncPass(store, world["ring"], drafter=Drafter())
    passes.run(world["account"])
    ids = _ids(store)
    proposed = {mid for mid in ids if proposals_for(store, ids[mid])}
    assert proposed == {"<invite-1@acme-corp.example>", "<free-1@partnerco.example>",
                        "<clash-1@partnerco.example>"}
    # The model was asked only to word the meeting replies (with the times as facts); its
    # ungrounded "Sure." was not used, and no free-form reply was proposed for meeting mail.
    assert len(drafted) == 3
    with store.sessions() as session:
        rows = session.scalars(select(ActionRow)).all()
        triage = {t.message_id: t.reason for t in session.scalars(select(TriageRow))}
    assert rows and {(r.source, r.status) for r in rows} == {("sync", "pending")}
    assert all(r.payload.get("body") != "Sure." for r in rows)
    assert "unsure" in triage[ids["<vague-1@partnerco.example>"]]
    passes.run(world["account"])  # the next sweep leaves them be
    with store.sessions() as session:
        assert len(session.scalars(select(ActionRow)).all()) == len(rows)
    assert passes.outcomes == []
    assert replies(world["server"], "mina@partnerco.example") == []
    assert replies(world["server"], "jamie@acme-corp.example") == []


def test_a_meeting_already_past_is_not_proposed(world: dict[str, Any],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(meeting_sweep, "now", lambda: datetime(2027, 1, 1, tzinfo=UTC))
    store = world["store"]
    SyncPass.on(store, world["ring"]).run(world["account"])
    assert all(proposals_for(store, mid) == [] for mid in _ids(store).values())


def test_the_idle_watcher_proposes_for_meeting_mail_it_brings(world: dict[str, Any]) -> None:
    import threading
    import time

    store = world["store"]
    stop = threading.Event()
    watcher = threading.Thread(target=SyncPass.on(store, world["ring"]).watch,
                               args=(world["account"], stop), kwargs={"poll_seconds": 120})
    watcher.start()
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and len(_ids(store)) < 4:
            time.sleep(0.1)
        assert len(_ids(store)) == 4  # the first pass
        world["server"].deliver(plain_mail("Could we have a call on Friday at 11am?",
                                           "<idle-1@partnerco.example>"))
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not (
                "<idle-1@partnerco.example>" in _ids(store)
                and proposals_for(store, _ids(store)["<idle-1@partnerco.example>"])):
            time.sleep(0.1)
    finally:
        stop.set()
        watcher.join(timeout=15)
    ids = _ids(store)
    assert [p.answer for p in proposals_for(store, ids["<idle-1@partnerco.example>"])] == [
        "accept"]
    assert [p.answer for p in proposals_for(store, ids["<invite-1@acme-corp.example>"])] == [
        "accept"]
