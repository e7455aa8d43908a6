"""Pure notification rules: lanes, freshness, dedup, mutes, quiet hours, focus, rate limit."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from mailmoat.notify.rules import (
    Candidate,
    History,
    NotifySettings,
    Verdict,
    Window,
    decide_notification,
    digest_due,
    digest_text,
)

NOW = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)  # a Thursday
RULES = NotifySettings()
EMPTY = History(frozenset(), ())


def cand(mid: int = 1, lane: str = "PUSH", age_min: float = 1, seen: bool | None = None,
         sender: str = "a@example.org") -> Candidate:
    return Candidate(mid, lane, sender, NOW - timedelta(minutes=age_min), seen)


def test_only_push_and_meeting_notify() -> None:
    assert decide_notification(cand(lane="PUSH"), RULES, EMPTY, NOW)[0] is Verdict.SEND
    assert decide_notification(cand(lane="MEETING"), RULES, EMPTY, NOW)[0] is Verdict.SEND
    for lane in ("QUEUE", "INFO", "SILENT"):
        assert decide_notification(cand(lane=lane), RULES, EMPTY, NOW)[0] is Verdict.SKIP


def test_stale_seen_duplicate_and_muted_mail_never_notifies() -> None:
    assert decide_notification(cand(age_min=31), RULES, EMPTY, NOW) == (Verdict.SKIP,
                                                                          "not fresh")
    assert decide_notification(cand(seen=True), RULES, EMPTY, NOW)[1] == "already read"
    done = History(frozenset({1}), ())
    assert decide_notification(cand(), RULES, done, NOW)[1] == "already notified"
    muted = NotifySettings(muted_senders=frozenset({"a@example.org"}))
    assert decide_notification(cand(sender="A@Example.org"), muted, EMPTY, NOW)[1] == \
        "sender muted"


def test_quiet_hours_cross_midnight_and_respect_days() -> None:
    night = Window(time(22), time(7))
    assert night.contains(NOW.replace(hour=23)) and night.contains(NOW.replace(hour=6))
    assert not night.contains(NOW.replace(hour=7)) and not night.contains(NOW)
    weekend_night = Window(time(22), time(7), frozenset({6, 7}))
    friday_late = datetime(2026, 12, 4, 23, tzinfo=UTC)
    saturday_early = datetime(2026, 12, 5, 3, tzinfo=UTC)
    monday_early = datetime(2026, 12, 7, 3, tzinfo=UTC)
    assert not weekend_night.contains(friday_late)
    assert not weekend_night.contains(saturday_early)  # Friday night's span: not weekend
    assert weekend_night.contains(monday_early)  # Sunday night's span runs into Monday
    quiet = NotifySettings(quiet_hours=(night,))
    late = NOW.replace(hour=23)
    fresh = Candidate(1, "PUSH", "a@example.org", late - timedelta(minutes=1))
    assert decide_notification(fresh, quiet, EMPTY, late) == (Verdict.HOLD, "quiet hours")


def test_focus_window_lets_only_push_through() -> None:
    focus = NotifySettings(focus_windows=(Window(time(9), time(17)),))
    assert decide_notification(cand(lane="PUSH"), focus, EMPTY, NOW)[0] is Verdict.SEND
    verdict, why = decide_notification(cand(lane="MEETING"), focus, EMPTY, NOW)
    assert verdict is Verdict.HOLD and "focus" in why


def test_rate_limit_holds_the_fourth_in_ten_minutes() -> None:
    sends = tuple(NOW - timedelta(minutes=m) for m in (1, 2, 3))
    verdict, why = decide_notification(cand(), RULES, History(frozenset(), sends), NOW)
    assert verdict is Verdict.HOLD and "3 per 10 min" in why
    older = tuple(NOW - timedelta(minutes=m) for m in (1, 2, 11))
    assert decide_notification(cand(), RULES, History(frozenset(), older), NOW)[0] is \
        Verdict.SEND


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3600), st.sampled_from(
    ["PUSH", "MEETING", "QUEUE", "INFO", "SILENT"])), max_size=40),
       st.integers(1, 5), st.integers(1, 30))
def test_simulated_stream_never_exceeds_the_rate_limit_or_repeats(
        arrivals: list[tuple[int, str]], limit: int, window_min: int) -> None:
    rules = NotifySettings(rate_limit=limit, rate_window=timedelta(minutes=window_min))
    sent: list[datetime] = []
    notified: set[int] = set()
    events = sorted(arrivals)
    # Every message is offered twice (two sync passes, a second apart; time only moves on):
    # it must still notify at most once.
    for mid, (second, lane) in enumerate(events):
        for attempt in range(2):
            now = NOW + timedelta(seconds=2 * second + attempt)
            verdict, _ = decide_notification(
                Candidate(mid, lane, "s@example.org", now), rules,
                History(frozenset(notified), tuple(sent)), now)
            if verdict is Verdict.SEND:
                assert lane in ("PUSH", "MEETING") and mid not in notified
                notified.add(mid)
                sent.append(now)
    for t in sent:
        in_window = [u for u in sent if t - rules.rate_window < u <= t]
        assert len(in_window) <= limit


def test_digest_waits_for_quiet_hours_to_end_and_lists_what_was_held() -> None:
    quiet = NotifySettings(quiet_hours=(Window(time(22), time(7)),))
    assert not digest_due(2, quiet, EMPTY, NOW.replace(hour=23))
    assert digest_due(2, quiet, EMPTY, NOW.replace(hour=8))
    assert not digest_due(0, quiet, EMPTY, NOW.replace(hour=8))
    title, body = digest_text([("PUSH", "a@example.org", "down"), ("MEETING", "b@x", "")])
    assert title == "mailmoat: 2 held back"
    assert "[PUSH] a@example.org: down" in body and "(no subject)" in body
