"""Calendars on a real CalDAV server (Radicale) and a real ICS feed over HTTP: sealed secrets,
step-by-step test, incremental sync by sync-token, idempotent writes by UID, the CLI."""

from __future__ import annotations

import http.server
import importlib.metadata
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import ClassVar

import pytest
import requests
from sqlalchemy import select
from typer.testing import CliRunner

from mailmoat.accounts.secrets import load_key_ring
from mailmoat.calendar.caldav_source import CalDAVError, CalDAVSource
from mailmoat.calendar.check import check
from mailmoat.calendar.registry import (
    CalendarError,
    CalendarSettings,
    add_calendar,
    get_calendar,
    list_calendars,
    open_secret,
    remove_calendar,
)
from mailmoat.calendar.sync import sync_calendar
from mailmoat.entrypoints.cli.main import app
from mailmoat.services.bootstrap import open_store
from mailmoat.store.calendar_store import events_between
from mailmoat.store.tables.calendar import CalendarEventRow, CalendarRow
from tests.support.radicale_server import PASSWORD, USER, Radicale

runner = CliRunner()


def event(uid: str, start: str, end: str, summary: str = "Busy", extra: str = "") -> str:
    return ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\n"
            f"UID:{uid}\r\nDTSTAMP:20261201T000000Z\r\nDTSTART:{start}\r\nDTEND:{end}\r\n"
            f"SUMMARY:{summary}\r\n{extra}END:VEVENT\r\nEND:VCALENDAR\r\n")


def put(url: str, uid: str, ics: str) -> None:
    r = requests.put(f"{url}{uid}.ics", data=ics.encode(), auth=(USER, PASSWORD), timeout=10,
                     headers={"Content-Type": "text/calendar"})
    assert r.status_code in (201, 204), r.text


def test_urllib3_is_the_real_one_and_niquests_is_absent() -> None:
    """caldav would pull in niquests + urllib3-future, which overwrite urllib3 in place."""
    import urllib3

    owners = importlib.metadata.packages_distributions().get("urllib3", [])
    assert owners == ["urllib3"], owners
    assert importlib.metadata.distribution("urllib3").metadata["Name"] == "urllib3"
    for absent in ("urllib3-future", "niquests"):
        with pytest.raises(importlib.metadata.PackageNotFoundError):
            importlib.metadata.distribution(absent)
    assert not hasattr(urllib3, "__future__") or "future" not in urllib3.__file__
    from caldav.lib.http_sync import requests as transport

    assert transport.__name__ == "requests"


@pytest.fixture
def store(tmp_path: Path):  # type: ignore[no-untyped-def]
    s = open_store(f"sqlite:///{tmp_path / 'm.db'}")
    yield s
    s.engine.dispose()


@pytest.fixture
def ring(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.delenv("MAILMOAT_SECRET_KEY", raising=False)
    return load_key_ring(tmp_path / "secret.key")


def test_registry_seals_the_secret_and_validates(store, ring, radicale: Radicale) -> None:
    url = radicale.make_calendar("reg")
    cal = add_calendar(store, ring, CalendarSettings("work", url, username=USER,
                                                     zone="Europe/Berlin"), PASSWORD)
    assert cal.id and [c.name for c in list_calendars(store)] == ["work"]
    with store.sessions() as session:
        sealed = session.scalar(select(CalendarRow.secret))
    assert sealed and PASSWORD not in sealed and sealed.startswith("v1:")
    assert open_secret(store, ring, "work") == PASSWORD
    bad = [
        CalendarSettings("x", "ftp://host/cal", username="u"),
        CalendarSettings("x", "http://cal.example.com/dav/", username="u"),  # http off-host
        CalendarSettings("x", "https://u:p@cal.example.com/", username="u"),
        CalendarSettings("x", url, username=USER, zone="Mars/Olympus"),
        CalendarSettings("x", url, username=""),
    ]
    for settings in bad:
        with pytest.raises(CalendarError) as exc:
            add_calendar(store, ring, settings, PASSWORD)
        assert PASSWORD not in str(exc.value)
    with pytest.raises(CalendarError, match="exists already"):
        add_calendar(store, ring, CalendarSettings("work", url, username=USER), PASSWORD)
    with pytest.raises(CalendarError, match="no mail account"):
        add_calendar(store, ring, CalendarSettings("y", url, username=USER, account="nope"),
                     PASSWORD)
    feed = add_calendar(store, ring, CalendarSettings("holidays", "webcal://127.0.0.1/h.ics",
                                                      kind="ics"), None)
    assert feed.url == "https://127.0.0.1/h.ics"
    remove_calendar(store, "work")
    with pytest.raises(CalendarError):
        get_calendar(store, "work")


def test_incremental_sync_follows_adds_changes_and_deletes(store, ring, radicale: Radicale
                                                           ) -> None:
    url = radicale.make_calendar("sync")
    put(url, "a", event("a", "20261208T090000Z", "20261208T100000Z", "Standup"))
    put(url, "b", event("b", "20261208T130000Z", "20261208T140000Z", "Review"))
    add_calendar(store, ring, CalendarSettings("work", url, username=USER), PASSWORD)
    first = sync_calendar(store, ring, "work")
    assert first.full and first.written == 2 and first.token
    # Change one, delete one, add one on the server; the next pass sees only those.
    put(url, "a", event("a", "20261208T100000Z", "20261208T110000Z", "Standup moved"))
    assert requests.delete(f"{url}b.ics", auth=(USER, PASSWORD), timeout=10).status_code in (
        200, 204)
    put(url, "c", event("c", "20261209T090000Z", "20261209T093000Z", "New",
                        "RRULE:FREQ=DAILY;COUNT=3\r\n"))
    second = sync_calendar(store, ring, "work")
    assert not second.full and second.written == 2 and second.deleted == 1
    assert second.token != first.token
    cal = get_calendar(store, "work")
    got = events_between(store, [cal.id or 0], datetime(2026, 12, 1, tzinfo=UTC),
                         datetime(2026, 12, 31, tzinfo=UTC))
    assert {(e.uid, e.summary, e.start_at.hour if e.start_at else None) for e in got} == {
        ("a", "Standup moved", 10), ("c", "New", 9)}
    assert next(e for e in got if e.uid == "c").rrule == "FREQ=DAILY;COUNT=3"
    third = sync_calendar(store, ring, "work")
    assert (third.written, third.deleted) == (0, 0)  # nothing changed: nothing written


def test_writes_are_idempotent_by_uid(radicale: Radicale) -> None:
    url = radicale.make_calendar("writes")
    source = CalDAVSource(url, USER, PASSWORD)
    ics = event("meet-1@mailmoat", "20261210T090000Z", "20261210T100000Z", "Sync")
    href = source.put("meet-1@mailmoat", ics)
    assert source.put("meet-1@mailmoat", ics) == href  # a retried write lands on the same one
    batch = source.fetch(None)
    assert [e.uid for e in batch.events] == ["meet-1@mailmoat"]
    assert source.get("meet-1@mailmoat") is not None
    assert source.delete("meet-1@mailmoat") is True
    assert source.delete("meet-1@mailmoat") is False  # already gone: done, not an error
    assert "meet-1" not in repr(source) and PASSWORD not in repr(source)


def test_check_names_the_failing_step(radicale: Radicale) -> None:
    url = radicale.make_calendar("check")
    ok = check(CalendarSettings("c", url, username=USER), PASSWORD)
    assert [s.name for s in ok] == ["dns", "tcp", "auth", "calendar", "read"]
    assert all(s.ok for s in ok) and "sync-token" in ok[-1].detail
    wrong = check(CalendarSettings("c", url, username=USER), "wrong password")
    assert (wrong[-1].name, wrong[-1].ok) == ("auth", False)
    assert "wrong password" not in wrong[-1].detail
    missing = check(CalendarSettings("c", f"{radicale.base}/{USER}/nothere/", username=USER),
                    PASSWORD)
    assert (missing[-1].name, missing[-1].ok) == ("calendar", False)
    closed = check(CalendarSettings("c", "http://127.0.0.1:9/cal/", username=USER), PASSWORD)
    assert (closed[-1].name, closed[-1].ok) == ("tcp", False)
    with pytest.raises(CalDAVError) as exc:
        CalDAVSource(url, USER, "wrong password").connect()
    assert exc.value.stage == "auth"


class _Feed(http.server.BaseHTTPRequestHandler):
    body = b""
    etag = '"v1"'
    hits: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        type(self).hits.append(self.headers.get("If-None-Match") or "")
        if self.headers.get("If-None-Match") == self.etag:
            self.send_response(304)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/calendar")
        self.send_header("ETag", self.etag)
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def feed_server() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Feed)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/feed.ics"
    finally:
        server.shutdown()
        server.server_close()


def test_ics_feed_is_read_only_and_refetched_only_when_changed(store, ring, feed_server: str
                                                              ) -> None:
    one = event("h1", "20261224T000000Z", "20261225T000000Z", "Holiday")
    two = event("h2", "20261231T000000Z", "20270101T000000Z", "NYE",
                "TRANSP:TRANSPARENT\r\n")
    _Feed.body = (one.replace("END:VCALENDAR\r\n", "") +
                  two.split("PRODID:-//test//EN\r\n", 1)[1]).encode()
    _Feed.hits = []
    add_calendar(store, ring, CalendarSettings("hol", feed_server, kind="ics"), None)
    first = sync_calendar(store, ring, "hol")
    assert first.full and first.written == 2
    again = sync_calendar(store, ring, "hol")
    assert not again.full and again.written == 0
    assert _Feed.hits == ["", '"v1"']
    with store.sessions() as session:
        rows = {r.uid: r.transparent for r in session.scalars(select(CalendarEventRow))}
    assert rows == {"h1": False, "h2": True}
    steps = check(get_calendar(store, "hol"), None)
    assert steps[-1].ok and "read-only" in steps[-1].detail


def test_cli_add_list_test_sync_remove(env: str, radicale: Radicale) -> None:
    url = radicale.make_calendar("cli")
    put(url, "z", event("z", "20261208T090000Z", "20261208T100000Z"))
    added = runner.invoke(app, ["calendar", "add", "work", "--url", url, "--user", USER,
                                "--zone", "Europe/Berlin", "--secret-stdin"],
                          input=PASSWORD + "\n")
    assert added.exit_code == 0, added.output
    tested = runner.invoke(app, ["calendar", "test", "work"])
    assert tested.exit_code == 0 and "ok read" in tested.output, tested.output
    synced = runner.invoke(app, ["calendar", "sync", "work"])
    assert synced.exit_code == 0 and "1 written" in synced.output, synced.output
    listed = runner.invoke(app, ["calendar", "list"])
    assert "work" in listed.output and PASSWORD not in listed.output
    bad = runner.invoke(app, ["calendar", "add", "bad", "--url", url, "--user", USER,
                              "--secret-stdin"], input="nope\n")
    assert bad.exit_code == 0
    failed = runner.invoke(app, ["calendar", "test", "bad"])
    assert failed.exit_code == 1 and "failed auth" in failed.output and "nope" not in \
        failed.output
    removed = runner.invoke(app, ["calendar", "remove", "work"])
    assert removed.exit_code == 0
    assert runner.invoke(app, ["calendar", "test", "work"]).exit_code == 2


def test_writes_find_an_event_stored_under_another_name(radicale: Radicale) -> None:
    """Other clients store events at names of their own: a write or delete by UID must reach
    that object, not create a second one beside it."""
    url = radicale.make_calendar("foreign")
    put(url, "random-name-123", event("shared-uid@x", "20261210T090000Z", "20261210T100000Z",
                                      "Theirs"))
    source = CalDAVSource(url, USER, PASSWORD)
    source.put("shared-uid@x", event("shared-uid@x", "20261210T110000Z", "20261210T120000Z",
                                     "Moved"))
    batch = source.fetch(None)
    assert [(e.uid, e.summary, e.href.rsplit("/", 1)[-1]) for e in batch.events] == [
        ("shared-uid@x", "Moved", "random-name-123.ics")]
    assert source.delete("shared-uid@x") is True
    assert source.fetch(None).events == []
