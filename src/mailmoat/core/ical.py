"""Reading iTIP `text/calendar` parts (REQUEST, CANCEL, COUNTER, REPLY, PUBLISH). Pure.

Bounded on every axis, because an invite is attacker-controlled input:
  - at most MAX_ICS_CHARS characters are read (more: "unsure", nothing parsed),
  - at most MAX_COMPONENTS VEVENTs (more: "unsure"),
  - a recurrence rule is never expanded in full: at most MAX_OCCURRENCES instances, and only
    for DAILY/WEEKLY/MONTHLY/YEARLY rules (a SECONDLY rule with impossible BY parts would
    otherwise spin).
Time zones: an aware DTSTART (VTIMEZONE in the file, or an IANA TZID) is used as is; a TZID
that is neither defined in the file nor an IANA id nor a known Windows name makes the
reading "unsure" (a guessed zone would be a guessed slot). Floating times are read in the
user's zone and say so. A missing DTEND takes DURATION, else one day for an all-day event,
else (RFC 5545 3.6.1) the event ends when it starts.
Text from the calendar part (summary, location, description) is untrusted data.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from mailmoat.core.slots import FreeBusy, Slot

MAX_ICS_CHARS = 1_000_000
MAX_COMPONENTS = 50
MAX_OCCURRENCES = 1_000
MAX_TEXT = 2_000  # characters kept from summary / location / description

METHODS = {"REQUEST": "request", "CANCEL": "cancel", "COUNTER": "counter", "REPLY": "reply",
           "PUBLISH": "publish", "ADD": "request", "DECLINECOUNTER": "declinecounter",
           "REFRESH": "refresh"}
_EXPANDABLE = frozenset({"DAILY", "WEEKLY", "MONTHLY", "YEARLY"})

# Windows zone names Outlook/Exchange write without a VTIMEZONE (a few common ones).
WINDOWS_ZONES = {
    "W. Europe Standard Time": "Europe/Berlin",
    "Romance Standard Time": "Europe/Paris",
    "Central Europe Standard Time": "Europe/Budapest",
    "GMT Standard Time": "Europe/London",
    "Greenwich Standard Time": "Atlantic/Reykjavik",
    "Eastern Standard Time": "America/New_York",
    "Central Standard Time": "America/Chicago",
    "Mountain Standard Time": "America/Denver",
    "Pacific Standard Time": "America/Los_Angeles",
    "Korea Standard Time": "Asia/Seoul",
    "Tokyo Standard Time": "Asia/Tokyo",
    "China Standard Time": "Asia/Shanghai",
    "India Standard Time": "Asia/Kolkata",
    "AUS Eastern Standard Time": "Australia/Sydney",
    "UTC": "UTC",
}

_LINK_RX = re.compile(
    r"https://(?:[\w-]+\.)?(?:zoom\.us/(?:j|my|w)/[\w?=.&/-]+|meet\.google\.com/[a-z]{3}-[a-z]{4}-"
    r"[a-z]{3}|teams\.microsoft\.com/l/meetup-join/[\w%?=.&/:@-]+|teams\.live\.com/meet/[\w-]+|"
    r"[\w-]+\.webex\.com/[\w?=.&/-]+)",
    re.IGNORECASE,
)


def meeting_links(text: str) -> tuple[str, ...]:
    """Zoom, Meet, Teams and Webex join links in `text`, in order, each once."""
    seen: dict[str, None] = {}
    for match in _LINK_RX.finditer(text[:MAX_ICS_CHARS]):
        seen.setdefault(match.group(0).rstrip(".,;)>\"'"), None)
    return tuple(seen)


@dataclass(frozen=True, slots=True)
class Person:
    address: str
    name: str = ""
    partstat: str = ""

    def as_dict(self) -> dict[str, str]:
        return {"address": self.address, "name": self.name, "partstat": self.partstat}


@dataclass(frozen=True, slots=True)
class Invite:
    """What one calendar part says, or why it could not be read (`problem`)."""

    method: str = ""  # request | cancel | counter | reply | publish | ...
    uid: str = ""
    sequence: int = 0
    recurrence_id: str = ""
    slot: Slot | None = None
    summary: str = ""
    location: str = ""
    description: str = ""
    organizer: Person | None = None
    attendees: tuple[Person, ...] = ()
    rrule: str = ""
    occurrences: int = 0  # counted up to MAX_OCCURRENCES (0: no rule or not expanded)
    occurrences_capped: bool = False
    status: str = ""
    transparent: bool = False  # TRANSP:TRANSPARENT: shown as free, never blocks a slot
    links: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    problem: str = ""  # non-empty: the slot must not be trusted
    floating: bool = False
    assumed_end: bool = False


def _text(component: Any, name: str) -> str:
    value = component.get(name)
    if value is None:
        return ""
    return str(value)[:MAX_TEXT]


def _person(prop: Any) -> Person:
    address = str(prop)
    if address.lower().startswith("mailto:"):
        address = address[7:]
    params = getattr(prop, "params", {}) or {}
    return Person(address.strip().lower()[:320], str(params.get("CN", ""))[:200],
                  str(params.get("PARTSTAT", "")).upper()[:40])


def _zone_for(tzid: str) -> ZoneInfo | None:
    name = WINDOWS_ZONES.get(tzid, tzid)
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def _moment(prop: Any, user_zone: ZoneInfo, notes: list[str]) -> tuple[datetime | date | None,
                                                                          str]:
    """(value, problem). Dates stay dates; datetimes come back aware."""
    if prop is None:
        return None, ""
    try:
        value = getattr(prop, "dt", None)
    except Exception:  # icalendar raises its own error type for a broken property
        return None, "unreadable date"
    if isinstance(value, datetime):
        if value.tzinfo is not None and value.utcoffset() is not None:
            return value, ""
        tzid = str((getattr(prop, "params", {}) or {}).get("TZID", ""))
        if tzid:
            zone = _zone_for(tzid)
            if zone is None:
                return None, f"unknown time zone {tzid[:80]!r}"
            notes.append(f"zone {tzid[:80]!r} read as {zone.key}")
            return value.replace(tzinfo=zone), ""
        notes.append("floating time: read in your zone")
        return value.replace(tzinfo=user_zone), "floating"
    if isinstance(value, date):
        return value, ""
    return None, "unreadable date"


def _day_start(day: date, zone: ZoneInfo) -> datetime:
    return datetime.combine(day, time(0), zone)


def _count(rrule_text: str, start: datetime | date) -> tuple[int, bool, str]:
    """(occurrences counted, capped?, note). Never expands more than MAX_OCCURRENCES."""
    from dateutil.rrule import rrulestr  # icalendar's own dependency

    freq = re.search(r"FREQ=([A-Z]+)", rrule_text.upper())
    if not freq or freq.group(1) not in _EXPANDABLE:
        return 0, False, "recurrence frequency not expanded"
    dtstart = start if isinstance(start, datetime) else datetime.combine(start, time(0))
    try:
        rule = rrulestr(rrule_text, dtstart=dtstart, ignoretz=False)
    except (ValueError, TypeError, OverflowError) as exc:
        return 0, False, f"recurrence rule unreadable: {str(exc)[:80]}"
    counted = sum(1 for _ in itertools.islice(iter(rule), MAX_OCCURRENCES + 1))
    if counted > MAX_OCCURRENCES:
        return MAX_OCCURRENCES, True, f"recurs more than {MAX_OCCURRENCES} times"
    return counted, False, f"recurs {counted} times" if counted else "recurrence never occurs"


def _pick_event(events: list[Any]) -> Any:
    masters = [e for e in events if e.get("RECURRENCE-ID") is None]
    return masters[0] if masters else events[0]


def read_ics(text: str, user_zone: str = "UTC") -> Invite:
    """Read one text/calendar part. Never raises for bad input: `problem` says what is wrong."""
    try:
        invite = _read_ics(text, user_zone)
    except Exception as exc:  # a library corner we did not foresee is still a clear outcome
        return Invite(problem=f"calendar part unreadable: {type(exc).__name__}")
    from dataclasses import replace

    return replace(invite, notes=tuple(dict.fromkeys(invite.notes)))


def _read_ics(text: str, user_zone: str) -> Invite:
    if not isinstance(text, str) or not text.strip():
        return Invite(problem="empty calendar part")
    if len(text) > MAX_ICS_CHARS:
        return Invite(problem=f"calendar part larger than {MAX_ICS_CHARS} characters: not read")
    if text.upper().count("BEGIN:VEVENT") > MAX_COMPONENTS:
        return Invite(problem=f"more than {MAX_COMPONENTS} events in one part: not read")
    import icalendar  # imported here: core modules that never see an invite stay light

    try:
        cal = icalendar.Calendar.from_ical(text)
    except Exception as exc:  # the library raises ValueError, KeyError, IndexError...
        return Invite(problem=f"calendar part unreadable: {type(exc).__name__}")
    method = str(cal.get("METHOD", "")).strip().upper()
    kind = METHODS.get(method, "publish" if not method else method.lower()[:20])
    events = [c for c in cal.walk("VEVENT")]
    if not events:
        return Invite(method=kind, problem="no event in the calendar part")
    zone = ZoneInfo(user_zone)
    event = _pick_event(events)
    notes: list[str] = []
    if len(events) > 1:
        notes.append(f"{len(events)} events in the part; read the series master")
    start, problem = _moment(event.get("DTSTART"), zone, notes)
    floating = problem == "floating"
    problem = "" if floating else problem
    uid = _text(event, "UID")[:500]
    base: dict[str, Any] = dict(
        method=kind, uid=uid, summary=_text(event, "SUMMARY"),
        location=_text(event, "LOCATION"), description=_text(event, "DESCRIPTION"),
        organizer=_person(event["ORGANIZER"]) if event.get("ORGANIZER") is not None else None,
        attendees=tuple(_person(a) for a in _as_list(event.get("ATTENDEE"))[:200]),
        status=_text(event, "STATUS").upper()[:40],
        transparent=_text(event, "TRANSP").strip().upper() == "TRANSPARENT",
        recurrence_id=_text(event, "RECURRENCE-ID")[:100],
    )
    try:
        base["sequence"] = int(str(event.get("SEQUENCE", 0)))
    except ValueError:
        notes.append("SEQUENCE unreadable: read as 0")
    links = meeting_links(" ".join(
        [base["location"], base["description"], _text(event, "URL"),
         _text(event, "X-GOOGLE-CONFERENCE"), _text(event, "X-MICROSOFT-SKYPETEAMSMEETINGURL")]))
    if getattr(event, "errors", None):
        names = sorted({str(name) for name, _ in event.errors})[:5]
        if "DTSTART" in names or "DTEND" in names:
            problem = problem or f"unreadable {', '.join(names)}"
        else:
            notes.append(f"ignored unreadable {', '.join(names)}")
    if problem or start is None:
        return Invite(**base, links=links, notes=tuple(notes),
                      problem=problem or "no start time (DTSTART)")
    end, end_problem = _moment(event.get("DTEND"), zone, notes)
    if end_problem and end_problem != "floating":
        return Invite(**base, links=links, notes=tuple(notes), problem=end_problem)
    assumed_end = False
    all_day = isinstance(start, date) and not isinstance(start, datetime)
    if end is None:
        duration = getattr(event.get("DURATION"), "dt", None)
        if isinstance(duration, timedelta):
            end = start + duration
        elif all_day:
            end = start + timedelta(days=1)
            notes.append("no end: one all-day day")
        else:
            end = start
            assumed_end = True
            notes.append("no DTEND or DURATION: the event ends when it starts (RFC 5545)")
    if all_day:
        if not isinstance(end, date) or isinstance(end, datetime):
            return Invite(**base, links=links, notes=tuple(notes),
                          problem="all-day start with a timed end")
        slot_start, slot_end = _day_start(start, zone), _day_start(end, zone)
    else:
        if not isinstance(end, datetime):
            return Invite(**base, links=links, notes=tuple(notes),
                          problem="timed start with an all-day end")
        assert isinstance(start, datetime)  # not all_day, and None returned above
        slot_start, slot_end = start, end
    if slot_end < slot_start:
        return Invite(**base, links=links, notes=tuple(notes),
                      problem="event ends before it starts")
    rrule = ""
    occurrences, capped = 0, False
    if event.get("RRULE") is not None:
        rrule = event["RRULE"].to_ical().decode("ascii", "replace")[:500]
        occurrences, capped, note = _count(f"RRULE:{rrule}", start)
        notes.append(note)
    slot = Slot(slot_start, slot_end, all_day=all_day)
    return Invite(**base, slot=slot, rrule=rrule, occurrences=occurrences,
                  occurrences_capped=capped, links=links, notes=tuple(notes),
                  floating=floating, assumed_end=assumed_end)


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]


def occurrences(invite: Invite, window: Slot, limit: int = MAX_OCCURRENCES) -> list[Slot]:
    """The invite's instances overlapping `window`, at most `limit` (bounded expansion)."""
    if invite.slot is None:
        return []
    return expand(invite.slot, invite.rrule, window, limit)


def expand(first: Slot, rrule: str, window: Slot, limit: int = MAX_OCCURRENCES) -> list[Slot]:
    """Instances of a (possibly recurring) event overlapping `window`: at most `limit`, and
    never more than MAX_OCCURRENCES rule steps walked."""
    if not rrule:
        return [first] if first.overlaps(window) else []
    from dateutil.rrule import rrulestr

    freq = re.search(r"FREQ=([A-Z]+)", rrule.upper())
    if not freq or freq.group(1) not in _EXPANDABLE:
        return [first] if first.overlaps(window) else []
    first, rrule = _skip_ahead(first, rrule, window)
    if not rrule:
        return []
    simple = _SIMPLE_RULE.match(rrule.upper().replace(";WKST=MO", ""))
    if simple:
        return _simple_instances(first, simple, window, limit)
    try:
        rule = rrulestr(f"RRULE:{rrule}", dtstart=first.start)
    except (ValueError, TypeError, OverflowError):
        return [first] if first.overlaps(window) else []
    length = first.duration
    out: list[Slot] = []
    try:
        for begin in itertools.islice(iter(rule), MAX_OCCURRENCES):
            if begin >= window.end:
                break
            candidate = Slot(begin, begin + length, first.all_day)
            if candidate.overlaps(window):
                out.append(candidate)
                if len(out) >= limit:
                    break
    except (ValueError, TypeError, OverflowError):  # an UNTIL that cannot be compared, say
        return out or ([first] if first.overlaps(window) else [])
    return out


_SIMPLE_RULE = re.compile(r"^FREQ=(DAILY|WEEKLY)(?:;INTERVAL=(\d{1,4}))?(?:;(COUNT)=(\d{1,6})|"
                          r";UNTIL=([0-9]{8}(?:T[0-9]{6}Z?)?))?$")


def _until(text: str, first: Slot) -> datetime:
    if len(text) == 8:  # a date: the whole day counts
        day = date(int(text[:4]), int(text[4:6]), int(text[6:8]))
        return datetime.combine(day, time(23, 59, 59), first.start.tzinfo)
    moment = datetime.strptime(text[:15], "%Y%m%dT%H%M%S")
    if text.endswith("Z"):
        return moment.replace(tzinfo=ZoneInfo("UTC"))
    return moment.replace(tzinfo=first.start.tzinfo)


def _simple_instances(first: Slot, m: re.Match[str], window: Slot, limit: int) -> list[Slot]:
    """A plain DAILY/WEEKLY rule's instances in `window`, by wall-clock arithmetic (what
    dateutil would produce, without walking it), at most `limit`."""
    period = timedelta(days=(1 if m.group(1) == "DAILY" else 7) * int(m.group(2) or 1))
    count = int(m.group(4)) if m.group(3) else None
    until = _until(m.group(5), first) if m.group(5) else None
    wall = first.start.replace(tzinfo=None)
    tz = first.start.tzinfo
    out: list[Slot] = []
    for step in range(MAX_OCCURRENCES):
        if count is not None and step >= count:
            break
        begin = (wall + step * period).replace(tzinfo=tz)
        if begin >= window.end or (until is not None and begin > until):
            break
        candidate = Slot(begin, begin + first.duration, first.all_day)
        if candidate.overlaps(window):
            out.append(candidate)
            if len(out) >= limit:
                break
    return out


def _skip_ahead(first: Slot, rrule: str, window: Slot) -> tuple[Slot, str]:
    """For a plain DAILY/WEEKLY rule (INTERVAL, COUNT or UNTIL at most), start the walk at the
    last instance before the window instead of at DTSTART: the same instances, found in a
    few steps however old the series. Other rules are walked from DTSTART (bounded)."""
    rule = rrule.upper().replace(";WKST=MO", "")
    m = _SIMPLE_RULE.match(rule)
    if not m or window.start <= first.end:
        return first, rrule
    period = timedelta(days=(1 if m.group(1) == "DAILY" else 7) * int(m.group(2) or 1))
    wall = first.start.replace(tzinfo=None)
    target = (window.start - first.duration).astimezone(first.start.tzinfo).replace(tzinfo=None)
    skip = max(0, (target - wall) // period - 1)
    if not skip:
        return first, rrule
    if m.group(3):  # COUNT: fewer instances are left after the skipped ones
        left = int(m.group(4)) - skip
        if left <= 0:
            return first, ""
        rule = rule.replace(f"COUNT={m.group(4)}", f"COUNT={left}")
    start = (wall + skip * period).replace(tzinfo=first.start.tzinfo)
    return Slot(start, start + first.duration, first.all_day), rule


MAX_BUSY_PERIODS = 10_000
BUSY_TYPES = frozenset({"BUSY", "BUSY-TENTATIVE", "BUSY-UNAVAILABLE"})


def read_freebusy(text: str) -> tuple[list[Slot], str]:
    """The busy periods of a VFREEBUSY answer (a CalDAV free-busy REPORT, RFC 4791 7.10):
    FREEBUSY values of type BUSY, BUSY-TENTATIVE or BUSY-UNAVAILABLE (BUSY when unnamed),
    as start/end or start/duration, in UTC. Returns (periods, problem); a problem means
    the answer is not a free/busy answer and must not be read as "free"."""
    if not isinstance(text, str) or "BEGIN:VFREEBUSY" not in text.upper()[:MAX_ICS_CHARS]:
        return [], "not a VFREEBUSY answer"
    if len(text) > MAX_ICS_CHARS:
        return [], f"free/busy answer larger than {MAX_ICS_CHARS} characters: not read"
    import icalendar

    try:
        cal = icalendar.Calendar.from_ical(text)
    except Exception as exc:  # the library raises several error types for broken input
        return [], f"free/busy answer unreadable: {type(exc).__name__}"
    busy: list[Slot] = []
    for component in cal.walk("VFREEBUSY"):
        values = component.get("FREEBUSY") or []
        for prop in values if isinstance(values, list) else [values]:
            kind = str((getattr(prop, "params", {}) or {}).get("FBTYPE", "BUSY")).upper()
            if kind not in BUSY_TYPES:
                continue
            periods = prop.dt if isinstance(getattr(prop, "dt", None), list) else [prop.dt]
            for start, end_or_length in periods:
                end = (start + end_or_length if isinstance(end_or_length, timedelta)
                       else end_or_length)
                if not (isinstance(start, datetime) and isinstance(end, datetime)
                        and start.tzinfo is not None and end > start):
                    return [], "free/busy period without a UTC start and end"
                busy.append(Slot(start, end))
                if len(busy) > MAX_BUSY_PERIODS:
                    return [], f"more than {MAX_BUSY_PERIODS} busy periods: not read"
    return sorted(busy, key=lambda s: (s.start, s.end)), ""


def read_counterparty(text: str, asked: Slot, address: str) -> tuple[FreeBusy | None, str]:
    """Someone else's free/busy from a scheduling answer (the VFREEBUSY REPLY an RFC 6638
    schedule-response carries for one recipient). Known only for the stretch the answer
    itself covers (its DTSTART..DTEND, cut to what was asked); outside it, and for any answer
    that is not readable, about another person, or without that stretch, nothing is known
    (None: absent is not free). The text is untrusted: only times are read from it."""
    busy, problem = read_freebusy(text)
    if problem:
        return None, problem
    import icalendar

    found = [c for c in icalendar.Calendar.from_ical(text).walk("VFREEBUSY")]
    if len(found) != 1:
        return None, f"{len(found)} VFREEBUSY components in the answer: not read"
    answer = found[0]
    who = [str(a).lower().removeprefix("mailto:") for a in _as_list(answer.get("ATTENDEE"))]
    if who and address.lower() not in who:
        return None, "the answer is about someone else: not read"
    start, end = answer.get("DTSTART"), answer.get("DTEND")
    begin = getattr(start, "dt", None)
    finish = getattr(end, "dt", None)
    if not (isinstance(begin, datetime) and isinstance(finish, datetime)
            and begin.tzinfo is not None and finish.tzinfo is not None and finish > begin):
        return None, "the answer does not say which stretch of time it covers"
    window = Slot(max(begin, asked.start), min(finish, asked.end)) \
        if begin < asked.end and asked.start < finish else None
    if window is None:
        return None, "the answer covers none of the time asked about"
    return FreeBusy(window, tuple(b for b in busy if b.overlaps(window))), ""

