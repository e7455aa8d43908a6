"""Reading a VFREEBUSY answer (core.ical.read_freebusy): busy types only, periods as
start/end or start/duration, and anything else is a problem, never "free"."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from mailmoat.core.ical import MAX_BUSY_PERIODS, read_counterparty, read_freebusy
from mailmoat.core.slots import Slot


def _fb(lines: str) -> str:
    return ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//EN\r\nBEGIN:VFREEBUSY\r\n"
            "DTSTART:20261201T000000Z\r\nDTEND:20261231T000000Z\r\n" + lines
            + "END:VFREEBUSY\r\nEND:VCALENDAR\r\n")


def test_busy_periods_of_every_busy_type_and_no_free_ones() -> None:
    busy, problem = read_freebusy(_fb(
        "FREEBUSY;FBTYPE=BUSY:20261209T100000Z/20261209T110000Z\r\n"
        "FREEBUSY;FBTYPE=FREE:20261209T120000Z/20261209T130000Z\r\n"
        "FREEBUSY;FBTYPE=BUSY-TENTATIVE:20261210T100000Z/PT30M\r\n"
        "FREEBUSY:20261208T100000Z/20261208T110000Z\r\n"))
    assert problem == ""
    assert [(s.start, s.end) for s in busy] == [
        (datetime(2026, 12, 8, 10, tzinfo=UTC), datetime(2026, 12, 8, 11, tzinfo=UTC)),
        (datetime(2026, 12, 9, 10, tzinfo=UTC), datetime(2026, 12, 9, 11, tzinfo=UTC)),
        (datetime(2026, 12, 10, 10, tzinfo=UTC), datetime(2026, 12, 10, 10, 30, tzinfo=UTC))]
    assert read_freebusy(_fb("")) == ([], "")  # an answer with nothing busy: free


def test_anything_but_a_free_busy_answer_is_a_problem() -> None:
    listing = "<?xml version='1.0'?><multistatus xmlns='DAV:'><response/></multistatus>"
    assert read_freebusy(listing)[1] == "not a VFREEBUSY answer"
    assert read_freebusy("BEGIN:VFREEBUSY\r\ngarbage")[1].startswith("free/busy answer")
    floating = read_freebusy(_fb("FREEBUSY:20261209T100000/20261209T110000\r\n"))
    assert floating[0] == [] and "UTC" in floating[1]
    first = datetime(2026, 12, 1, tzinfo=UTC)
    many = "".join(f"FREEBUSY:{first + timedelta(minutes=2 * i):%Y%m%dT%H%M%SZ}/PT1M\r\n"
                   for i in range(MAX_BUSY_PERIODS + 1))
    assert read_freebusy(_fb(many)) == ([], f"more than {MAX_BUSY_PERIODS} busy periods: "
                                             "not read")


# What DAViCal 1.1.12 answered for one recipient of an RFC 6638 free/busy request (the
# calendar-data of its schedule-response), as recorded by tests/integration/
# test_calendar_scheduling.py. The server itself is proved there; this pins the reading.
DAVICAL_REPLY = (
    "BEGIN:VCALENDAR\r\nPRODID:-//davical.org//NONSGML AWL Calendar//EN\r\nVERSION:2.0\r\n"
    "CALSCALE:GREGORIAN\r\nMETHOD:REPLY\r\nBEGIN:VFREEBUSY\r\nDTSTAMP:20261204T144442Z\r\n"
    "DTSTART:20261207T000000Z\r\nDTEND:20261212T000000Z\r\n"
    "FREEBUSY:20261208T140000Z/20261208T150000Z\r\n"
    "UID:4b4c097b-da31-45fd-92f9-3afd8600b8d4\r\n"
    "ORGANIZER;CN=Alice;CUTYPE=INDIVIDUAL:mailto:alice@example.test\r\n"
    "ATTENDEE:mailto:bob@example.test\r\nEND:VFREEBUSY\r\nEND:VCALENDAR\r\n")


def _utc(day: int, hour: int = 0) -> datetime:
    return datetime(2026, 12, day, hour, tzinfo=UTC)


def test_a_scheduling_answer_is_known_only_for_the_time_it_covers() -> None:
    asked = Slot(_utc(6), _utc(10))
    known, problem = read_counterparty(DAVICAL_REPLY, asked, "Bob@Example.test")
    assert problem == "" and known is not None
    assert known.window == Slot(_utc(7), _utc(10))  # cut to the answer and to what was asked
    assert known.state(Slot(_utc(8, 14), _utc(8, 15))) == "busy"
    assert known.state(Slot(_utc(8, 15), _utc(8, 16))) == "free"
    assert known.state(Slot(_utc(6, 9), _utc(6, 10))) == "unknown"  # before the answer's start
    assert known.state(Slot(_utc(10, 9), _utc(10, 10))) == "unknown"  # after what was asked


def test_a_doubtful_scheduling_answer_is_unknown_never_free() -> None:
    asked = Slot(_utc(6), _utc(10))
    someone_else = DAVICAL_REPLY.replace("ATTENDEE:mailto:bob@", "ATTENDEE:mailto:eve@")
    assert read_counterparty(someone_else, asked, "bob@example.test") == (
        None, "the answer is about someone else: not read")
    no_window = DAVICAL_REPLY.replace("DTSTART:20261207T000000Z\r\n", "")
    assert read_counterparty(no_window, asked, "bob@example.test")[0] is None
    elsewhere = Slot(_utc(20), _utc(21))
    assert read_counterparty(DAVICAL_REPLY, elsewhere, "bob@example.test") == (
        None, "the answer covers none of the time asked about")
    two = DAVICAL_REPLY.replace("END:VCALENDAR", "BEGIN:VFREEBUSY\r\nEND:VFREEBUSY\r\n"
                                "END:VCALENDAR")
    assert read_counterparty(two, asked, "bob@example.test")[0] is None
    for bad in ("", "<schedule-response/>", "BEGIN:VFREEBUSY\r\ngarbage"):
        assert read_counterparty(bad, asked, "bob@example.test")[0] is None
