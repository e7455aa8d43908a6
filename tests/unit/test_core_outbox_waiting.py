"""core.outbox.why_waiting: why an approved action has not run, in words, from the row alone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from mailmoat.core.outbox import Pending, why_waiting

NOW = datetime(2026, 12, 4, 14, 0, tzinfo=UTC)


def row(**change: object) -> Pending:
    values: dict[str, object] = {
        "outbox_id": 7, "action_id": 3, "account": "work", "action": "send_email",
        "state": "queued", "attempts": 0, "next_attempt_at": NOW}
    values.update(change)
    return Pending(**values)  # type: ignore[arg-type]


def test_due_and_sendable_is_not_waiting() -> None:
    assert why_waiting(row(), NOW, {"work"}) is None


def test_an_account_without_smtp_says_so_and_how_to_fix_it() -> None:
    why = why_waiting(row(), NOW, {"other"})
    assert why is not None
    assert "account 'work' has no SMTP settings" in why
    assert "mailmoat account smtp work --smtp-host HOST" in why


def test_no_smtp_comes_first_even_when_a_retry_is_due_later() -> None:
    why = why_waiting(row(next_attempt_at=NOW + timedelta(hours=1)), NOW, set())
    assert why is not None and "no SMTP settings" in why


def test_a_retry_not_yet_due_names_the_time_and_the_last_error() -> None:
    why = why_waiting(row(attempts=2, next_attempt_at=NOW + timedelta(minutes=2, seconds=5),
                          last_error="451 try later"), NOW, {"work"})
    assert why == ("next try in 3 min (2026-12-04 14:02 UTC), after 2 failed attempts "
                   "(last: 451 try later)")


def test_a_scheduled_first_try_has_no_failure_text() -> None:
    why = why_waiting(row(next_attempt_at=NOW + timedelta(seconds=20)), NOW, {"work"})
    assert why == "next try in 20 s (2026-12-04 14:00 UTC)"


def test_a_claim_held_by_another_worker() -> None:
    held = row(state="sending", claimed_by="worker-42", lease_until=NOW + timedelta(hours=2))
    why = why_waiting(held, NOW, {"work"})
    assert why == ("worker-42 is running it; if that worker died, it is taken over after its "
                   "claim ends in 2 h (2026-12-04 16:00 UTC)")


def test_an_expired_claim_is_due_again() -> None:
    expired = row(state="claimed", claimed_by="w", lease_until=NOW - timedelta(seconds=1))
    assert why_waiting(expired, NOW, {"work"}) is None


def test_naive_times_from_sqlite_read_as_utc() -> None:
    naive = row(next_attempt_at=(NOW + timedelta(hours=1, minutes=30)).replace(tzinfo=None))
    assert why_waiting(naive, NOW, {"work"}) == "next try in 1 h 30 min (2026-12-04 15:30 UTC)"
