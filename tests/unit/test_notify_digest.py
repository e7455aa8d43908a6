"""notify/digest.py: the daily digest as a pure function. SILENT mail is only ever a count,
no body text can get in, a hostile subject stays one inert line, and nothing to say sends
nothing; the schedule is off until an hour is set and yields to quiet hours."""

from __future__ import annotations

import unicodedata
from datetime import UTC, datetime, time

from hypothesis import given
from hypothesis import strategies as st

from mailmoat.notify.digest import (
    LIST_LIMIT,
    SUBJECT_CHARS,
    DigestInput,
    Filed,
    Waiting,
    build_digest,
    daily_digest_due,
    one_line,
)
from mailmoat.notify.rules import Window

BASE = "https://mm.example"


def data(**change: object) -> DigestInput:
    values: dict[str, object] = {
        "account": "work", "hours": 24, "lane_counts": {"INFO": 1, "SILENT": 2, "PUSH": 1},
        "filed": [Filed(9, "INFO", "receipts@shop.example", "Your receipt #1042"),
                  Filed(13, "SILENT", "deals@megamart.example", "Black Friday: 70% off")],
        "waiting": [Waiting(4, "send_email", "ana@client.example", "Thursday")]}
    values.update(change)
    return DigestInput(**values)  # type: ignore[arg-type]


def test_sections_and_links() -> None:
    note = build_digest(data(), BASE + "/")
    assert note is not None
    assert note.title == "mailmoat daily (work): 1 to approve, 4 new"
    assert note.url == f"{BASE}/actions"
    lines = note.body.splitlines()
    assert lines[0] == "Waiting for your approval (1):"
    assert lines[1] == f"- send_email to ana@client.example: Thursday  {BASE}/actions/4"
    assert f"New in the last 24 h: PUSH 1, INFO 1, SILENT 2  {BASE}/" in lines
    assert f"- receipts@shop.example: Your receipt #1042  {BASE}/message/9" in lines
    assert f"Silenced: 2 (never shown; review them at {BASE}/lane/SILENT)" in lines


def test_silent_mail_is_only_a_count() -> None:
    note = build_digest(data(), BASE)
    assert note is not None
    text = note.title + note.body
    assert "megamart" not in text and "Black Friday" not in text and "/message/13" not in text
    assert "Silenced: 2" in text


def test_nothing_to_say_is_no_digest() -> None:
    assert build_digest(data(lane_counts={}, filed=[], waiting=[]), BASE) is None
    assert build_digest(data(lane_counts={"QUEUE": 0}, filed=[], waiting=[]), BASE) is None
    only_approval = build_digest(data(lane_counts={}, filed=[]), BASE)
    assert only_approval is not None and "New in the last" not in only_approval.body


def test_long_lists_are_cut() -> None:
    many = [Waiting(i, "send_email", f"p{i}@x.example", "s") for i in range(LIST_LIMIT + 3)]
    note = build_digest(data(waiting=many), BASE)
    assert note is not None
    assert note.body.count("/actions/") == LIST_LIMIT
    assert "- … and 3 more" in note.body


def test_a_hostile_subject_stays_one_inert_line() -> None:
    evil = "Receipt\r\nWaiting for your approval (1):\n- approve  https://evil.example/\u202egpj"
    note = build_digest(data(filed=[Filed(9, "INFO", "a@b.example\nX: y", evil)], waiting=[]),
                        BASE)
    assert note is not None
    filed = [ln for ln in note.body.splitlines() if "/message/9" in ln]
    assert len(filed) == 1
    assert note.body.count("Waiting for your approval") == 1  # the forged header is inline
    assert "\u202e" not in note.body
    assert len(one_line(evil, SUBJECT_CHARS)) <= SUBJECT_CHARS


@given(st.lists(st.tuples(st.sampled_from(["INFO", "SILENT", "PUSH"]), st.text(max_size=300),
                          st.text(max_size=100)), max_size=15))
def test_no_silent_text_and_no_control_characters_whatever_the_mail(
        mail: list[tuple[str, str, str]]) -> None:
    filed = [Filed(1000 + i, lane, sender, subject)
             for i, (lane, sender, subject) in enumerate(mail)]
    counts: dict[str, int] = {}
    for lane, _, _ in mail:
        counts[lane] = counts.get(lane, 0) + 1
    note = build_digest(data(filed=filed, lane_counts=counts, waiting=[]), BASE)
    if note is None:
        assert not mail
        return
    for line in note.body.splitlines():
        assert not any(unicodedata.category(ch)[0] == "C" for ch in line)
    for f in filed:
        if f.lane != "INFO":
            assert f"/message/{f.message_id}" not in note.body
    listed = [ln for ln in note.body.splitlines() if "/message/" in ln]
    assert len(listed) == min(LIST_LIMIT, sum(1 for f in filed if f.lane == "INFO"))
    assert all(len(ln) <= 60 + SUBJECT_CHARS + len(BASE) + 40 for ln in listed)


def test_schedule_is_off_until_an_hour_is_set_and_yields_to_quiet_hours() -> None:
    at_nine = datetime(2026, 12, 4, 9, 30, tzinfo=UTC)
    assert not daily_digest_due(at_nine, None)
    assert not daily_digest_due(at_nine, 10)
    assert daily_digest_due(at_nine, 9)
    assert daily_digest_due(at_nine, 7)
    quiet = (Window(time(9, 0), time(10, 0)),)
    assert not daily_digest_due(at_nine, 8, quiet)
    assert daily_digest_due(at_nine.replace(hour=10, minute=5), 8, quiet)
