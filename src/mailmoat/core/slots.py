"""Slots: time ranges, conflicts, nearby events and free alternatives. Pure and deterministic.

Every function takes the moment it is anchored at as an argument (the proposal's own start),
never the clock. Times are timezone-aware datetimes; a naive datetime is an error.

Alternatives, when a proposed slot clashes:
  - on a half-hour grid in the user's zone,
  - inside the user's working hours and working days (default 09:00-18:00, Mon-Fri),
  - within the next `within_days` working days counted from the proposal's own day,
  - starting no earlier than the proposal itself,
  - free in the user's calendar, and free in the counterparty's free/busy when it is given;
    when it is not given the counterparty side is "unknown" (absent is not free),
  - at most `limit` (3), earliest first.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, tzinfo
from zoneinfo import ZoneInfo

GRID = timedelta(minutes=30)
DEFAULT_WORK_START = time(9, 0)
DEFAULT_WORK_END = time(18, 0)
DEFAULT_WORK_DAYS: frozenset[int] = frozenset({0, 1, 2, 3, 4})  # Mon-Fri (date.weekday())
MAX_ALTERNATIVES = 3
WITHIN_WORKING_DAYS = 5


class SlotError(ValueError):
    """A slot that cannot be reasoned about (naive time, end before start)."""


def _aware(value: datetime, name: str) -> datetime:
    if value.tzinfo is None or value.utcoffset() is None:
        raise SlotError(f"{name} must carry a time zone")
    return value


@dataclass(frozen=True, slots=True)
class Slot:
    start: datetime
    end: datetime
    all_day: bool = False

    def __post_init__(self) -> None:
        _aware(self.start, "start")
        _aware(self.end, "end")
        if self.end < self.start:
            raise SlotError("a slot cannot end before it starts")

    @property
    def duration(self) -> timedelta:
        return self.end - self.start

    def overlaps(self, other: Slot) -> bool:
        """Half-open ranges: back-to-back meetings do not clash. A zero-length slot clashes
        with any range that strictly contains its instant."""
        if self.start == self.end:
            return other.start <= self.start < other.end
        if other.start == other.end:
            return self.start <= other.start < self.end
        return self.start < other.end and other.start < self.end

    def as_dict(self) -> dict[str, object]:
        return {"start": self.start.isoformat(), "end": self.end.isoformat(),
                "all_day": self.all_day}


@dataclass(frozen=True, slots=True)
class Busy:
    """One of the user's events (or a counterparty busy block) as far as slots care."""

    slot: Slot
    uid: str = ""
    summary: str = ""  # calendar text: untrusted, shown as data only
    transparent: bool = False  # TRANSP:TRANSPARENT / free events never block

    def as_dict(self) -> dict[str, object]:
        return {"uid": self.uid, "summary": self.summary, **self.slot.as_dict()}


@dataclass(frozen=True, slots=True)
class FreeBusy:
    """The counterparty's free/busy, when their server exposes it: busy blocks inside the
    window the answer covers. Outside the window nothing is known."""

    window: Slot
    busy: tuple[Slot, ...] = ()

    def state(self, slot: Slot) -> str:
        if slot.start < self.window.start or slot.end > self.window.end:
            return "unknown"
        return "busy" if any(slot.overlaps(b) for b in self.busy) else "free"


@dataclass(frozen=True, slots=True)
class WorkingHours:
    zone: str = "UTC"  # IANA id, the user's zone
    start: time = DEFAULT_WORK_START
    end: time = DEFAULT_WORK_END
    days: frozenset[int] = field(default=DEFAULT_WORK_DAYS)

    def __post_init__(self) -> None:
        ZoneInfo(self.zone)  # raises for an unknown zone
        if not self.end > self.start:
            raise SlotError("working hours must end after they start")
        if not self.days or not self.days <= frozenset(range(7)):
            raise SlotError("working days are weekday numbers 0 (Mon) to 6 (Sun)")

    @property
    def tz(self) -> tzinfo:
        return ZoneInfo(self.zone)


@dataclass(frozen=True, slots=True)
class Alternative:
    slot: Slot
    counterparty: str  # "free" when their free/busy says so, "unknown" when not given

    def as_dict(self) -> dict[str, object]:
        return {**self.slot.as_dict(), "counterparty": self.counterparty}


class Calendar:
    """The user's busy events, sorted once so each query is a bisect plus a short scan.

    `max_duration` bounds how far back an event can start and still reach a query, so a
    query never walks the whole calendar."""

    def __init__(self, events: Iterable[Busy]) -> None:
        kept = sorted((e for e in events if not e.transparent), key=lambda e: e.slot.start)
        self._events: tuple[Busy, ...] = tuple(kept)
        self._starts = [e.slot.start for e in kept]
        self._longest = max((e.slot.duration for e in kept), default=timedelta(0))

    def __len__(self) -> int:
        return len(self._events)

    def between(self, start: datetime, end: datetime) -> list[Busy]:
        """Events overlapping [start, end), in start order."""
        _aware(start, "start")
        _aware(end, "end")
        lo = bisect.bisect_left(self._starts, start - self._longest)
        hi = bisect.bisect_left(self._starts, end)
        probe = Slot(start, end)
        return [e for e in self._events[lo:hi] if e.slot.overlaps(probe)]

    def conflicts(self, slot: Slot, ignore_uid: str = "") -> list[Busy]:
        """The user's events that clash with `slot` (the event being moved is ignored)."""
        found = self.between(slot.start, max(slot.end, slot.start + timedelta(microseconds=1)))
        return [e for e in found if e.slot.overlaps(slot) and (not ignore_uid or
                                                               e.uid != ignore_uid)]

    def nearby(self, slot: Slot, zone: str) -> list[Busy]:
        """Every event on the slot's day, in the user's zone."""
        tz = ZoneInfo(zone)
        day = slot.start.astimezone(tz).date()
        day_start = datetime.combine(day, time(0), tz)
        day_end = datetime.combine(day + timedelta(days=1), time(0), tz)
        return self.between(day_start, day_end)


def working_days(first: date, hours: WorkingHours, count: int) -> list[date]:
    days: list[date] = []
    day = first
    for _ in range(count * 7 + 7):  # enough to find `count` working days in any week shape
        if day.weekday() in hours.days:
            days.append(day)
            if len(days) == count:
                break
        day += timedelta(days=1)
    return days


def _ceil_to_grid(moment: datetime) -> datetime:
    floor = moment.replace(minute=0, second=0, microsecond=0)
    while floor < moment:
        floor += GRID
    return floor


def alternatives(
    proposal: Slot,
    calendar: Calendar,
    hours: WorkingHours,
    counterparty: FreeBusy | None = None,
    *,
    limit: int = MAX_ALTERNATIVES,
    within_days: int = WITHIN_WORKING_DAYS,
    ignore_uid: str = "",
    window: Slot | None = None,
) -> list[Alternative]:
    """Free slots of the proposal's length, earliest first, anchored at the proposal.

    `window` narrows the search (a proposal like "Tuesday afternoon"): candidates must lie
    inside it as well as inside working hours."""
    tz = hours.tz
    length = proposal.duration if proposal.duration > timedelta(0) else GRID
    anchor = proposal.start.astimezone(tz)
    out: list[Alternative] = []
    for day in working_days(anchor.date(), hours, within_days):
        day_open = datetime.combine(day, hours.start, tz)
        day_close = datetime.combine(day, hours.end, tz)
        cursor = _ceil_to_grid(max(day_open, anchor))
        while cursor + length <= day_close:
            candidate = Slot(cursor, cursor + length)
            cursor = _next_grid(cursor, tz)
            if window is not None and (candidate.start < window.start
                                       or candidate.end > window.end):
                continue
            if candidate.start == proposal.start and candidate.end == proposal.end:
                continue  # the proposal itself is not an alternative to itself
            if calendar.conflicts(candidate, ignore_uid=ignore_uid):
                continue
            state = "unknown"
            if counterparty is not None:
                state = counterparty.state(candidate)
                if state != "free":
                    continue  # given free/busy: offer only what is free for both
            out.append(Alternative(candidate, state))
            if len(out) >= limit:
                return out
    return out


def _next_grid(cursor: datetime, tz: tzinfo) -> datetime:
    """The next half-hour mark in wall-clock time (a DST change shifts UTC, not the grid)."""
    wall = cursor.replace(tzinfo=None) + GRID
    return wall.replace(tzinfo=tz)


def within_working_hours(slot: Slot, hours: WorkingHours) -> bool:
    tz = hours.tz
    start, end = slot.start.astimezone(tz), slot.end.astimezone(tz)
    return (
        start.date() == end.date()
        and start.weekday() in hours.days
        and hours.start <= start.time()
        and end.time() <= hours.end
    )
