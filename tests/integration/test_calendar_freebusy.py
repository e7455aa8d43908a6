"""A free/busy-only calendar on a real CalDAV server: the free-busy REPORT where the server
answers one (Radicale 3.2 and later), else the events reduced to busy periods (the Debian
Radicale 3.1 answers the REPORT with a plain listing); only busy periods are stored, and the
slot check counts them."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from mailmoat.accounts.secrets import ENV_KEY, encode_key, load_key_ring, new_key
from mailmoat.calendar.caldav_source import CalDAVSource
from mailmoat.calendar.check import check
from mailmoat.calendar.freebusy import FALLBACK, REPORT, FreeBusySource
from mailmoat.calendar.registry import CalendarSettings, add_calendar, get_calendar
from mailmoat.calendar.sync import open_source, sync_calendar
from mailmoat.services.bootstrap import open_store
from mailmoat.services.meeting import meeting_context
from mailmoat.store.tables.calendar import CalendarEventRow
from tests.support.radicale_server import PASSWORD, USER, Radicale, put_event

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC).timestamp()  # the mails' own day
ENV_NEWER = "RADICALE_FREEBUSY"  # a Radicale >= 3.2 (answers free-busy REPORTs), if any

EVENTS = {
    "secret": ("DTSTART:20261202T130000Z\r\nDTEND:20261202T140000Z\r\n"
               "SUMMARY:Secret 1:1 about layoffs\r\n"),
    "weekly": ("DTSTART:20261105T090000Z\r\nDTEND:20261105T093000Z\r\nRRULE:FREQ=WEEKLY\r\n"
               "SUMMARY:Weekly standup\r\n"),
    "free": ("DTSTART:20261203T130000Z\r\nDTEND:20261203T140000Z\r\nTRANSP:TRANSPARENT\r\n"
             "SUMMARY:Optional talk\r\n"),
}


def _put(url: str, uid: str, body: str) -> None:
    ics = ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\n"
           f"UID:{uid}\r\nDTSTAMP:20261130T000000Z\r\n{body}END:VEVENT\r\nEND:VCALENDAR\r\n")
    put_event(url, uid, ics)


# `make test` installs one here (the Makefile's radicale-newer venv)
MADE_BY_MAKE = Path(__file__).resolve().parents[2] / ".venv" / "radicale-newer" / "bin" / "radicale"


def _newer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Radicale]:
    exe = os.environ.get(ENV_NEWER, "") or (str(MADE_BY_MAKE) if MADE_BY_MAKE.exists() else "")
    if not exe:
        if os.environ.get("CI"):
            pytest.fail(f"no Radicale >= 3.2: `make test` installs one at {MADE_BY_MAKE}")
        pytest.skip(f"set {ENV_NEWER} to a Radicale >= 3.2 to test the free-busy REPORT path")
    server = Radicale(tmp_path_factory.mktemp("radicale-new"), [exe])
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module", params=["installed", "newer"])
def any_radicale(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
                 ) -> Iterator[tuple[str, Radicale]]:
    if request.param == "installed":
        server = Radicale(tmp_path_factory.mktemp("radicale"))
        try:
            yield "installed", server
        finally:
            server.stop()
    else:
        for server in _newer(tmp_path_factory):
            yield "newer", server


@pytest.fixture
def world(any_radicale: tuple[str, Radicale], tmp_path: Path,
          monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    which, radicale = any_radicale
    monkeypatch.setenv(ENV_KEY, encode_key(new_key()))
    url = f"sqlite:///{tmp_path / 'm.db'}"
    monkeypatch.setenv("MAILMOAT_DATABASE_URL", url)
    store = open_store(url)
    ring = load_key_ring()
    cal_url = radicale.make_calendar(f"fb-{tmp_path.name[-8:]}")
    for uid, body in EVENTS.items():
        _put(cal_url, uid, body)
    add_calendar(store, ring, CalendarSettings("colleague", cal_url, kind="freebusy",
                                               username=USER, zone="Europe/Berlin"), PASSWORD)
    return {"store": store, "ring": ring, "cal_url": cal_url, "which": which}


def test_only_busy_periods_are_stored_and_the_slot_check_counts_them(
        world: dict[str, Any]) -> None:
    store, ring = world["store"], world["ring"]
    cal = get_calendar(store, "colleague")
    assert not cal.writable
    assert isinstance(open_source(store, ring, cal), FreeBusySource)
    source = FreeBusySource(CalDAVSource(world["cal_url"], USER, PASSWORD), now=lambda: NOW)
    sync_calendar(store, ring, "colleague", source=source)
    assert source.how == (FALLBACK if world["which"] == "installed" else REPORT)
    with store.sessions() as session:
        rows = session.scalars(select(CalendarEventRow).order_by(
            CalendarEventRow.start_at)).all()
    starts = [r.start_at.replace(tzinfo=UTC).isoformat() for r in rows]
    assert starts[:3] == ["2026-12-02T13:00:00+00:00", "2026-12-03T09:00:00+00:00",
                          "2026-12-10T09:00:00+00:00"]  # the series expanded; the free talk not
    assert "2026-12-03T13:00:00+00:00" not in starts
    assert all(r.summary == "busy" and r.raw == "" and r.uid == "" for r in rows)
    mail = (b"From: Mina <mina@partnerco.example>\r\nTo: you@example.org\r\nSubject: sync\r\n"
            b"Date: Tue, 01 Dec 2026 09:25:00 +0100\r\nMessage-ID: <fb-1@x>\r\n"
            b"Content-Type: text/plain; charset=utf-8\r\n\r\n"
            b"Could we talk on Wednesday at 2pm?\r\n")
    mid = store.ingest(mail, "test").message_id
    ctx = meeting_context(store, mid)
    assert [c.summary for c in ctx.check.conflicts] == ["busy"]  # 14:00 Berlin = 13:00 UTC
    assert ctx.check.alternatives[0].slot.start.isoformat() == "2026-12-02T15:00:00+01:00"
    steps = check(cal, PASSWORD)
    assert steps[-1].ok and "busy periods" in steps[-1].detail


def test_a_write_to_a_free_busy_calendar_is_refused(world: dict[str, Any]) -> None:
    from mailmoat.act.service import ActionService
    from mailmoat.core.receipts import PayloadError

    with pytest.raises(PayloadError, match="read-only"):
        ActionService(world["store"].engine).propose(
            "test", {"action": "calendar_event", "calendar": "colleague", "operation": "put",
                     "uid": "x", "ics": "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\n"
                     "END:VEVENT\r\nEND:VCALENDAR\r\n"}, "sam", "cli")


def test_cli_adds_a_free_busy_calendar_and_tests_it(world: dict[str, Any]) -> None:
    from typer.testing import CliRunner

    from mailmoat.entrypoints.cli.main import app

    runner = CliRunner()
    added = runner.invoke(app, ["calendar", "add", "shared", "--url", world["cal_url"],
                                "--user", USER, "--freebusy", "--secret-stdin"],
                          input=PASSWORD + "\n")
    assert added.exit_code == 0, added.output
    assert get_calendar(world["store"], "shared").kind == "freebusy"
    tested = runner.invoke(app, ["calendar", "test", "shared"])
    assert tested.exit_code == 0, tested.output
    assert "busy periods in the next 60 days" in tested.output
    both = runner.invoke(app, ["calendar", "add", "x", "--url", world["cal_url"], "--ics",
                               "--freebusy"])
    assert both.exit_code == 2 and "choose one" in both.output
