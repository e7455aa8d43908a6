"""Calendar sync as a scheduled job: the body syncs what is due (Radicale, a real CalDAV
server), huey runs it every minute inside `mailmoat up`, and the RabbitMQ scheduler queues
it at its configured interval."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from mailmoat.calendar.registry import CalendarSettings, add_calendar
from mailmoat.services import jobs as bodies
from mailmoat.services.bootstrap import open_store
from mailmoat.store.calendar_store import calendar_row, count_events
from tests.support.act_support import secret_key
from tests.support.radicale_server import PASSWORD, USER, Radicale, put_event


def _event(url: str, uid: str) -> None:
    ics = ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\n"
           f"UID:{uid}\r\nDTSTAMP:20261130T000000Z\r\nDTSTART:20261209T100000Z\r\n"
           "DTEND:20261209T110000Z\r\nSUMMARY:Booked\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
    put_event(url, uid, ics)


@pytest.fixture
def cals(radicale: Radicale, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    url = f"sqlite:///{tmp_path / 'm.db'}"
    monkeypatch.setenv("MAILMOAT_DATABASE_URL", url)
    store = open_store(url)
    ring = secret_key(monkeypatch)
    urls = {}
    for name in ("home", "work"):
        urls[name] = radicale.make_calendar(f"{name}-{tmp_path.name[-8:]}")
        _event(urls[name], f"{name}-1")
        add_calendar(store, ring, CalendarSettings(name, urls[name], username=USER), PASSWORD)
    add_calendar(store, ring, CalendarSettings(  # wrong password: reported, never raised
        "broken", urls["home"], username=USER), "not-the-password")
    return {"store": store, "urls": urls, "url": url}


def _ids(store: Any, name: str) -> int:
    row = calendar_row(store, name)
    assert row is not None
    return count_events(store, row.id)


def test_the_body_syncs_what_is_due_and_reports_failures(cals: dict[str, Any]) -> None:
    store = cals["store"]
    done = bodies.sync_calendars(store, every=900)
    assert sorted(d.split()[0] for d in done) == ["broken", "home", "work"]
    assert any(d.startswith("broken failed: auth") for d in done)
    assert _ids(store, "home") == _ids(store, "work") == 1
    _event(cals["urls"]["work"], "work-2")
    assert [d.split()[0] for d in bodies.sync_calendars(store, every=900)] == ["broken"]
    assert _ids(store, "work") == 1  # not due yet: untouched
    later = time.time() + 901
    assert sorted(d.split()[0] for d in bodies.sync_calendars(
        store, every=900, clock=lambda: later)) == ["broken", "home", "work"]
    assert _ids(store, "work") == 2
    assert bodies.sync_calendars(store, every=0) == []  # switched off


def test_huey_syncs_calendars_every_minute_as_mailmoat_up_runs_it(
        cals: dict[str, Any], tmp_path: Path) -> None:
    from mailmoat.entrypoints.jobs import (
        CALENDAR_EVERY,
        make_huey,
        register,
        start_workers,
    )

    huey = make_huey(f"cal-{tmp_path.name}", sqlite_path=tmp_path / "q.db")
    jobs = register(huey, calendar_every=60)
    periodic = [t.__name__ for t in huey._registry._periodic_tasks]
    assert any(name.endswith("calendar_tick") for name in periodic), periodic
    import datetime

    assert CALENDAR_EVERY(datetime.datetime(2026, 1, 1, 12, 7))  # checked every minute
    consumer = start_workers(huey, workers=1)
    try:
        result = jobs.sync_calendars(cals["url"])
        done = result.get(blocking=True, timeout=60)
    finally:
        consumer.stop(graceful=True)
    assert sorted(d.split()[0] for d in done) == ["broken", "home", "work"]
    assert _ids(cals["store"], "home") == 1


def test_the_scheduler_queues_calendar_sync_at_its_interval(cals: dict[str, Any]) -> None:
    from mailmoat.core.schedule import due
    from mailmoat.entrypoints.queue import Intervals, scheduler_tick

    sent: list[str] = []

    class Actor:
        def send(self, *args: Any) -> None:
            sent.append("sync_calendars")

    class Queue:
        sync_calendars = Actor()

    every = Intervals(calendar=120).as_dict()
    assert "calendar" in due(every, {}, 1000.0)
    assert "calendar" not in due(every, {"calendar": 1000.0}, 1100.0)
    assert scheduler_tick(Queue(), ["calendar"], "http://x") == {"calendar": 1}  # type: ignore[arg-type]
    assert sent == ["sync_calendars"]
    assert "calendar" not in due(Intervals(calendar=0).as_dict(), {}, 1000.0)  # off


def test_the_interval_is_configured_by_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(bodies.ENV_CALENDAR_EVERY, "300")
    assert bodies.calendar_every() == 300.0
    monkeypatch.setenv(bodies.ENV_CALENDAR_EVERY, "soon")
    with pytest.raises(ValueError, match="MAILMOAT_CALENDAR_SYNC_SECONDS"):
        bodies.calendar_every()
    monkeypatch.delenv(bodies.ENV_CALENDAR_EVERY)
    assert bodies.calendar_every() == 900.0


@pytest.mark.rabbitmq
def test_a_dramatiq_worker_runs_the_calendar_sync_queued_on_rabbitmq(
        cals: dict[str, Any], rabbitmq_queue: tuple[str, str]) -> None:
    import dramatiq

    from mailmoat.entrypoints import queue as mq

    broker_url, name = rabbitmq_queue
    q = mq.declare(mq.make_broker(broker_url), name, database_url=cals["url"])
    worker = dramatiq.Worker(q.broker, queues={name}, worker_threads=1)
    worker.start()
    try:
        assert mq.scheduler_tick(q, ["calendar"], "http://x") == {"calendar": 1}
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and _ids(cals["store"], "work") < 1:
            time.sleep(0.2)
        worker.join()
    finally:
        worker.stop(timeout=30_000)
        q.broker.close()
    assert _ids(cals["store"], "home") == _ids(cals["store"], "work") == 1
