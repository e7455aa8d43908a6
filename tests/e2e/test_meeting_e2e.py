"""The MEETING lane end to end on real servers: mail arrives by IMAP (mail-devel), lands in
MEETING, proposals appear, one approval puts the event on Radicale (CalDAV) and delivers the
reply by SMTP, exactly once, also across SIGKILLs of the executor process."""

from __future__ import annotations

import email
import email.policy
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
import requests
from sqlalchemy import select

from mailmoat.act.errors import InvalidState
from mailmoat.act.executor import Executor
from mailmoat.act.service import ActionService
from mailmoat.calendar.caldav_source import CalDAVSource
from mailmoat.calendar.registry import CalendarSettings, add_calendar
from mailmoat.calendar.sync import sync_calendar
from mailmoat.core.receipts import Receipt, verify
from mailmoat.mail.runner import sync_once
from mailmoat.services.bootstrap import open_store
from mailmoat.services.meeting_proposals import (
    NotProposable,
    approve_meeting,
    propose_meeting,
)
from mailmoat.services.outbox import calendar_writers
from mailmoat.store.tables.messages import MessageRow
from tests.support import act_support
from tests.support.act_support import (
    add_mail_account,
    delivered,
    secret_key,
    transport,
)
from tests.support.mailserver import MailServer
from tests.support.radicale_server import PASSWORD, USER, Radicale

mail_server = act_support.mail_server  # a fixture of tests/support/act_support.py
server = act_support.server  # a fixture of tests/support/act_support.py
ME = "test@example.org"  # the mail-devel user: the account owner
INVITE_UID = "roadmap-sync-42@acme-corp.example"


def invite_mail() -> bytes:
    msg = EmailMessage()
    msg["From"] = "Jamie Cho <jamie@acme-corp.example>"
    msg["To"] = ME
    msg["Subject"] = "Invitation: Roadmap sync"
    msg["Date"] = "Tue, 01 Dec 2026 09:08:00 +0000"
    msg["Message-ID"] = "<invite-1@acme-corp.example>"
    msg.set_content("Sending over an invite for a 30-minute roadmap sync. "
                    "https://meet.google.com/abc-defg-hij")
    ics = ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//acme//EN\r\nMETHOD:REQUEST\r\n"
           f"BEGIN:VEVENT\r\nUID:{INVITE_UID}\r\nDTSTAMP:20261201T080000Z\r\n"
           "DTSTART:20261208T150000Z\r\nDTEND:20261208T153000Z\r\nSUMMARY:Roadmap sync\r\n"
           "ORGANIZER;CN=Jamie:mailto:jamie@acme-corp.example\r\n"
           f"ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:{ME}\r\nSEQUENCE:0\r\n"
           "END:VEVENT\r\nEND:VCALENDAR\r\n")
    msg.add_attachment(ics.encode(), maintype="text", subtype="calendar", filename="invite.ics",
                       params={"method": "REQUEST"})
    return msg.as_bytes(policy=email.policy.SMTP)


def plain_mail(body: str, mid: str, sender: str = "Mina Lee <mina@partnerco.example>") -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = ME
    msg["Subject"] = "Design review"
    msg["Date"] = "Tue, 01 Dec 2026 09:25:00 +0100"
    msg["Message-ID"] = mid
    msg.set_content(body)
    return msg.as_bytes(policy=email.policy.SMTP)


def busy_event(url: str, uid: str, start: str, end: str) -> None:
    ics = ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\n"
           f"UID:{uid}\r\nDTSTAMP:20261130T000000Z\r\nDTSTART;TZID=Europe/Berlin:{start}\r\n"
           f"DTEND;TZID=Europe/Berlin:{end}\r\nSUMMARY:Already booked\r\nEND:VEVENT\r\n"
           "END:VCALENDAR\r\n")
    r = requests.put(f"{url}{uid}.ics", data=ics.encode(), auth=(USER, PASSWORD), timeout=10,
                     headers={"Content-Type": "text/calendar"})
    assert r.status_code in (201, 204)


def deliver_meeting_mails(mail_server: MailServer) -> None:
    """An invitation, a free request, a clashing one and a vague one."""
    mail_server.deliver(invite_mail())
    mail_server.deliver(plain_mail("Could we have a call on Thursday at 10am?",
                                   "<free-1@partnerco.example>"))
    mail_server.deliver(plain_mail("Does a call on Wednesday at 2pm work for you?",
                                   "<clash-1@partnerco.example>"))
    mail_server.deliver(plain_mail("Let's have a call sometime next week.",
                                   "<vague-1@partnerco.example>"))


def replies(server: MailServer, to: str) -> list[EmailMessage]:
    return [m for m in delivered(server) if m["X-RcptTo"] == to]


def lane_of(store: Any, message_id: int) -> str:
    return str(store.get_message(message_id, "acct")["lane"])


@pytest.fixture
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """SQLite unless a test asks for PostgreSQL too (indirect parametrisation)."""
    if getattr(request, "param", "sqlite") == "postgresql":
        return str(request.getfixturevalue("pg_url"))
    return f"sqlite:///{tmp_path / 'm.db'}"


@pytest.fixture
def world(mail_server: MailServer, radicale: Radicale, tmp_path: Path,
          monkeypatch: pytest.MonkeyPatch, db_url: str) -> dict[str, Any]:
    url = db_url
    store = open_store(url)
    ring = secret_key(monkeypatch)
    account = add_mail_account(store, ring, mail_server)
    cal_url = radicale.make_calendar(f"work-{tmp_path.name[-8:]}")
    busy_event(cal_url, "busy-wed", "20261202T140000", "20261202T150000")
    add_calendar(store, ring, CalendarSettings("work", cal_url, username=USER, account="acct",
                                               zone="Europe/Berlin"), PASSWORD)
    deliver_meeting_mails(mail_server)
    sync_once(store, ring, account)
    sync_calendar(store, ring, "work")
    ids = {}
    with store.sessions() as session:
        rows = session.execute(select(MessageRow.id, MessageRow.raw)).all()
    for mid, raw in rows:
        header = email.message_from_bytes(raw, policy=email.policy.default)["Message-ID"]
        ids[str(header)] = mid
    return {"store": store, "ring": ring, "url": url, "cal_url": cal_url, "ids": ids,
            "actions": ActionService(store.engine), "server": mail_server}


def test_invite_and_request_land_in_meeting_and_one_approval_fires_both(world: dict[str, Any]
                                                                        ) -> None:
    store, actions, ids = world["store"], world["actions"], world["ids"]
    invite = ids["<invite-1@acme-corp.example>"]
    free = ids["<free-1@partnerco.example>"]
    for mid in (invite, free, ids["<clash-1@partnerco.example>"]):
        assert lane_of(store, mid) == "MEETING"
    proposal = propose_meeting(store, actions, invite, account="acct", user=ME,
                               proposed_by="sam")
    assert proposal.answer == "accept"
    reply, event = actions.show(proposal.reply_action_id), actions.show(proposal.event_action_id)
    assert reply["action"] == "send_email" and reply["status"] == "pending"
    assert event["action"] == "calendar_event"  # Jamie organises: nobody is invited by us
    assert event["payload"]["uid"] == INVITE_UID
    approved = approve_meeting(store, actions, invite, "sam")
    receipts = [Receipt(**a["receipt"]) for a in approved]
    assert len({r.payload_sha256 for r in receipts}) == 2  # each over its own bytes
    verify(receipts[0], actions.show(approved[0]["id"])["payload"])
    executor = Executor(store.engine, {"acct": transport(world["server"])},
                        calendars=calendar_writers(store, world["ring"]))
    outcomes = executor.run_until_idle()
    assert sorted(o.state for o in outcomes) == ["done", "done"]
    assert executor.run_until_idle() == []
    on_server = CalDAVSource(world["cal_url"], USER, PASSWORD).get(INVITE_UID)
    assert on_server is not None and "Roadmap sync" in on_server
    sent = replies(world["server"], "jamie@acme-corp.example")
    assert len(sent) == 1
    itip = next(p for p in sent[0].walk() if p.get_content_type() == "text/calendar")
    text = itip.get_payload(decode=True).decode()
    assert "METHOD:REPLY" in text and "PARTSTAT=ACCEPTED" in text and INVITE_UID in text
    assert itip.get_param("method") == "REPLY"  # iMIP: the Content-Type names it too
    assert sent[0]["In-Reply-To"] == "<invite-1@acme-corp.example>"


def test_rejecting_one_leaves_the_other_and_a_clash_offers_alternatives(world: dict[str, Any]
                                                                      ) -> None:
    store, actions, ids = world["store"], world["actions"], world["ids"]
    free = propose_meeting(store, actions, ids["<free-1@partnerco.example>"], account="acct",
                           user=ME, proposed_by="sam")
    assert free.answer == "accept" and free.event_action_id and free.reply_action_id
    actions.reject(free.event_action_id, "sam", "I'll add it myself")
    approved = approve_meeting(store, actions, ids["<free-1@partnerco.example>"], "sam")
    assert [a["id"] for a in approved] == [free.reply_action_id]
    assert actions.show(free.event_action_id)["status"] == "rejected"
    clash = propose_meeting(store, actions, ids["<clash-1@partnerco.example>"], account="acct",
                            user=ME, proposed_by="sam")
    assert clash.answer == "decline" and clash.event_action_id is None
    body = actions.show(clash.reply_action_id)["payload"]["body"]
    # Wed 2 Dec 14:00-15:00 is booked; the next free half-hours that day, in Berlin time.
    assert "Wed 02 Dec 2026, 15:00-15:30" in body and "15:30-16:00" in body
    assert "16:00-16:30" in body
    with pytest.raises(NotProposable, match="unsure"):
        propose_meeting(store, actions, ids["<vague-1@partnerco.example>"], account="acct",
                        user=ME, proposed_by="sam")
    with pytest.raises(NotProposable, match="already"):
        propose_meeting(store, actions, ids["<clash-1@partnerco.example>"], account="acct",
                        user=ME, proposed_by="sam")
    executor = Executor(store.engine, {"acct": transport(world["server"])},
                        calendars=calendar_writers(store, world["ring"]))
    assert sorted(o.state for o in executor.run_until_idle()) == ["done"]
    assert len(replies(world["server"], "mina@partnerco.example")) == 1
    batch = CalDAVSource(world["cal_url"], USER, PASSWORD).fetch(None)
    assert [e.uid for e in batch.events] == ["busy-wed"]  # the rejected event never ran
    with pytest.raises(InvalidState):
        actions.approve(free.event_action_id, "sam")


LEASE = 0.3


def _worker(url: str, crash_at: str | None, once: bool) -> int:
    env = {k: v for k, v in os.environ.items() if k != "MAILMOAT_CRASH_AT"}
    if crash_at:
        env["MAILMOAT_CRASH_AT"] = crash_at
    args = [sys.executable, "-m", "mailmoat.entrypoints.worker", "--database-url", url, "--lease",
            str(LEASE)] + (["--once"] if once else [])
    done = subprocess.run(args, env=env, capture_output=True, timeout=120)
    if done.returncode not in (0, -signal.SIGKILL):
        raise AssertionError(done.stderr.decode(errors="replace"))
    return done.returncode


@pytest.mark.parametrize("db_url", ["sqlite", "postgresql"], indirect=True)
def test_exactly_once_across_sigkill_of_the_executor(world: dict[str, Any], db_url: str
                                                     ) -> None:
    store, actions, ids = world["store"], world["actions"], world["ids"]
    propose_meeting(store, actions, ids["<invite-1@acme-corp.example>"], account="acct",
                    user=ME, proposed_by="sam")
    free = propose_meeting(store, actions, ids["<free-1@partnerco.example>"], account="acct",
                           user=ME, proposed_by="sam")
    approve_meeting(store, actions, ids["<invite-1@acme-corp.example>"], "sam")
    approve_meeting(store, actions, ids["<free-1@partnerco.example>"], "sam")
    codes: Counter[int] = Counter()
    points = ["after_claim", "before_send", "after_send", "before_send", "after_send"]
    for point in points * 2:
        time.sleep(LEASE)
        codes[_worker(world["url"], point, once=True)] += 1
    time.sleep(LEASE)
    assert _worker(world["url"], None, once=False) == 0
    assert codes[-signal.SIGKILL] >= 3  # the crashes did happen
    for action_id in (free.reply_action_id, free.event_action_id):
        assert actions.show(action_id)["status"] == "done"
    assert len(replies(world["server"], "jamie@acme-corp.example")) == 1
    assert len(replies(world["server"], "mina@partnerco.example")) == 1
    uids = Counter(e.uid for e in CalDAVSource(world["cal_url"], USER, PASSWORD)
                   .fetch(None).events)
    event_uid = actions.show(free.event_action_id)["payload"]["uid"]
    assert uids == Counter({"busy-wed": 1, INVITE_UID: 1, event_uid: 1})


def test_auto_accepts_only_an_eligible_free_slot_and_never_a_clash(world: dict[str, Any]
                                                                   ) -> None:
    from sqlalchemy import update

    from mailmoat.act.errors import PolicyRefused
    from mailmoat.core.autonomy import Mode
    from mailmoat.store.tables.messages import DecisionRow

    store, actions, ids = world["store"], world["actions"], world["ids"]
    free, clash = ids["<free-1@partnerco.example>"], ids["<clash-1@partnerco.example>"]
    actions.set_mode("acct", Mode.AUTO, "sam", daily_cap=5)
    with pytest.raises(PolicyRefused, match="not auto-eligible"):  # a sender with no history
        propose_meeting(store, actions, free, account="acct", proposed_by="auto:acct",
                        source="auto")
    with store.sessions.begin() as session:  # as if the user had written to them before
        session.execute(update(DecisionRow).values(auto_eligible=True))
    with pytest.raises(PolicyRefused, match="conflicts"):
        propose_meeting(store, actions, clash, account="acct", proposed_by="auto:acct",
                        source="auto")
    made = propose_meeting(store, actions, free, account="acct", proposed_by="auto:acct",
                           source="auto")
    for action_id in (made.reply_action_id, made.event_action_id):
        actions.approve_unattended(action_id, "acct")
    executor = Executor(store.engine, {"acct": transport(world["server"])},
                        calendars=calendar_writers(store, world["ring"]))
    assert sorted(o.state for o in executor.run_until_idle()) == ["done", "done"]
    (sent,) = replies(world["server"], "mina@partnerco.example")
    assert sent["Auto-Submitted"] == "auto-replied"
    uid = actions.show(made.event_action_id)["payload"]["uid"]
    assert CalDAVSource(world["cal_url"], USER, PASSWORD).get(uid) is not None
