"""Reading a meeting request: what slot a mail proposes, and how sure we are. Pure.

Two sources, in this order:
  1. a `text/calendar` part (core.ical): the iTIP method, UID, organiser and the exact slot;
  2. the words: "can we move tomorrow's sync to 4pm?", "Thursday 10-11 CET works",
     "next Tuesday afternoon", "3/5 at 9", "내일 오후 3시", "다음 주 화요일 오전 10시".

Relative words are anchored at the mail's own Date header, in the sender's zone (the Date
header's offset), never at the clock; a mail without a Date header cannot be read relatively.
Wall-clock times are in an explicit zone when the mail names one ("CET", "KST", "PT",
"Europe/Berlin"), else in the user's IANA zone when it matches the Date offset (so DST across
the proposed date is right), else the Date header's fixed offset.

Rules that decide the reading, each stated once:
  - "Thursday" is the next Thursday strictly after the mail's day; "next Thursday" is the
    Thursday of the following week (Mon-Sun weeks); "this Thursday" the one of this week.
  - A bare hour without am/pm: 7-11 morning, 12 noon, 1-6 afternoon; 0 and 13-23 as written.
  - "3/5": month/day for a US locale, day/month for the others; a sender in a day-first
    country (.uk .de .fr ...) reads day first; a number above 12 decides by itself.
  - A date without a year is the next one on or after the mail's day; "the 15th" is the
    next 15th on or after it.
  - No end: the stated duration, else 30 minutes (said in the notes).
  - morning 09-12, afternoon 13-17, evening 17-20: a window, never an event by itself.
Certainty: "sure" (a well-formed calendar part), "likely" (words resolved to one exact slot
or one window), "unsure" (no date or no time, several options, a slot before the mail, a
weekday that contradicts its date, an unreadable calendar part). An unsure reading never
yields an event: `event_allowed` is False and the mail is shown instead.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta, timezone, tzinfo
from email.utils import parsedate_to_datetime
from typing import Any
from zoneinfo import ZoneInfo

from mailmoat.core.ical import Invite, Person, meeting_links, read_ics
from mailmoat.core.slots import (
    Alternative,
    Busy,
    Calendar,
    FreeBusy,
    Slot,
    WorkingHours,
    alternatives,
    within_working_hours,
)

SURE, LIKELY, UNSURE = "sure", "likely", "unsure"
DEFAULT_DURATION = timedelta(minutes=30)
MAX_TEXT_CHARS = 20_000  # words read from subject + body
WINDOWS = {"morning": (time(9), time(12)), "afternoon": (time(13), time(17)),
           "evening": (time(17), time(20))}
DAY_FIRST_TLDS = frozenset({"uk", "de", "fr", "au", "nz", "ie", "es", "it", "nl", "be", "at",
                            "ch", "dk", "se", "no", "fi", "pt", "pl", "br", "in", "kr"})
# Zone words people write, read as the region's wall clock (a "CET" written in July means
# Central European local time, so CET and CEST both name Europe/Berlin's clock).
ZONE_WORDS = {
    "utc": "UTC", "gmt": "UTC", "z": "UTC",
    "cet": "Europe/Berlin", "cest": "Europe/Berlin", "met": "Europe/Berlin",
    "bst": "Europe/London", "wet": "Europe/Lisbon", "eet": "Europe/Helsinki",
    "et": "America/New_York", "est": "America/New_York", "edt": "America/New_York",
    "ct": "America/Chicago", "cst": "America/Chicago", "cdt": "America/Chicago",
    "mt": "America/Denver", "mst": "America/Denver", "mdt": "America/Denver",
    "pt": "America/Los_Angeles", "pst": "America/Los_Angeles", "pdt": "America/Los_Angeles",
    "kst": "Asia/Seoul", "jst": "Asia/Tokyo", "ist": "Asia/Kolkata", "sgt": "Asia/Singapore",
    "aest": "Australia/Sydney", "aedt": "Australia/Sydney",
    "한국 시간": "Asia/Seoul", "한국시간": "Asia/Seoul",
}
_WEEKDAYS = {"monday": 0, "mon": 0, "tuesday": 1, "tue": 1, "tues": 1, "wednesday": 2,
             "wed": 2, "thursday": 3, "thu": 3, "thur": 3, "thurs": 3, "friday": 4, "fri": 4,
             "saturday": 5, "sunday": 6}
_KO_WEEKDAYS = {"월": 0, "화": 1, "수": 2, "목": 3, "금": 4, "토": 5, "일": 6}
_MONTHS = {m: i + 1 for i, m in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"))}
_MONTH_RX = (r"(january|jan|february|feb|march|mar|april|apr|may|june|jun|july|jul|august|aug|"
             r"september|sept|sep|october|oct|november|nov|december|dec)\b\.?")


@dataclass(frozen=True, slots=True)
class Reading:
    """What the mail proposes, as far as deterministic code can tell."""

    source: str  # "ics" | "text" | "none"
    kind: str  # request | cancel | counter | reply | publish | propose | reschedule | none
    certainty: str  # sure | likely | unsure
    precision: str  # exact | window | day | none
    slot: Slot | None = None
    understood: str = ""  # one sentence: what was understood
    notes: tuple[str, ...] = ()
    options: tuple[Slot, ...] = ()
    zone: str = ""  # the zone the words were read in
    invite: Invite | None = None
    links: tuple[str, ...] = ()
    organizer: Person | None = None

    @property
    def event_allowed(self) -> bool:
        """Only a sure or likely, exact slot may become an event proposal."""
        return (self.certainty != UNSURE and self.precision == "exact"
                and self.slot is not None)

    def as_dict(self) -> dict[str, Any]:
        inv = self.invite
        return {
            "source": self.source, "kind": self.kind, "certainty": self.certainty,
            "precision": self.precision, "event_allowed": self.event_allowed,
            "slot": self.slot.as_dict() if self.slot else None, "understood": self.understood,
            "notes": list(self.notes), "options": [o.as_dict() for o in self.options],
            "zone": self.zone, "links": list(self.links),
            "organizer": self.organizer.as_dict() if self.organizer else None,
            "invite": None if inv is None else {
                "method": inv.method, "uid": inv.uid, "sequence": inv.sequence,
                "summary": inv.summary, "location": inv.location, "rrule": inv.rrule,
                "occurrences": inv.occurrences, "occurrences_capped": inv.occurrences_capped,
                "attendees": [a.as_dict() for a in inv.attendees], "problem": inv.problem,
                "recurrence_id": inv.recurrence_id, "status": inv.status,
            },
        }


# -- calendar parts ------------------------------------------------------------------------


def _describe(slot: Slot) -> str:
    if slot.all_day:
        days = (slot.end - slot.start).days
        first = slot.start.date().isoformat()
        return f"all day {first}" + (f" ({days} days)" if days > 1 else "")
    return f"{slot.start.isoformat()} to {slot.end.isoformat()}"


def reading_from_invite(invite: Invite, sender: str = "") -> Reading:
    notes = list(invite.notes)
    organizer = invite.organizer
    if organizer and sender and organizer.address != sender.lower():
        notes.append(f"organiser {organizer.address} is not the sender (forwarded or delegated)")
    if invite.problem or invite.slot is None:
        return Reading("ics", invite.method or "none", UNSURE, "none", None,
                       f"a calendar part that could not be trusted: {invite.problem}",
                       tuple(notes), invite=invite, links=invite.links, organizer=organizer)
    certainty = LIKELY if (invite.floating or invite.assumed_end) else SURE
    what = {"request": "an invitation", "cancel": "a cancellation", "counter":
            "a counter-proposal", "reply": "a reply to an invitation", "publish": "an event"}
    summary = f" '{invite.summary[:80]}'" if invite.summary else ""
    text = f"{what.get(invite.method, invite.method)}{summary}: {_describe(invite.slot)}"
    if invite.rrule:
        text += f", repeating ({invite.rrule[:60]})"
    if invite.method == "reply":
        stats = sorted({a.partstat for a in invite.attendees if a.partstat})
        text += f"; answer {'/'.join(stats) or 'unstated'}"
    return Reading("ics", invite.method, certainty, "exact", invite.slot, text, tuple(notes),
                   invite=invite, links=invite.links, organizer=organizer)


# -- words ---------------------------------------------------------------------------------


@dataclass(slots=True)
class _Mention:
    start: int
    end: int
    value: Any  # date for dates; (time, time | None, str) for times
    kind: str = ""  # dates: weekday | relative | explicit; times: exact | window
    notes: list[str] = field(default_factory=list)


_QUOTE_CUTS = re.compile(
    r"^(?:on .{1,200} wrote:|-----\s*original message\s*-----|from: .+\n(?:sent|date): .+|"
    r".{1,80}님이 작성:)",
    re.IGNORECASE | re.MULTILINE,
)
_FORWARD = re.compile(r"^-{2,}\s*(?:forwarded message|begin forwarded message|전달된 메시지)"
                      r"\s*-*$", re.IGNORECASE | re.MULTILINE)
_HEADER_LINE = re.compile(r"^(?:from|date|sent|subject|to|cc|보낸 사람|날짜|제목|받는 사람):.*$",
                          re.IGNORECASE | re.MULTILINE)


def _own_words(body: str, anchor: datetime | None) -> tuple[str, datetime | None, list[str]]:
    """The sender's own words (quoted history dropped). A forwarded block is read whole and
    anchored at its own Date line when that parses."""
    notes: list[str] = []
    fwd = _FORWARD.search(body)
    if fwd:
        block = body[fwd.end():]
        date_line = re.search(r"^date:\s*(.+)$", block, re.IGNORECASE | re.MULTILINE)
        if date_line:
            try:
                inner = parsedate_to_datetime(date_line.group(1).strip())
                if inner.tzinfo is not None:
                    anchor = inner
                    notes.append("forwarded: relative words read from the forwarded Date")
            except (TypeError, ValueError, IndexError):
                notes.append("forwarded Date unreadable: anchored at this mail's Date")
        own = body[: fwd.start()] + "\n" + _HEADER_LINE.sub(" ", block)
        return own, anchor, notes
    lines = [ln for ln in body.splitlines() if not ln.lstrip().startswith(">")]
    text = "\n".join(lines)
    cut = _QUOTE_CUTS.search(text)
    if cut and cut.start() > 0:
        text = text[: cut.start()]
    return text, anchor, notes


def _mask(text: str, start: int, end: int) -> str:
    return text[:start] + " " * (end - start) + text[end:]


def _next_weekday(day: date, weekday: int) -> date:
    ahead = (weekday - day.weekday()) % 7
    return day + timedelta(days=ahead or 7)


def _resolve_year(month: int, day: int, anchor: date) -> date | None:
    for year in (anchor.year, anchor.year + 1):
        try:
            candidate = date(year, month, day)
        except ValueError:
            continue
        if candidate >= anchor:
            return candidate
    return None


def _day_first(locale: str, sender: str) -> bool:
    tld = sender.rsplit(".", 1)[-1].lower() if "@" in sender else ""
    if tld in DAY_FIRST_TLDS:
        return True
    return not locale.lower().replace("_", "-").startswith(("en-us", "en-ph", "en-ca"))


def _dates(text: str, anchor: date, locale: str, sender: str) -> tuple[list[_Mention], str]:
    found: list[_Mention] = []

    def take(rx: str, build: Any, flags: int = re.IGNORECASE) -> None:
        nonlocal text
        for m in list(re.finditer(rx, text, flags)):
            mention = build(m)
            if mention is not None:
                found.append(mention)
                text = _mask(text, m.start(), m.end())

    def iso(m: re.Match[str]) -> _Mention | None:
        try:
            return _Mention(m.start(), m.end(), date(int(m[1]), int(m[2]), int(m[3])),
                            "explicit")
        except ValueError:
            return None

    take(r"\b(\d{4})-(\d{2})-(\d{2})\b", iso)

    def ko_md(m: re.Match[str]) -> _Mention | None:
        d = _resolve_year(int(m[1]), int(m[2]), anchor)
        return None if d is None else _Mention(m.start(), m.end(), d, "explicit")

    take(r"(\d{1,2})\s*월\s*(\d{1,2})\s*일", ko_md)

    def numeric(m: re.Match[str]) -> _Mention | None:
        a, b = int(m[1]), int(m[2])
        notes: list[str] = []
        if a > 12 >= b:
            day, month = a, b
        elif b > 12 >= a:
            month, day = a, b
        elif _day_first(locale, sender):
            day, month = a, b
            if a != b:
                notes.append(f"{m[0]} read day first ({locale}, sender {sender or '?'})")
        else:
            month, day = a, b
            if a != b:
                notes.append(f"{m[0]} read month first ({locale})")
        if m[3]:
            year = int(m[3]) + (2000 if len(m[3]) == 2 else 0)
            try:
                d: date | None = date(year, month, day)
            except ValueError:
                d = None
        else:
            d = _resolve_year(month, day, anchor)
        return None if d is None else _Mention(m.start(), m.end(), d, "explicit", notes)

    take(r"(?<![\d:/.])(\d{1,2})/(\d{1,2})(?:/(\d{4}|\d{2}))?(?![\d/])", numeric)
    take(r"(?<![\d:.])(\d{1,2})\.(\d{1,2})\.(\d{4})(?!\d)", numeric)

    def month_day(m: re.Match[str]) -> _Mention | None:
        month = _MONTHS[m[1][:3].lower()]
        day_, year = int(m[2]), m[3]
        try:
            d = date(int(year), month, day_) if year else _resolve_year(month, day_, anchor)
        except ValueError:
            d = None
        return None if d is None else _Mention(m.start(), m.end(), d, "explicit")

    def day_month(m: re.Match[str]) -> _Mention | None:
        month = _MONTHS[m[2][:3].lower()]
        day_, year = int(m[1]), m[3]
        try:
            d = date(int(year), month, day_) if year else _resolve_year(month, day_, anchor)
        except ValueError:
            d = None
        return None if d is None else _Mention(m.start(), m.end(), d, "explicit")

    take(rf"\b{_MONTH_RX}\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s*(\d{{4}}))?", month_day)
    take(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH_RX}(?:\s+(\d{{4}}))?", day_month)

    def day_of_month(m: re.Match[str]) -> _Mention | None:
        day_ = int(m[1])
        for months_ahead in range(3):  # "the 15th": this month's, else the next that has it
            month0 = anchor.month - 1 + months_ahead
            try:
                d = date(anchor.year + month0 // 12, month0 % 12 + 1, day_)
            except ValueError:
                continue
            if d >= anchor:
                return _Mention(m.start(), m.end(), d, "explicit")
        return None

    take(r"\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b", day_of_month)

    def relative(m: re.Match[str]) -> _Mention:
        word = m[0].lower()
        shift = {"today": 0, "tonight": 0, "오늘": 0, "tomorrow": 1,
                 "내일": 1, "모레": 2, "day after tomorrow": 2}[word]
        return _Mention(m.start(), m.end(), anchor + timedelta(days=shift), "relative")

    take(r"\b(?:the )?day after tomorrow\b", lambda m: _Mention(
        m.start(), m.end(), anchor + timedelta(days=2), "relative"))
    take(r"\btoday\b|\btonight\b|\btomorrow\b|오늘|내일|모레", relative)

    def weekday(m: re.Match[str]) -> _Mention:
        qualifier = (m[1] or m[3] or "").lower().strip()
        wd = _WEEKDAYS[m[2].lower().rstrip(".")]
        if qualifier in ("next", "next week"):
            monday = anchor - timedelta(days=anchor.weekday()) + timedelta(days=7)
            d = monday + timedelta(days=wd)
        elif qualifier == "this":
            d = anchor + timedelta(days=(wd - anchor.weekday()) % 7)
        else:
            d = _next_weekday(anchor, wd)
        return _Mention(m.start(), m.end(), d, "weekday")

    take(r"\b(next|this|coming)?\s*\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
         r"mon|tues|tue|wed|thurs|thur|thu|fri)\b\.?(?:'s)?(\s+next week)?", weekday)

    def ko_weekday(m: re.Match[str]) -> _Mention:
        qualifier = re.sub(r"\s", "", m[1] or "")
        wd = _KO_WEEKDAYS[m[2]]
        if qualifier in ("다음주", "담주"):
            monday = anchor - timedelta(days=anchor.weekday()) + timedelta(days=7)
            d = monday + timedelta(days=wd)
        elif qualifier == "이번주":
            d = anchor + timedelta(days=(wd - anchor.weekday()) % 7)
        else:
            d = _next_weekday(anchor, wd)
        return _Mention(m.start(), m.end(), d, "weekday")

    take(r"(다음\s*주|담주|이번\s*주)?\s*([월화수목금토일])요일", ko_weekday, 0)
    found.sort(key=lambda x: x.start)
    return found, text


_AMPM = r"(?:(a\.?m\.?|p\.?m\.?)(?![a-z]))"


def _hour(h: int, minute: int, ampm: str | None, notes: list[str]) -> time | None:
    if ampm:
        tag = ampm.replace(".", "").lower()
        if h > 12 or h == 0:
            return None
        h = h % 12 + (12 if tag == "pm" else 0)
    elif h <= 12:
        if 7 <= h <= 11 or h == 12:
            pass
        else:
            notes.append(f"bare {h} read as {h + 12}:00")
            h += 12
    if h > 23 or minute > 59:
        return None
    return time(h, minute)


def _times(text: str) -> tuple[list[_Mention], str]:
    found: list[_Mention] = []

    def take(rx: str, build: Any, flags: int = re.IGNORECASE) -> None:
        nonlocal text
        for m in list(re.finditer(rx, text, flags)):
            mention = build(m)
            if mention is not None:
                found.append(mention)
                text = _mask(text, m.start(), m.end())

    def ko(m: re.Match[str]) -> _Mention | None:
        period, notes = m[1], list[str]()
        h1, m1 = int(m[2]), _ko_minutes(m[3])
        end = None
        if m[5] is not None:
            h2, m2 = int(m[5]), _ko_minutes(m[6])
            end = _ko_hour((m[4] or "").strip() or period, h2, m2)
        start = _ko_hour(period, h1, m1)
        if start is None:
            return None
        if end is not None and end <= start and not (m[4] or "").strip():
            end = time(end.hour + 12, end.minute) if end.hour + 12 < 24 else None
        return _Mention(m.start(), m.end(), (start, end, ""), "exact", notes)

    ko_one = r"(\d{1,2})\s*시(?:\s*(반|\d{1,2}\s*분))?"
    take(rf"(오전|오후|저녁|아침|낮)?\s*{ko_one}(?:\s*(?:~|-|–|부터)\s*((?:오전|오후|저녁)?\s*)"
         rf"{ko_one}(?:\s*까지)?)?", ko, 0)
    # windows in Korean: 오후 / 오전 alone
    take(r"(오전|오후|저녁)(?!\s*\d)", lambda m: _Mention(
        m.start(), m.end(), {"오전": WINDOWS["morning"], "오후": WINDOWS["afternoon"],
                             "저녁": WINDOWS["evening"]}[m[1]], "window"), 0)


    def span(m: re.Match[str]) -> _Mention | None:
        notes: list[str] = []
        if re.search(r"\bto\b", m[0], re.IGNORECASE) and _MOVE.search(
                text[max(0, m.start() - 30): m.start()]):
            return None  # "move the 3pm to 4pm": two times, the second is the new one
        h1, m1, ap1 = int(m[1]), int(m[2] or 0), m[3]
        h2, m2, ap2 = int(m[4]), int(m[5] or 0), m[6]
        if not (m[2] or ap1 or m[5] or ap2 or m[0].lower().startswith(("at", "from", "between"))
                or re.search(r"[–—]", m[0])):
            # "10-11" alone could be a score or a range; a dash between bare numbers only
            # counts with a dash-type character or a leading at/from.
            return None
        if ap2 and not ap1:
            end = _hour(h2, m2, ap2, notes)
            start = _hour(h1, m1, ap2, notes)
            if start is None or end is None:
                return None
            if start >= end:  # "11-1pm": the start is the morning
                start = _hour(h1, m1, "am", notes)
        else:
            start = _hour(h1, m1, ap1, notes)
            end = _hour(h2, m2, ap2, notes)
            if start is not None and end is not None and end <= start and not ap2 and h2 <= 12:
                end = time(h2 + 12, m2) if h2 + 12 < 24 else None
        if start is None or end is None or end <= start:
            return None
        return _Mention(m.start(), m.end(), (start, end, ""), "exact", notes)

    take(rf"(?:\b(?:at|from|between)\s+)?(?<![\d/])(\d{{1,2}})(?:[:.](\d{{2}}))?\s*{_AMPM}?\s*"
         rf"(?:-|–|—|to|until|till|and)\s*(\d{{1,2}})(?:[:.](\d{{2}}))?\s*{_AMPM}?(?![\d/])",
         span)

    def single(m: re.Match[str]) -> _Mention | None:
        notes: list[str] = []
        word = (m[1] or "").lower()
        h, minute, ap = int(m[2]), int(m[3] or 0), m[4]
        if not (ap or m[3] or word):
            return None
        value = _hour(h, minute, ap, notes)
        if value is None:
            return None
        if not ap and not m[3] and word:
            notes.append(f"'{m[0].strip()}' read as {value.strftime('%H:%M')}")
        return _Mention(m.start(), m.end(), (value, None, ""), "exact", notes)

    take(rf"(\bat\s+|@\s*|\baround\s+|\bby\s+)?(?<![\d/])(\d{{1,2}})(?:[:h](\d{{2}}))?\s*"
         rf"{_AMPM}?(?![\d/:])", single)
    take(r"\b(noon|midday)\b", lambda m: _Mention(m.start(), m.end(), (time(12), None, ""),
                                                   "exact"))
    take(r"\b(?:(early|late)\s+)?(morning|afternoon|evening)\b", _window)
    found.sort(key=lambda x: x.start)
    return found, text


def _window(m: re.Match[str]) -> _Mention:
    lo, hi = WINDOWS[m[2].lower()]
    if m[1] and m[1].lower() == "late":
        lo = time(max(lo.hour, hi.hour - 2), 0)
    elif m[1]:
        hi = time(min(hi.hour, lo.hour + 2), 0)
    return _Mention(m.start(), m.end(), (lo, hi), "window")


def _ko_minutes(text: str | None) -> int:
    if not text:
        return 0
    if text == "반":
        return 30
    return int(re.sub(r"\D", "", text))


def _ko_hour(period: str | None, h: int, minute: int) -> time | None:
    if period in ("오후", "저녁") and h < 12:
        h += 12
    elif period in ("오전", "아침") and h == 12:
        h = 0
    elif not period and 1 <= h <= 6:
        h += 12
    if h > 23 or minute > 59:
        return None
    return time(h, minute)


def _zone(text: str) -> tuple[str | None, str]:
    """An explicit zone in the words: an IANA id, or a zone abbreviation written in capitals."""
    m = re.search(r"\b([A-Z][a-z]+/[A-Z][A-Za-z_]+)\b", text)
    if m:
        try:
            ZoneInfo(m[1])
            return m[1], m[0]
        except (ValueError, KeyError, OSError):
            pass
    for word, zone in ZONE_WORDS.items():
        if not word.isascii():
            if word in text:
                return zone, word
        elif len(word) > 1 and re.search(rf"(?<![\w/]){word.upper()}(?![\w/])", text):
            return zone, word.upper()
    return None, ""


def _duration(text: str) -> timedelta | None:
    m = re.search(r"\b(\d{1,3})\s*-?\s*(?:min|mins|minute|minutes)\b|(\d{1,3})\s*분", text,
                  re.IGNORECASE)
    if m:
        return timedelta(minutes=int(m[1] or m[2]))
    m = re.search(r"\b(an|one|two|1|2|1\.5|half an)\s*-?\s*(?:hour|hr)s?\b|(\d)\s*시간", text,
                  re.IGNORECASE)
    if m:
        word = (m[1] or m[2]).lower()
        hours = {"an": 1, "one": 1, "two": 2, "half an": 0.5}.get(word)
        return timedelta(hours=hours if hours is not None else float(word))
    return None


_CANCEL = re.compile(r"\bcancel(?:l?ed|l?ing|s)?\b|\bcall(?:ed)? off\b|취소", re.IGNORECASE)
_MOVE = re.compile(r"\b(?:move|moving|reschedul\w*|push(?:ed|ing)?|postpone\w*|"
                   r"shift)\b|변경|옮기|미루", re.IGNORECASE)


def _pair(times: list[_Mention], dates: list[_Mention], text: str) -> tuple[
        list[tuple[_Mention | None, _Mention]], list[str]]:
    """Each time with its nearest date in the same line (dates between two times go to the
    nearer one). A reschedule's 'from <time>' is the old slot and is dropped."""
    notes: list[str] = []
    kept = []
    for t in times:
        before = text[max(0, t.start - 6): t.start].lower()
        if "from" in before and re.search(r"\bto\b", text[t.end: t.end + 12].lower()):
            continue
        kept.append(t)
    if len(kept) > 1 and _MOVE.search(text):
        # "move the 3pm to 4pm": the time after 'to' is the new one
        after_to = [t for t in kept if re.search(r"\bto\s*$", text[max(0, t.start - 8):
                                                                     t.start].lower())]
        if len(after_to) == 1:
            kept = after_to
    pairs: list[tuple[_Mention | None, _Mention]] = []
    for t in kept:
        line_start = text.rfind("\n", 0, t.start) + 1
        line_end = text.find("\n", t.end)
        line_end = len(text) if line_end < 0 else line_end
        candidates = [d for d in dates if d.end <= line_end and d.start >= line_start]
        if not candidates:
            candidates = dates if len(dates) == 1 else []
        best = min(candidates, key=lambda d: min(abs(d.start - t.end), abs(t.start - d.end)),
                   default=None)
        pairs.append((best, t))
    return pairs, notes


def _or_between(text: str, a: _Mention, b: _Mention) -> bool:
    lo, hi = sorted((a, b), key=lambda m: m.start)
    gap = text[lo.end: hi.start].lower()
    return len(gap) <= 12 and bool(re.search(r"\bor\b|/|또는|아니면|이나", gap))


def read_text(
    subject: str,
    body: str,
    anchor: datetime | None,
    *,
    user_zone: str = "UTC",
    locale: str = "en-US",
    sender: str = "",
) -> Reading:
    """Read a proposed slot from the words of a mail, anchored at its Date header."""
    words, anchor, notes = _own_words(body[:MAX_TEXT_CHARS], anchor)
    text = unicodedata.normalize("NFKC", f"{subject[:500]}\n{words}")
    links = meeting_links(text)
    kind = "cancel" if _CANCEL.search(text) else "reschedule" if _MOVE.search(text) else "propose"
    if anchor is None or anchor.tzinfo is None:
        return Reading("text", kind, UNSURE, "none", None,
                       "no Date header: relative words cannot be anchored", tuple(notes),
                       links=links)
    zone_id, zone_word = _zone(text)
    user_tz = ZoneInfo(user_zone)
    sender_offset = anchor.utcoffset()
    if zone_id:
        tz: tzinfo = ZoneInfo(zone_id)
        zone_name = zone_id
        notes.append(f"'{zone_word}' read as {zone_id} wall-clock time")
    elif anchor.astimezone(user_tz).utcoffset() == sender_offset:
        tz, zone_name = user_tz, user_zone
    else:
        tz = timezone(sender_offset or timedelta(0))
        zone_name = str(tz)
        notes.append(f"times read at the sender's offset {zone_name} (from the Date header)")
    day0 = anchor.date()  # the sender's own day, from the Date header's offset
    dates, rest = _dates(text, day0, locale, sender)
    times, rest = _times(rest)
    for m in dates + times:
        notes.extend(m.notes)
    duration = _duration(rest)
    exact = [t for t in times if t.kind == "exact"]
    windows = [t for t in times if t.kind == "window"]

    def unsure(why: str, options: tuple[Slot, ...] = ()) -> Reading:
        return Reading("text", kind, UNSURE, "none" if not dates else "day", None,
                       why, tuple(notes), options=options, zone=zone_name, links=links)

    if not dates and not times:
        return unsure("no date or time found")
    # a weekday next to an explicit date must agree with it ("Thursday, Dec 10")
    for wd in [d for d in dates if d.kind == "weekday"]:
        for ex in [d for d in dates if d.kind == "explicit"]:
            if abs(wd.end - ex.start) <= 3 or abs(ex.end - wd.start) <= 3:
                if wd.value.weekday() != ex.value.weekday():
                    return unsure(f"the weekday does not match the date {ex.value.isoformat()}")
                dates = [d for d in dates if d is not wd]
    if exact:
        pairs, more = _pair(exact, dates, text)
        notes.extend(more)
        if not pairs:
            # every time named was a move's old slot ("from 4pm to ..."): no new one given
            return unsure("only the old time of a move was found")
        slots: list[Slot] = []
        for d, t in pairs:
            if d is None:
                if not _time_only_today_ok(text):
                    return unsure(f"a time ({t.value[0].strftime('%H:%M')}) without a day")
                day = day0
                notes.append("'today' implied by the wording")
            else:
                day = d.value
            start_t, end_t, _ = t.value
            start = _at(day, start_t, tz)
            if end_t is not None:
                end = _at(day, end_t, tz)
            else:
                length = duration or DEFAULT_DURATION
                if duration is None:
                    notes.append("no end or duration stated: 30 minutes assumed")
                end = start + length
            slots.append(Slot(start, end))
        unique = tuple(dict.fromkeys(slots))
        if len(unique) > 1:
            return unsure(f"{len(unique)} options offered", unique)
        slot = unique[0]
        used = {id(d) for d, _ in pairs if d is not None}
        for d in dates:
            if id(d) in used:
                continue
            for u in [p for p, _ in pairs if p is not None]:
                if _or_between(text, d, u):
                    return unsure("a choice of days offered")
        if slot.start < anchor:
            return unsure(f"the slot {slot.start.isoformat()} is before the mail was sent")
        return Reading("text", kind, LIKELY, "exact", slot,
                       f"{kind} {_describe(slot)} ({zone_name})", tuple(notes),
                       zone=zone_name, links=links)
    if windows and dates:
        days = list(dict.fromkeys(d.value for d in dates))
        if len(days) > 1:
            return unsure(f"{len(days)} days mentioned with a part of day")
        lo, hi = windows[0].value
        slot = Slot(_at(days[0], lo, tz), _at(days[0], hi, tz))
        if slot.end <= anchor:
            return unsure("the window is before the mail was sent")
        return Reading("text", kind, LIKELY, "window", slot,
                       f"{kind} a time in the window {_describe(slot)} ({zone_name})",
                       tuple(notes), zone=zone_name, links=links)
    if dates and not times:
        days = list(dict.fromkeys(d.value for d in dates))
        return unsure(f"a day ({', '.join(d.isoformat() for d in days[:3])}) without a time")
    return unsure("a part of day without a day")


def _time_only_today_ok(text: str) -> bool:
    return bool(re.search(r"\blater today\b|\bthis afternoon\b|\bthis morning\b", text, re.I))


def _at(day: date, at: time, tz: tzinfo) -> datetime:
    """Wall-clock `at` on `day` in `tz`; a time inside a DST gap moves forward by the gap."""
    value = datetime.combine(day, at, tz)
    if isinstance(tz, ZoneInfo):
        round_trip = value.astimezone(UTC).astimezone(tz)
        if round_trip.replace(tzinfo=None) != value.replace(tzinfo=None):
            return round_trip  # nonexistent local time: the instant it maps to
    return value


# -- one message -----------------------------------------------------------------------------


def read_message(
    *,
    subject: str,
    body: str,
    date_header: str | None,
    calendar_parts: tuple[str, ...] = (),
    sender: str = "",
    user_zone: str = "UTC",
    locale: str = "en-US",
) -> Reading:
    """The calendar part wins when there is one with an event; else the words."""
    for part in calendar_parts[:4]:
        invite = read_ics(part, user_zone)
        if invite.problem == "no event in the calendar part" and not invite.uid:
            continue
        reading = reading_from_invite(invite, sender)
        links = tuple(dict.fromkeys(reading.links + meeting_links(body[:MAX_TEXT_CHARS])))
        return _replace_links(reading, links)
    anchor = None
    if date_header:
        try:
            anchor = datetime.fromisoformat(date_header)
        except ValueError:
            anchor = None
    return read_text(subject, body, anchor, user_zone=user_zone, locale=locale, sender=sender)


def _replace_links(reading: Reading, links: tuple[str, ...]) -> Reading:
    from dataclasses import replace

    return replace(reading, links=links)


# -- checking the calendar ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MeetingCheck:
    """The reading against the user's calendar: clashes, that day's events, alternatives."""

    reading: Reading
    conflicts: tuple[Busy, ...] = ()
    nearby: tuple[Busy, ...] = ()
    alternatives: tuple[Alternative, ...] = ()
    counterparty: str = "unknown"  # free | busy | unknown (absent free/busy is not free)
    outside_hours: bool = False
    checked: bool = False  # False: nothing to check (unsure, a reply, a cancellation)

    @property
    def clash(self) -> bool:
        return bool(self.conflicts) or self.counterparty == "busy"

    @property
    def clash_is_theirs(self) -> bool:
        """The user is free; the other person's free/busy shows them busy."""
        return not self.conflicts and self.counterparty == "busy"

    def as_dict(self) -> dict[str, Any]:
        return {"reading": self.reading.as_dict(), "checked": self.checked,
                "clash": self.clash, "outside_hours": self.outside_hours,
                "counterparty": self.counterparty,
                "conflicts": [b.as_dict() for b in self.conflicts],
                "nearby": [b.as_dict() for b in self.nearby],
                "alternatives": [a.as_dict() for a in self.alternatives]}


def check_meeting(reading: Reading, calendar: Calendar, hours: WorkingHours,
                  counterparty: FreeBusy | None = None) -> MeetingCheck:
    """Conflicts, nearby events and (on a clash, or for a part-of-day window) up to three
    free alternatives anchored at the proposal. Nothing is checked for an unsure reading,
    a reply or a cancellation: there is no slot to accept."""
    slot = reading.slot
    if slot is None or reading.certainty == UNSURE or reading.kind in ("reply", "cancel",
                                                                        "declinecounter"):
        return MeetingCheck(reading)
    own_uid = reading.invite.uid if reading.invite else ""
    nearby = tuple(calendar.nearby(slot, hours.zone))
    if reading.precision == "window":
        length = DEFAULT_DURATION
        first = Slot(slot.start, slot.start + length)
        window_alts = alternatives(first, calendar, hours, counterparty, window=slot,
                                   ignore_uid=own_uid)
        if not calendar.conflicts(first, ignore_uid=own_uid) and (
                counterparty is None or counterparty.state(first) == "free"):
            window_alts = [Alternative(first, counterparty.state(first) if counterparty else
                                       "unknown"), *window_alts][:3]
        return MeetingCheck(reading, (), nearby, tuple(window_alts), "unknown", False, True)
    conflicts = tuple(calendar.conflicts(slot, ignore_uid=own_uid))
    theirs = counterparty.state(slot) if counterparty is not None else "unknown"
    outside = not slot.all_day and not within_working_hours(slot, hours)
    alts: tuple[Alternative, ...] = ()
    if conflicts or theirs == "busy":
        alts = tuple(alternatives(slot, calendar, hours, counterparty, ignore_uid=own_uid))
    return MeetingCheck(reading, conflicts, nearby, alts, theirs, outside, True)


def may_auto_accept(check: MeetingCheck, auto_eligible: bool) -> tuple[bool, str]:
    """Whether unattended handling may accept this meeting. The account's mode and daily cap
    are checked where the receipt is minted (act); this adds what only the meeting knows:
    the slot must be read surely or likely, exactly, checked, inside working hours, and free.
    A conflicting slot is never accepted unattended."""
    reading = check.reading
    if not auto_eligible:
        return False, "not auto-eligible (policy)"
    if not reading.event_allowed:
        return False, f"slot not exact or not sure ({reading.certainty}, {reading.precision})"
    if not check.checked:
        return False, "no calendar check"
    if check.clash:
        return False, "the slot conflicts"
    if check.outside_hours:
        return False, "outside working hours"
    return True, "free, exact, inside working hours"
