"""Calendar objects as mailmoat reads them: one stored event per object, and the user's
busy view (recurring series expanded, bounded) for the slot checks in core.slots."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable

from mailmoat.core.ical import MAX_ICS_CHARS, expand, read_ics
from mailmoat.core.slots import Busy, Calendar, Slot
from mailmoat.store.calendar_store import StoredEvent

MAX_FEED_EVENTS = 20_000
_VEVENT = re.compile(r"BEGIN:VEVENT\r?\n.*?END:VEVENT\r?\n?", re.DOTALL | re.IGNORECASE)
_VTIMEZONE = re.compile(r"BEGIN:VTIMEZONE\r?\n.*?END:VTIMEZONE\r?\n?", re.DOTALL | re.IGNORECASE)


def stored_event(href: str, etag: str, text: str, zone: str) -> StoredEvent:
    """One calendar object (its series master) as a stored event. An object that cannot be
    read is kept with its `problem` and no times: it never counts as free or busy."""
    invite = read_ics(text, zone)
    slot = invite.slot
    busy_status = invite.status != "CANCELLED"
    return StoredEvent(
        href=href, uid=invite.uid, etag=etag, summary=invite.summary,
        start_at=slot.start if slot else None, end_at=slot.end if slot else None,
        all_day=bool(slot and slot.all_day), transparent=invite.transparent or not busy_status,
        rrule=invite.rrule, problem=invite.problem, raw=text[:MAX_ICS_CHARS],
    )


def split_feed(text: str, zone: str) -> tuple[list[StoredEvent], str]:
    """A whole ICS feed as stored events, keyed by UID (and RECURRENCE-ID for overrides).
    Returns (events, note); at most MAX_FEED_EVENTS are read."""
    zones = "".join(m.group(0) for m in _VTIMEZONE.finditer(text[:200_000]))
    out: dict[str, StoredEvent] = {}
    note = ""
    for count, match in enumerate(_VEVENT.finditer(text)):
        if count >= MAX_FEED_EVENTS:
            note = f"feed holds more than {MAX_FEED_EVENTS} events; the rest were not read"
            break
        part = ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//mailmoat feed//EN\r\n" + zones
                + match.group(0) + "\r\nEND:VCALENDAR\r\n")
        ev = stored_event("", "", part, zone)
        rid = re.search(r"^RECURRENCE-ID[^:]*:(.+)$", match.group(0), re.MULTILINE)
        key = ev.uid + (f"#{rid.group(1).strip()}" if rid else "") or f"#{count}"
        out[key] = dataclasses.replace(ev, href=key)
    return list(out.values()), note


def busy_view(events: Iterable[StoredEvent], window: Slot) -> Calendar:
    """The user's busy time inside `window`: recurring series expanded (bounded), free
    (transparent or cancelled) events and unreadable ones left out."""
    busy: list[Busy] = []
    for ev in events:
        if ev.start_at is None or ev.end_at is None or ev.transparent:
            continue
        first = Slot(ev.start_at, ev.end_at, ev.all_day)
        if not ev.rrule:
            if first.overlaps(window):
                busy.append(Busy(first, uid=ev.uid, summary=ev.summary))
            continue
        for inst in expand(first, ev.rrule, window, limit=500):
            busy.append(Busy(inst, uid=ev.uid, summary=ev.summary))
    return Calendar(busy)
