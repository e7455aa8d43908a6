"""Reading a VFREEBUSY answer (core.ical.read_freebusy): busy types only, periods as
start/end or start/duration, and anything else is a problem, never "free"."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from mailmoat.core.ical import MAX_BUSY_PERIODS, read_freebusy


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
