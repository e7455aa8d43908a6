"""Slots: conflicts, nearby events and alternatives, anchored at the proposal (never the clock)."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from mailmoat.core.slots import (
    Busy,
    Calendar,
    FreeBusy,
    Slot,
    SlotError,
    WorkingHours,
    alternatives,
    within_working_hours,
)

BER = ZoneInfo("Europe/Berlin")


def at(day: int, hour: int, minute: int = 0, month: int = 12) -> datetime:
    return datetime(2026, month, day, hour, minute, tzinfo=BER)


def busy(day: int, h1: float, h2: float, uid: str = "", month: int = 12) -> Busy:
    start = at(day, int(h1), int((h1 % 1) * 60), month)
    end = at(day, int(h2), int((h2 % 1) * 60), month)
    return Busy(Slot(start, end), uid=uid or f"e{day}-{h1}")


HOURS = WorkingHours(zone="Europe/Berlin")


def test_naive_and_backwards_slots_are_errors() -> None:
    with pytest.raises(SlotError):
        Slot(datetime(2026, 12, 1, 9), datetime(2026, 12, 1, 10))
    with pytest.raises(SlotError):
        Slot(at(1, 10), at(1, 9))


def test_conflicts_are_half_open_and_ignore_free_events() -> None:
    cal = Calendar([busy(1, 9, 10), busy(1, 10, 11, "b"),
                    Busy(Slot(at(1, 12), at(1, 13)), "free", transparent=True)])
    assert [e.uid for e in cal.conflicts(Slot(at(1, 10), at(1, 10, 30)))] == ["b"]
    assert cal.conflicts(Slot(at(1, 11), at(1, 12))) == []
    assert cal.conflicts(Slot(at(1, 12), at(1, 12, 30))) == []  # transparent never blocks
    assert cal.conflicts(Slot(at(1, 10), at(1, 10, 30)), ignore_uid="b") == []


def test_a_long_event_that_started_earlier_still_conflicts() -> None:
    cal = Calendar([Busy(Slot(at(1, 8), at(3, 20)), "offsite")] + [busy(d, 9, 10) for d in
                                                                     range(4, 20)])
    assert [e.uid for e in cal.conflicts(Slot(at(2, 14), at(2, 15)))] == ["offsite"]


def test_nearby_lists_the_whole_day_in_the_user_zone() -> None:
    cal = Calendar([busy(1, 0, 1), busy(1, 9, 10), busy(1, 23, 23.5), busy(2, 9, 10)])
    got = cal.nearby(Slot(at(1, 14), at(1, 15)), "Europe/Berlin")
    assert [e.slot.start.hour for e in got] == [0, 9, 23]


def test_alternatives_are_on_the_grid_inside_hours_after_the_proposal() -> None:
    # Tue 1 Dec 15:00-16:00 clashes; 16:00-17:00 is busy too; next free: 17:00-18:00 that
    # day, then Wed 09:00 and 09:30 (the proposal's own length, one hour).
    cal = Calendar([busy(1, 15, 16), busy(1, 16, 17)])
    alts = alternatives(Slot(at(1, 15), at(1, 16)), cal, HOURS)
    assert [(a.slot.start, a.slot.end) for a in alts] == [
        (at(1, 17), at(1, 18)), (at(2, 9), at(2, 10)), (at(2, 9, 30), at(2, 10, 30))]
    assert all(a.counterparty == "unknown" for a in alts)  # absent free/busy is not free


def test_alternatives_skip_weekends_and_stop_after_five_working_days() -> None:
    # Fri 4 Dec 17:30 proposal; the whole next week is booked except Thu 10 Dec 09:00.
    events = [busy(4, 9, 18)] + [busy(d, 9, 18) for d in (7, 8, 9)]
    events += [busy(10, 9.5, 18), busy(11, 9, 18)]
    alts = alternatives(Slot(at(4, 17, 30), at(4, 18)), Calendar(events), HOURS)
    assert [a.slot.start for a in alts] == [at(10, 9)]
    # Mon 14 Dec is the 6th working day from Fri 4 Dec: never offered.
    events.remove(events[-1])
    alts = alternatives(Slot(at(4, 17, 30), at(4, 18)), Calendar(events), HOURS)
    assert at(14, 9) not in [a.slot.start for a in alts]


def test_counterparty_free_busy_is_respected_and_outside_its_window_unknown() -> None:
    cal = Calendar([busy(1, 15, 16)])
    theirs = FreeBusy(Slot(at(1, 0), at(2, 0)), busy=(Slot(at(1, 16), at(1, 17)),))
    alts = alternatives(Slot(at(1, 15), at(1, 16)), cal, HOURS, theirs)
    # 16:00 and 16:30 are busy on their side; 17:00-18:00 is free for both; nothing after
    # the window's end is offered because nothing is known there.
    assert [(a.slot.start, a.counterparty) for a in alts] == [(at(1, 17), "free")]


def test_alternatives_are_deterministic_and_anchored_at_the_proposal() -> None:
    cal = Calendar([busy(8, 10, 11)])
    first = alternatives(Slot(at(8, 10), at(8, 11)), cal, HOURS)
    again = alternatives(Slot(at(8, 10), at(8, 11)), Calendar(list(reversed([busy(8, 10, 11)]))),
                         HOURS)
    assert first == again
    assert first[0].slot.start == at(8, 11)


def test_dst_change_keeps_the_grid_in_wall_clock_time() -> None:
    # Berlin leaves summer time on Sun 25 Oct 2026; Fri 23 Oct is fully booked.
    cal = Calendar([busy(23, 9, 18, month=10)])
    alts = alternatives(Slot(at(23, 10, month=10), at(23, 11, month=10)), cal, HOURS)
    assert alts[0].slot.start == at(26, 9, month=10)
    assert alts[0].slot.start.utcoffset() == timedelta(hours=1)


def test_working_hours_settings() -> None:
    hours = WorkingHours(zone="Asia/Seoul", days=frozenset({0, 1, 2, 3, 4, 5}))
    seoul = ZoneInfo("Asia/Seoul")
    sat = datetime(2026, 12, 5, 10, tzinfo=seoul)
    assert within_working_hours(Slot(sat, sat + timedelta(hours=1)), hours)
    assert not within_working_hours(Slot(sat, sat + timedelta(hours=1)), HOURS)
    with pytest.raises(SlotError):
        WorkingHours(days=frozenset())
