"""The MEETING lane's context for one message: what it proposes (core.meeting), checked
against the linked calendars' synced events (store), with alternatives (core.slots)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from mailmoat.calendar.events import busy_view
from mailmoat.calendar.registry import CalendarSettings, calendars_for_account
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


@dataclass(frozen=True)
class MeetingContext:
    message_id: int
    lane: str | None
    check: MeetingCheck
    calendars: tuple[str, ...]
    zone: str

    @property
    def reading(self) -> Reading:
        return self.check.reading

    def as_dict(self) -> dict[str, Any]:
        return {"message_id": self.message_id, "lane": self.lane, "zone": self.zone,
                "calendars": list(self.calendars), **self.check.as_dict()}


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
                 calendars: tuple[str, ...] = ()) -> MeetingContext:
    """`events_for(window) -> list[StoredEvent]` supplies the user's events (store or bench)."""
    reading = read_message(subject=message.subject, body=message.body_text,
                           date_header=message.date, calendar_parts=message.calendar_parts,
                           sender=message.from_addr, user_zone=zone, locale=locale)
    hours = hours or WorkingHours(zone=zone)
    window = check_window(reading, hours)
    events: list[StoredEvent] = events_for(window) if window is not None else []
    calendar = busy_view(events, window) if window is not None else Calendar(())
    return MeetingContext(message_id, lane, check_meeting(reading, calendar, hours,
                                                          counterparty), calendars, zone)


def own_calendars(store: Store, account: str) -> list[CalendarSettings]:
    """The calendars this account may use: linked to it or to no account. Unlike
    calendars_for_account, never another account's calendar."""
    return [c for c in calendars_for_account(store, account) if c.account in (None, account)]


def meeting_context(store: Store, message_id: int, account: str = "local",
                    locale: str = "en-US", *, own_only: bool = False) -> MeetingContext:
    """`own_only`: check only calendars of this account (own_calendars), as an agent's
    reads must."""
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

    return context_from(message, events_for, zone=zone, locale=locale, message_id=message_id,
                        lane=lane, calendars=tuple(c.name for c in cals))
