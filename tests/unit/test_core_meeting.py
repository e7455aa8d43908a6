"""Reading meeting requests: calendar parts and plain words, anchored at the mail's Date."""

from __future__ import annotations

import time
import tracemalloc
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mailmoat.core.ical import MAX_OCCURRENCES, meeting_links, occurrences, read_ics
from mailmoat.core.meeting import LIKELY, SURE, UNSURE, read_message, read_text
from mailmoat.core.message import parse_message
from mailmoat.core.slots import Slot

BER = ZoneInfo("Europe/Berlin")
SEOUL = ZoneInfo("Asia/Seoul")
TUE = datetime.fromisoformat("2026-12-01T09:25:00+01:00")  # Tuesday 1 Dec 2026, Berlin


def read(body: str, anchor: datetime = TUE, zone: str = "Europe/Berlin", **kw: str):
    return read_text("", body, anchor, user_zone=zone, **kw)


def span(r) -> tuple[str, str]:
    assert r.slot is not None, r
    return r.slot.start.isoformat(), r.slot.end.isoformat()


@pytest.mark.parametrize(("body", "start", "end"), [
    ("can we move tomorrow's sync to 4pm?", "2026-12-02T16:00:00+01:00",
     "2026-12-02T16:30:00+01:00"),
    ("Thursday 10–11 CET works", "2026-12-03T10:00:00+01:00", "2026-12-03T11:00:00+01:00"),
    ("3/5 at 9", "2027-03-05T09:00:00+01:00", "2027-03-05T09:30:00+01:00"),
    ("내일 오후 3시 어떠세요?", "2026-12-02T15:00:00+01:00", "2026-12-02T15:30:00+01:00"),
    ("다음 주 화요일 오전 10시~11시 괜찮으세요?", "2026-12-08T10:00:00+01:00",
     "2026-12-08T11:00:00+01:00"),
    ("could we move Thursday's design review to Friday at 10am?",
     "2026-12-04T10:00:00+01:00", "2026-12-04T10:30:00+01:00"),
    ("How about Dec 10 at 14:30 for an hour?", "2026-12-10T14:30:00+01:00",
     "2026-12-10T15:30:00+01:00"),
    ("Monday, December 7 from 2 to 3pm PT", "2026-12-07T14:00:00-08:00",
     "2026-12-07T15:00:00-08:00"),
])
def test_plain_language_slots(body: str, start: str, end: str) -> None:
    r = read(body)
    assert r.certainty == LIKELY and r.event_allowed
    assert span(r) == (start, end)


def test_locale_decides_an_ambiguous_numeric_date() -> None:
    us = read("3/5 at 9", locale="en-US")
    gb = read("3/5 at 9", locale="en-GB")
    de_sender = read("3/5 at 9", locale="en-US", sender="anna@firma.de")
    assert us.slot and us.slot.start.month == 3 and us.slot.start.day == 5
    assert gb.slot and gb.slot.start.month == 5 and gb.slot.start.day == 3
    assert de_sender.slot and de_sender.slot.start.month == 5
    assert any("month first" in n for n in us.notes)


def test_next_weekday_means_the_following_week() -> None:
    r = read("next Tuesday afternoon?")
    assert r.precision == "window" and not r.event_allowed
    assert span(r) == ("2026-12-08T13:00:00+01:00", "2026-12-08T17:00:00+01:00")
    fri = datetime.fromisoformat("2026-12-04T10:00:00+01:00")
    assert read("next Tuesday at 3pm", fri).slot.start.day == 8  # type: ignore[union-attr]
    assert read("Tuesday at 3pm", fri).slot.start.day == 8  # type: ignore[union-attr]
    assert read("Tuesday at 3pm").slot.start.day == 8  # type: ignore[union-attr]


def test_anchor_is_the_date_header_not_the_clock() -> None:
    a = read("tomorrow at 10am", datetime.fromisoformat("2024-02-28T12:00:00+01:00"))
    assert span(a)[0] == "2024-02-29T10:00:00+01:00"
    # A late-evening mail from Seoul: "tomorrow" is the sender's tomorrow.
    late = datetime.fromisoformat("2026-12-01T23:30:00+09:00")
    kr = read("내일 오전 10시", late, zone="Asia/Seoul")
    assert span(kr)[0] == "2026-12-02T10:00:00+09:00"


def test_dst_boundary_uses_the_zone_of_the_proposed_day() -> None:
    # Sent Fri 23 Oct 2026 (+02:00); Berlin leaves summer time on 25 Oct.
    r = read("next Tuesday at 10", datetime.fromisoformat("2026-10-23T09:00:00+02:00"))
    assert span(r)[0] == "2026-10-27T10:00:00+01:00"
    # Spring forward: 02:30 on 29 Mar 2026 does not exist in Berlin.
    gap = read("Sunday at 2:30", datetime.fromisoformat("2026-03-27T09:00:00+01:00"))
    assert gap.slot is not None and gap.slot.start.utcoffset() == timedelta(hours=2)


def test_sender_offset_is_used_when_it_is_not_the_user_zone() -> None:
    r = read("tomorrow at 9am", datetime.fromisoformat("2026-12-01T08:00:00-05:00"))
    assert span(r)[0] == "2026-12-02T09:00:00-05:00"
    assert any("sender's offset" in n for n in r.notes)


@pytest.mark.parametrize("body", [
    "let's meet sometime next week",
    "다음 주 화요일 가능하세요?",
    "Tuesday 10am or Wednesday 2pm?",
    "Tuesday or Wednesday at 2pm?",
    "can we talk at 4pm?",
    "Thursday, Dec 10 at 3pm",  # Dec 10 2026 is a Thursday: fine ...
])
def test_unsure_never_allows_an_event(body: str) -> None:
    r = read(body)
    if body.startswith("Thursday, Dec 10"):
        assert r.event_allowed
        assert read("Wednesday, Dec 10 at 3pm").certainty == UNSURE  # ... a mismatch is not
        return
    assert r.certainty == UNSURE
    assert not r.event_allowed and r.slot is None


def test_a_slot_before_the_mail_is_unsure_and_no_date_header_is_unsure() -> None:
    assert read("today at 8am").certainty == UNSURE
    assert read_text("", "tomorrow at 10am", None).certainty == UNSURE


def test_quoted_history_is_not_read_and_forwarded_mail_uses_its_own_date() -> None:
    body = "Friday at 11am works for me.\n\nOn Mon, Nov 30, 2026 Sam wrote:\n> Thursday at 3pm?"
    assert span(read(body))[0] == "2026-12-04T11:00:00+01:00"
    fwd = ("FYI see below\n\n---------- Forwarded message ---------\nFrom: Sam <s@x.example>\n"
           "Date: Mon, 23 Nov 2026 10:00:00 +0100\nSubject: sync\n\nCan we do tomorrow at 10am?")
    assert span(read(fwd))[0] == "2026-11-24T10:00:00+01:00"


def test_meeting_links_and_kinds() -> None:
    body = ("Let's cancel Thursday's call at 3pm. "
            "https://acme.zoom.us/j/123456789?pwd=abc and https://meet.google.com/abc-defg-hij")
    r = read(body)
    assert r.kind == "cancel"
    assert r.links == ("https://acme.zoom.us/j/123456789?pwd=abc",
                       "https://meet.google.com/abc-defg-hij")
    assert meeting_links("https://teams.microsoft.com/l/meetup-join/19%3ameeting_x%40thread.v2/0")


# -- calendar parts ---------------------------------------------------------------------------

HEAD = ("UID:a@x.example\r\nDTSTAMP:20261201T000000Z\r\nORGANIZER;CN=Jamie:mailto:jamie@x.example"
        "\r\nATTENDEE;PARTSTAT=NEEDS-ACTION;CN=You:mailto:you@example.org\r\nSUMMARY:Sync\r\n")


def cal(event: str, method: str = "REQUEST", extra: str = "") -> str:
    m = f"METHOD:{method}\r\n" if method else ""
    return (f"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n{m}{extra}BEGIN:VEVENT\r\n"
            f"{HEAD}{event}END:VEVENT\r\nEND:VCALENDAR\r\n")


def test_itip_methods() -> None:
    times = "DTSTART:20261208T150000Z\r\nDTEND:20261208T153000Z\r\n"
    for method, kind in (("REQUEST", "request"), ("CANCEL", "cancel"), ("COUNTER", "counter"),
                         ("REPLY", "reply"), ("", "publish")):
        inv = read_ics(cal(times, method))
        assert inv.method == kind and not inv.problem
        assert inv.organizer and inv.organizer.address == "jamie@x.example"
        assert inv.attendees[0].address == "you@example.org"


def test_vtimezone_iana_all_day_and_duration() -> None:
    vtz = ("BEGIN:VTIMEZONE\r\nTZID:Custom/Zone\r\nBEGIN:STANDARD\r\nDTSTART:19701025T030000\r\n"
           "TZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nRRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10\r\n"
           "END:STANDARD\r\nBEGIN:DAYLIGHT\r\nDTSTART:19700329T020000\r\nTZOFFSETFROM:+0100\r\n"
           "TZOFFSETTO:+0200\r\nRRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3\r\nEND:DAYLIGHT\r\n"
           "END:VTIMEZONE\r\n")
    inv = read_ics(cal("DTSTART;TZID=Custom/Zone:20260708T100000\r\n"
                       "DTEND;TZID=Custom/Zone:20260708T110000\r\n", extra=vtz))
    assert inv.slot and inv.slot.start.utcoffset() == timedelta(hours=2)
    iana = read_ics(cal("DTSTART;TZID=Asia/Seoul:20261208T100000\r\nDURATION:PT45M\r\n"))
    assert iana.slot == Slot(datetime(2026, 12, 8, 10, tzinfo=SEOUL),
                             datetime(2026, 12, 8, 10, 45, tzinfo=SEOUL))
    day = read_ics(cal("DTSTART;VALUE=DATE:20261224\r\n"), user_zone="Europe/Berlin")
    assert day.slot and day.slot.all_day
    assert day.slot.end - day.slot.start == timedelta(days=1)


def test_malformed_parts_give_a_clear_outcome() -> None:
    bad_tz = read_ics(cal("DTSTART;TZID=Mars/Olympus:20261208T100000\r\n"))
    assert bad_tz.problem == "unknown time zone 'Mars/Olympus'" and bad_tz.slot is None
    no_end = read_ics(cal("DTSTART:20261208T150000Z\r\n"))
    assert no_end.slot and no_end.slot.duration == timedelta(0) and no_end.assumed_end
    r = read_message(subject="x", body="", date_header=None, calendar_parts=(
        cal("DTSTART:20261208T150000Z\r\n"),))
    assert r.certainty == LIKELY  # an assumed end is not "sure"
    assert read_ics("garbage").problem.startswith("calendar part unreadable")
    assert read_ics(cal("DTSTART:2026120X\r\n")).problem == "unreadable date"
    back = read_ics(cal("DTSTART:20261208T150000Z\r\nDTEND:20261208T140000Z\r\n"))
    assert back.problem == "event ends before it starts"
    unsure = read_message(subject="", body="Friday at 10am", date_header=TUE.isoformat(),
                          calendar_parts=(cal("DTSTART;TZID=Nowhere/X:20261208T100000\r\n"),))
    assert unsure.certainty == UNSURE and not unsure.event_allowed  # never falls back to words


def test_huge_recurrence_and_huge_parts_are_bounded_in_time_and_memory() -> None:
    rrule = cal("DTSTART:20261208T150000Z\r\nDTEND:20261208T153000Z\r\n"
                "RRULE:FREQ=MINUTELY;COUNT=10000\r\n")
    daily = cal("DTSTART:20261208T150000Z\r\nDTEND:20261208T153000Z\r\n"
                "RRULE:FREQ=DAILY;COUNT=10000\r\n")
    many = cal("DTSTART:20261208T150000Z\r\n" + "END:VEVENT\r\nBEGIN:VEVENT\r\n" * 10_000)
    huge = cal("DTSTART:20261208T150000Z\r\nDESCRIPTION:" + "x" * 5_000_000 + "\r\n")
    tracemalloc.start()
    started = time.process_time()
    inv = read_ics(daily)
    assert inv.occurrences == MAX_OCCURRENCES and inv.occurrences_capped
    assert read_ics(rrule).notes == ("recurrence frequency not expanded",)
    assert "more than 50 events" in read_ics(many).problem
    assert "larger than" in read_ics(huge).problem
    year = Slot(datetime(2026, 12, 1, tzinfo=BER), datetime(2027, 12, 1, tzinfo=BER))
    assert len(occurrences(inv, year)) == 358  # 8 Dec 2026 .. 30 Nov 2027
    decades = Slot(datetime(2026, 12, 1, tzinfo=BER), datetime(2056, 12, 1, tzinfo=BER))
    assert len(occurrences(inv, decades, limit=5000)) == MAX_OCCURRENCES  # never all 10,000
    elapsed = time.process_time() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    # Generous bounds: the point is "bounded", not a speed goal (that is bench/).
    assert elapsed < 5 and peak < 64 * 1024 * 1024


def test_read_message_prefers_the_calendar_part_and_keeps_body_links() -> None:
    raw = (b"From: Jamie <jamie@x.example>\r\nTo: you@example.org\r\nSubject: Invite\r\n"
           b"Date: Tue, 01 Dec 2026 09:08:00 +0000\r\nMIME-Version: 1.0\r\n"
           b"Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n"
           b"Content-Type: text/plain\r\n\r\nJoin: https://meet.google.com/abc-defg-hij\r\n--b\r\n"
           b"Content-Type: text/calendar; method=REQUEST\r\n\r\n"
           + cal("DTSTART:20261208T150000Z\r\nDTEND:20261208T153000Z\r\n").encode()
           + b"\r\n--b--\r\n")
    msg = parse_message(raw)
    r = read_message(subject=msg.subject, body=msg.body_text, date_header=msg.date,
                     calendar_parts=msg.calendar_parts, sender=msg.from_addr)
    assert r.source == "ics" and r.certainty == SURE and r.kind == "request"
    assert r.links == ("https://meet.google.com/abc-defg-hij",)
    assert r.as_dict()["invite"]["uid"] == "a@x.example"


@pytest.mark.parametrize("rule", [
    "FREQ=WEEKLY", "FREQ=DAILY", "FREQ=WEEKLY;INTERVAL=2", "FREQ=DAILY;COUNT=400",
    "FREQ=WEEKLY;COUNT=30", "FREQ=WEEKLY;UNTIL=20270301T000000Z",
    "FREQ=DAILY;UNTIL=20261215T083000Z",
    "FREQ=WEEKLY;BYDAY=MO,WE", "FREQ=MONTHLY;BYMONTHDAY=15",
])
def test_expansion_shortcut_matches_the_full_walk(rule: str) -> None:
    """Old series jump ahead by arithmetic; the instances must be exactly dateutil's, also
    across DST changes (wall-clock times stay put)."""
    from dateutil.rrule import rrulestr

    from mailmoat.core.ical import expand

    first = Slot(datetime(2026, 3, 2, 9, 30, tzinfo=BER), datetime(2026, 3, 2, 10, tzinfo=BER))
    window = Slot(datetime(2026, 11, 20, tzinfo=BER), datetime(2026, 12, 20, tzinfo=BER))
    expected = [Slot(b, b + first.duration) for b in rrulestr(f"RRULE:{rule}",
                                                               dtstart=first.start)
                .between(window.start - first.duration, window.end, inc=False)
                if Slot(b, b + first.duration).overlaps(window)]
    assert expand(first, rule, window) == expected
    assert all(s.start.hour == 9 for s in expected)


_WORDS = st.sampled_from([
    "tomorrow", "next", "Tuesday", "Thursday's", "at", "4pm", "10–11", "CET", "PT", "3/5", "9",
    "noon", "afternoon", "or", "내일", "오후", "3시", "반", "다음 주", "화요일", "12월", "10일",
    "move", "cancel", "from", "to", "2026-12-08", "Dec", "31", "for", "45 minutes", "an hour",
    "\n", ">", "On Mon wrote:", "13:75", "25pm", "0/0", "99/99", "Europe/Berlin", "UTC"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_WORDS, max_size=14).map(" ".join), st.text(max_size=40))
@example("from 4pm to", "")  # only a move's old slot: once an IndexError
def test_words_never_raise_and_an_event_is_never_before_the_mail(words: str, noise: str) -> None:
    r = read(words + " " + noise)
    assert r.certainty in (LIKELY, UNSURE)
    if r.event_allowed:
        assert r.slot is not None and r.slot.start >= TUE and r.slot.end >= r.slot.start


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([
    "BEGIN:VCALENDAR", "END:VCALENDAR", "BEGIN:VEVENT", "END:VEVENT", "METHOD:REQUEST",
    "DTSTART:20261208T150000Z", "DTEND:20261208T140000Z", "DTSTART;TZID=X/Y:20261208T1500",
    "DTSTART;VALUE=DATE:20261208", "RRULE:FREQ=SECONDLY", "RRULE:FREQ=DAILY;COUNT=99999",
    "UID:a", "DURATION:PT1H", "DURATION:bogus", "SEQUENCE:x", "ATTENDEE:mailto:", "BEGIN:VTIMEZONE",
    "TZID:X/Y", "END:VTIMEZONE", "garbage", ""]), max_size=16).map("\r\n".join))
def test_calendar_parts_never_raise(text: str) -> None:
    inv = read_ics(text, "Europe/Berlin")
    assert inv.problem or inv.slot is not None
