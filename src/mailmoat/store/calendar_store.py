"""Calendars and their synced events: rows in, rows out. Decides nothing."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, or_, select

from mailmoat.store.messages import Store
from mailmoat.store.tables.calendar import CalendarEventRow, CalendarRow

WIDE = timedelta(days=7)  # events longer than this (or recurring) are read by their own index


@dataclass(frozen=True, slots=True)
class StoredEvent:
    href: str
    uid: str = ""
    etag: str = ""
    summary: str = ""
    start_at: datetime | None = None
    end_at: datetime | None = None
    all_day: bool = False
    transparent: bool = False
    rrule: str = ""
    problem: str = ""
    raw: str = ""


def _utc(value: datetime | None) -> datetime | None:
    if value is None:
        return None
    if value.tzinfo is None:  # SQLite hands back naive datetimes; they were stored in UTC
        return value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def _row_to_event(row: CalendarEventRow) -> StoredEvent:
    return StoredEvent(href=row.href, uid=row.uid, etag=row.etag, summary=row.summary,
                       start_at=_utc(row.start_at), end_at=_utc(row.end_at),
                       all_day=row.all_day, transparent=row.transparent, rrule=row.rrule,
                       problem=row.problem, raw=row.raw)


def calendar_row(store: Store, name: str) -> CalendarRow | None:
    with store.sessions() as session:
        return session.scalar(select(CalendarRow).where(CalendarRow.name == name))


def save_events(store: Store, calendar_id: int, events: Iterable[StoredEvent],
                deleted_hrefs: Iterable[str] = (), *, replace_all: bool = False,
                sync_token: str | None = None, ctag: str | None = None) -> tuple[int, int]:
    """Upsert `events` by href and drop `deleted_hrefs` (or, with replace_all, every href
    not in `events`), and move the sync state on, all in one transaction. Returns
    (written, deleted)."""
    now = datetime.now(UTC)
    events = list(events)
    written = deleted = 0
    with store.sessions.begin() as session:
        existing = {r.href: r for r in session.scalars(
            select(CalendarEventRow).where(CalendarEventRow.calendar_id == calendar_id))}
        for ev in events:
            row = existing.get(ev.href)
            if row is None:
                row = CalendarEventRow(calendar_id=calendar_id, href=ev.href)
                session.add(row)
                existing[ev.href] = row
            row.uid, row.etag, row.summary = ev.uid[:500], ev.etag[:500], ev.summary[:2000]
            row.start_at, row.end_at = _utc(ev.start_at), _utc(ev.end_at)
            row.all_day, row.transparent, row.rrule = ev.all_day, ev.transparent, ev.rrule[:500]
            row.wide = bool(ev.rrule) or (ev.start_at is not None and ev.end_at is not None
                                          and ev.end_at - ev.start_at > WIDE)
            row.problem, row.raw, row.updated_at = ev.problem[:500], ev.raw, now
            written += 1
        gone = set(deleted_hrefs)
        if replace_all:
            gone |= set(existing) - {ev.href for ev in events}
        if gone:
            result = session.execute(delete(CalendarEventRow).where(
                CalendarEventRow.calendar_id == calendar_id, CalendarEventRow.href.in_(gone)))
            deleted = int(getattr(result, "rowcount", 0) or 0)
        cal = session.get(CalendarRow, calendar_id)
        if cal is not None:
            cal.sync_token, cal.ctag, cal.last_sync_at = sync_token, ctag, now
    return written, deleted


def events_between(store: Store, calendar_ids: Iterable[int], start: datetime,
                   end: datetime) -> list[StoredEvent]:
    """Events that may overlap [start, end): timed ones that do, and every recurring series
    that began before `end` (its instances are expanded by the caller, bounded). Without
    their raw text: this is the hot read of every meeting check."""
    ids = list(calendar_ids)
    if not ids:
        return []
    t = CalendarEventRow
    cols = (t.href, t.uid, t.etag, t.summary, t.start_at, t.end_at, t.all_day, t.transparent,
            t.rrule, t.problem)
    lo, hi = _utc(start), _utc(end)
    assert lo is not None and hi is not None
    narrow = select(*cols).where(t.calendar_id.in_(ids), t.wide.is_(False),
                                 t.start_at >= lo - WIDE, t.start_at < hi, t.end_at > lo)
    wide = select(*cols).where(t.calendar_id.in_(ids), t.wide.is_(True), t.start_at < hi,
                               or_(t.end_at > lo, t.rrule != ""))
    with store.engine.connect() as conn:
        rows = list(conn.execute(narrow)) + list(conn.execute(wide))
    events = [StoredEvent(href=r[0], uid=r[1], etag=r[2], summary=r[3], start_at=_utc(r[4]),
                          end_at=_utc(r[5]), all_day=r[6], transparent=r[7], rrule=r[8],
                          problem=r[9]) for r in rows]
    events.sort(key=lambda e: (e.start_at, e.href))
    return events


def event_by_uid(store: Store, calendar_ids: Iterable[int], uid: str
                 ) -> tuple[int, StoredEvent] | None:
    """(calendar id, the event with its raw text) for this UID, or None."""
    ids = list(calendar_ids)
    if not ids or not uid:
        return None
    with store.sessions() as session:
        row = session.scalars(select(CalendarEventRow).where(
            CalendarEventRow.calendar_id.in_(ids), CalendarEventRow.uid == uid[:500])
            .order_by(CalendarEventRow.id)).first()
        return None if row is None else (row.calendar_id, _row_to_event(row))


def count_events(store: Store, calendar_id: int) -> int:
    with store.sessions() as session:
        return len(list(session.scalars(select(CalendarEventRow.id).where(
            CalendarEventRow.calendar_id == calendar_id))))
