"""The MEETING lane's context for one message: what it proposes (core.meeting), checked
against the linked calendars' synced events (store), with alternatives (core.slots)."""

from __future__ import annotations

import time as clock
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from mailmoat.accounts.secrets import KeyRing
from mailmoat.calendar.caldav_source import CalDAVSource
from mailmoat.calendar.events import busy_view
from mailmoat.calendar.registry import CalendarSettings, calendars_for_account
from mailmoat.calendar.sync import open_source
from mailmoat.core.ical import read_counterparty
from mailmoat.core.meeting import MeetingCheck, Reading, check_meeting, read_message
from mailmoat.core.message import Message, parse_message
from mailmoat.core.slots import (
    WITHIN_WORKING_DAYS,
    Calendar,
    FreeBusy,
    Slot,
    WorkingHours,
    working_days,
)
from mailmoat.store.calendar_store import StoredEvent, events_between
from mailmoat.store.messages import Store
from mailmoat.store.tables.messages import DecisionRow, MessageRow


class MeetingNotFound(LookupError):
    pass


NOT_ASKED = "not asked: unknown, so no time is claimed free for them"


@dataclass(frozen=True)
class MeetingContext:
    message_id: int
    lane: str | None
    check: MeetingCheck
    calendars: tuple[str, ...]
    zone: str
    counterparty_address: str = ""  # whose free/busy was asked (the organiser or sender)
    counterparty_note: str = NOT_ASKED  # where it came from, or why it is unknown

    @property
    def reading(self) -> Reading:
        return self.check.reading

    def as_dict(self) -> dict[str, Any]:
        return {"message_id": self.message_id, "lane": self.lane, "zone": self.zone,
                "calendars": list(self.calendars), **self.check.as_dict(),
                "counterparty_freebusy": {"address": self.counterparty_address,
                                          "state": self.check.counterparty,
                                          "note": self.counterparty_note}}


# Asks someone's free/busy for a stretch of time: (what is known, where from or why not).
Asker = Callable[[str, Slot], tuple[FreeBusy | None, str]]
# An answer is reused for a few minutes (a page shown again does not ask the server again).
ASKED_FOR_SECONDS = 300.0
_ASKED: dict[Any, tuple[float, tuple[FreeBusy | None, str]]] = {}


def counterparty_asker(store: Store, ring: KeyRing, cals: list[CalendarSettings]
                       ) -> Asker | None:
    """Asks through the user's linked CalDAV calendars, in order, until one's server answers
    (CalDAV scheduling, RFC 6638). None when no CalDAV calendar is linked."""
    dav = [c for c in cals if c.kind == "caldav"]
    if not dav:
        return None

    def ask(address: str, window: Slot) -> tuple[FreeBusy | None, str]:
        key = (tuple((c.url, c.username) for c in dav), address.lower(), window)
        kept = _ASKED.get(key)
        if kept is not None and clock.monotonic() - kept[0] < ASKED_FOR_SECONDS:
            return kept[1]
        answer = _ask(address, window)
        if len(_ASKED) >= 256:
            _ASKED.clear()
        _ASKED[key] = (clock.monotonic(), answer)
        return answer

    def _ask(address: str, window: Slot) -> tuple[FreeBusy | None, str]:
        why = ""
        for cal in dav:
            try:
                source = open_source(store, ring, cal)
                assert isinstance(source, CalDAVSource)
                text, why = source.ask_freebusy(address, window.start, window.end)
            except Exception as exc:  # CalDAVError or any other: that calendar cannot answer
                text, why = None, f"calendar {cal.name!r} unreachable ({type(exc).__name__})"
            if text is not None:
                known, why = read_counterparty(text, window, address)
                if known is not None:
                    return known, f"free/busy from the calendar server of {cal.name!r}"
        return None, f"unknown, so no time is claimed free for them: {why}"

    return ask


def check_window(reading: Reading, hours: WorkingHours) -> Slot | None:
    """The stretch of calendar the check needs: the proposal's day through the last working
    day alternatives may use (WITHIN_WORKING_DAYS of them)."""
    if reading.slot is None:
        return None
    tz = ZoneInfo(hours.zone)
    day = reading.slot.start.astimezone(tz).date()
    days = working_days(day, hours, WITHIN_WORKING_DAYS)
    start = datetime.combine(day, time(0), tz)
    last = max([day, *days])
    end = max(reading.slot.end, datetime.combine(last + timedelta(days=1), time(0), tz))
    return Slot(start, end)


def context_from(message: Message, events_for: Any, *, zone: str, locale: str = "en-US",
                 hours: WorkingHours | None = None, counterparty: FreeBusy | None = None,
                 message_id: int = 0, lane: str | None = None,
                 calendars: tuple[str, ...] = (), ask: Asker | None = None) -> MeetingContext:
    """`events_for(window) -> list[StoredEvent]` supplies the user's events (store or bench);
    `ask` the counterparty's free/busy (given `counterparty` wins; neither: unknown)."""
    reading = read_message(subject=message.subject, body=message.body_text,
                           date_header=message.date, calendar_parts=message.calendar_parts,
                           sender=message.from_addr, user_zone=zone, locale=locale)
    hours = hours or WorkingHours(zone=zone)
    window = check_window(reading, hours)
    events: list[StoredEvent] = events_for(window) if window is not None else []
    calendar = busy_view(events, window) if window is not None else Calendar(())
    who = reading.organizer.address if reading.organizer else message.from_addr
    note = NOT_ASKED if counterparty is None else "given"
    if counterparty is None and ask is not None and window is not None and who:
        counterparty, note = ask(who, window)
    return MeetingContext(message_id, lane, check_meeting(reading, calendar, hours,
                                                          counterparty), calendars, zone,
                          who, note)


def own_calendars(store: Store, account: str) -> list[CalendarSettings]:
    """The calendars this account may use: linked to it or to no account. Unlike
    calendars_for_account, never another account's calendar."""
    return [c for c in calendars_for_account(store, account) if c.account in (None, account)]


def meeting_context(store: Store, message_id: int, account: str = "local",
                    locale: str = "en-US", *, own_only: bool = False,
                    ring: KeyRing | None = None) -> MeetingContext:
    """`own_only`: check only calendars of this account (own_calendars), as an agent's
    reads must. With `ring` (to open the calendars' logins) the counterparty's free/busy
    is asked from the linked CalDAV servers; without it, it is unknown."""
    with store.sessions() as session:
        row = session.get(MessageRow, message_id)
        if row is None or row.account != account:
            raise MeetingNotFound(f"no message {message_id} in account {account!r}")
        raw, labels = row.raw, tuple(row.labels or ())
        decision = session.get(DecisionRow, message_id)
        lane = decision.lane if decision else None
    message = parse_message(raw, labels=labels)
    cals: list[CalendarSettings] = (own_calendars(store, account) if own_only
                                    else calendars_for_account(store, account))
    zone = cals[0].zone if cals else "UTC"
    ids = [c.id for c in cals if c.id is not None]

    def events_for(window: Slot) -> list[StoredEvent]:
        return events_between(store, ids, window.start, window.end)

    ask = counterparty_asker(store, ring, cals) if ring is not None else None
    return context_from(message, events_for, zone=zone, locale=locale, message_id=message_id,
                        lane=lane, calendars=tuple(c.name for c in cals), ask=ask)
