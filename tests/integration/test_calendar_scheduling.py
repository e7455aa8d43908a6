"""The counterparty's free/busy through CalDAV scheduling (RFC 6638) on a real scheduling
server (DAViCal): a VFREEBUSY REQUEST POSTed to the user's schedule outbox. Their busy time
makes a clash and the alternatives are free for both sides; a counterparty the server knows
nothing about stays unknown (absent is not free), and so does every counterparty when the
server offers no scheduling (Radicale)."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from mailmoat.accounts.secrets import ENV_KEY, encode_key, load_key_ring, new_key
from mailmoat.act.service import ActionService
from mailmoat.calendar.caldav_source import CalDAVSource
from mailmoat.calendar.registry import CalendarSettings, add_calendar
from mailmoat.calendar.sync import sync_calendar
from mailmoat.core.slots import Slot
from mailmoat.services.bootstrap import open_store
from mailmoat.services.meeting import meeting_context
from mailmoat.services.meeting_proposals import propose_meeting
from mailmoat.store.tables.calendar import MeetingProposalRow
from tests.support.davical_server import USERS, DAViCal
from tests.support.radicale_server import PASSWORD, USER, Radicale

BER = ZoneInfo("Europe/Berlin")


def at(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 12, day, hour, minute, tzinfo=BER)


def mail(sender: str, body: str) -> bytes:
    return (f"From: Someone <{sender}>\r\nTo: alice@example.test\r\nSubject: catch up\r\n"
            f"Date: Mon, 07 Dec 2026 09:00:00 +0100\r\nMessage-ID: <{sender}-{len(body)}@x>\r\n"
            f"Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n").encode()


ASK = "Could we meet on Tuesday 8 December, 15:00-16:00?"


@pytest.fixture(scope="module")
def peers(davical: DAViCal) -> DAViCal:
    # Bob (the counterparty): busy 15:00-16:00 and 17:00-17:30 Berlin on Tuesday 8 December.
    davical.put_event("bob", "bob-1", "DTSTART:20261208T140000Z\r\nDTEND:20261208T150000Z\r\n"
                      "SUMMARY:Bob's private appointment\r\n")
    davical.put_event("bob", "bob-2", "DTSTART:20261208T160000Z\r\nDTEND:20261208T163000Z\r\n"
                      "SUMMARY:Bob again\r\n")
    # Alice (the user): busy 16:00-17:00 Berlin the same day.
    davical.put_event("alice", "alice-1", "DTSTART:20261208T150000Z\r\n"
                      "DTEND:20261208T160000Z\r\nSUMMARY:Alice's review\r\n")
    return davical


@pytest.fixture
def world(peers: DAViCal, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    monkeypatch.setenv(ENV_KEY, encode_key(new_key()))
    url = f"sqlite:///{tmp_path / 'm.db'}"
    monkeypatch.setenv("MAILMOAT_DATABASE_URL", url)
    store = open_store(url)
    ring = load_key_ring()
    add_calendar(store, ring, CalendarSettings("work", peers.calendar_url("alice"),
                                               username="alice", zone="Europe/Berlin"),
                 USERS["alice"])
    sync_calendar(store, ring, "work")
    return {"store": store, "ring": ring}


def test_the_server_answers_a_free_busy_request_through_the_outbox(peers: DAViCal) -> None:
    source = CalDAVSource(peers.calendar_url("alice"), "alice", USERS["alice"])
    text, why = source.ask_freebusy("bob@example.test", at(8, 0), at(9, 0))
    assert why == "" and text is not None and "FREEBUSY" in text
    assert "private appointment" not in text  # free/busy carries times, never titles
    none, why = source.ask_freebusy("carol@example.test", at(8, 0), at(9, 0))
    assert none is None and "no free/busy for carol@example.test" in why
    odd, why = source.ask_freebusy("bob@example.test\r\nATTENDEE:mailto:eve@example.test",
                                   at(8, 0), at(9, 0))
    assert odd is None and why == "not a plain address to ask about"


def test_their_busy_time_is_a_clash_and_alternatives_are_free_for_both(
        world: dict[str, Any]) -> None:
    store, ring = world["store"], world["ring"]
    mid = store.ingest(mail("bob@example.test", ASK), "test").message_id
    ctx = meeting_context(store, mid, ring=ring)
    assert ctx.reading.slot == Slot(at(8, 15), at(8, 16))
    assert ctx.check.conflicts == ()  # Alice herself is free at 15:00
    assert ctx.check.counterparty == "busy" and ctx.check.clash
    # 15:30 Bob, 16:00 and 16:30 Alice, 17:00 Bob: the next day's first hours are free for both
    assert [(a.slot.start, a.counterparty) for a in ctx.check.alternatives] == [
        (at(9, 9), "free"), (at(9, 9, 30), "free"), (at(9, 10), "free")]
    data = ctx.as_dict()["counterparty_freebusy"]
    assert data["address"] == "bob@example.test" and data["state"] == "busy"
    assert "'work'" in data["note"]
    assert "private" not in json.dumps(ctx.as_dict())
    # Without the key ring nothing is asked: unknown, and the same slot is not a clash.
    blind = meeting_context(store, mid)
    assert blind.check.counterparty == "unknown" and not blind.check.clash


def test_a_clash_with_them_proposes_a_decline_with_times_free_for_both(
        world: dict[str, Any]) -> None:
    store, ring = world["store"], world["ring"]
    mid = store.ingest(mail("bob@example.test", ASK), "test").message_id
    actions = ActionService(store.engine, keys=lambda: ring)
    made = propose_meeting(store, actions, mid, user="alice@example.test", proposed_by="t")
    assert made.answer == "decline" and made.event_action_id is None
    body = actions.show(made.reply_action_id)["payload"]["body"]
    assert "09:00" in body and "09:30" in body and "10:00" in body and "17:00" not in body
    assert "your calendar shows you busy then" in body  # not "I already have something"
    with store.sessions() as session:
        row = session.scalars(select(MeetingProposalRow)).one()
    assert row.context["counterparty"] == "busy"


def test_an_address_the_server_does_not_know_stays_unknown_never_free(
        world: dict[str, Any]) -> None:
    store, ring = world["store"], world["ring"]
    mid = store.ingest(mail("carol@example.test", ASK), "test").message_id
    ctx = meeting_context(store, mid, ring=ring)
    assert ctx.check.counterparty == "unknown" and not ctx.check.clash
    assert "carol@example.test" in ctx.counterparty_note
    late = store.ingest(mail("carol@example.test", "Could we meet on Tuesday 8 December, "
                             "16:00-17:00?"), "test").message_id
    clash = meeting_context(store, late, ring=ring)  # Alice's own clash: alternatives
    assert clash.check.alternatives and {a.counterparty for a in clash.check.alternatives} == {
        "unknown"}
    shown = CliRunner().invoke(_app(), ["meeting", "show", str(late)])
    assert shown.exit_code == 0, shown.output
    text = " ".join(shown.output.split())  # the console wraps long lines
    assert "carol@example.test: unknown at that time (unknown, so no time is claimed free" in text
    assert "(them: unknown)" in text


def test_a_server_without_scheduling_leaves_them_unknown(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    (tmp_path / "radicale").mkdir()
    server = Radicale(tmp_path / "radicale")
    try:
        cal_url = server.make_calendar("work")
        monkeypatch.setenv(ENV_KEY, encode_key(new_key()))
        store = open_store(f"sqlite:///{tmp_path / 'm.db'}")
        ring = load_key_ring()
        add_calendar(store, ring, CalendarSettings("work", cal_url, username=USER,
                                                   zone="Europe/Berlin"), PASSWORD)
        mid = store.ingest(mail("bob@example.test", ASK), "test").message_id
        ctx = meeting_context(store, mid, ring=ring)
    finally:
        server.stop()
    assert ctx.check.counterparty == "unknown"
    assert "does not offer scheduling" in ctx.counterparty_note


def _app() -> Any:
    from mailmoat.entrypoints.cli.main import app

    return app
