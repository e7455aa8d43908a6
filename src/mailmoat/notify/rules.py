"""Whether a message may notify now: pure decisions, no clock, no I/O.

The caller passes the time, the account's settings and what was already notified; the answer
is SEND, HOLD (kept for the digest) or SKIP (never notifies), with a reason for the log.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from enum import StrEnum

NOTIFYING_LANES = frozenset({"PUSH", "MEETING"})


class Verdict(StrEnum):
    SEND = "send"
    HOLD = "hold"  # would notify, but not now: goes into the next digest
    SKIP = "skip"  # never notifies


@dataclass(frozen=True, slots=True)
class Window:
    """A daily span of local wall-clock time; may cross midnight (22:00-07:00).

    `days` holds ISO weekdays (1 = Monday); empty means every day. For a span crossing
    midnight the day is the one it starts on.
    """

    start: time
    end: time
    days: frozenset[int] = frozenset()

    def contains(self, moment: datetime) -> bool:
        now = moment.timetz().replace(tzinfo=None)
        if self.start == self.end:
            return False
        if self.start < self.end:
            return self.start <= now < self.end and self._day_ok(moment.isoweekday())
        if now >= self.start:  # evening part: today started it
            return self._day_ok(moment.isoweekday())
        if now < self.end:  # morning part: yesterday started it
            return self._day_ok((moment - timedelta(days=1)).isoweekday())
        return False

    def _day_ok(self, weekday: int) -> bool:
        return not self.days or weekday in self.days


@dataclass(frozen=True, slots=True)
class NotifySettings:
    quiet_hours: tuple[Window, ...] = ()  # nothing notifies
    focus_windows: tuple[Window, ...] = ()  # only PUSH notifies
    rate_limit: int = 3  # at most this many sends ...
    rate_window: timedelta = timedelta(minutes=10)  # ... per this span
    fresh_for: timedelta = timedelta(minutes=30)  # older mail never notifies
    muted_senders: frozenset[str] = field(default_factory=frozenset)


# A Date this much earlier than the stored time is still "now": sender clocks drift and
# relays queue. Older than that, the mail is old mail mailmoat has only just seen (a first
# backfill, an import), and old mail does not interrupt anyone.
DATE_SKEW = timedelta(hours=6)


def arrival_time(stored_at: datetime, date: str | None) -> datetime:
    """When a mail arrived, for freshness: its Date header when that is clearly older than
    the stored time, else the stored time. Never later than the stored time, so a Date in
    the future cannot keep a mail fresh."""
    if not date:
        return stored_at
    try:
        written = datetime.fromisoformat(date)
    except ValueError:
        return stored_at
    if written.tzinfo is None:
        return stored_at
    return written if written < stored_at - DATE_SKEW else stored_at


@dataclass(frozen=True, slots=True)
class Candidate:
    message_id: int
    lane: str
    sender: str
    received_at: datetime  # when it arrived: arrival_time(stored, Date)
    seen: bool | None = None  # the server's \Seen flag, when known


@dataclass(frozen=True, slots=True)
class History:
    already_notified: frozenset[int]  # message ids sent (or digested) before
    recent_sends: tuple[datetime, ...]  # send times, for the rate limit


def decide_notification(
    c: Candidate, s: NotifySettings, h: History, local_now: datetime
) -> tuple[Verdict, str]:
    """`local_now` is aware and in the user's time zone (windows are wall-clock times)."""
    if c.lane not in NOTIFYING_LANES:
        return Verdict.SKIP, f"lane {c.lane} does not notify"
    if c.message_id in h.already_notified:
        return Verdict.SKIP, "already notified"
    if c.seen:
        return Verdict.SKIP, "already read"
    if local_now - c.received_at > s.fresh_for:
        return Verdict.SKIP, "not fresh"
    if c.sender.lower() in s.muted_senders:
        return Verdict.SKIP, "sender muted"
    if any(w.contains(local_now) for w in s.quiet_hours):
        return Verdict.HOLD, "quiet hours"
    if c.lane != "PUSH" and any(w.contains(local_now) for w in s.focus_windows):
        return Verdict.HOLD, "focus window: only PUSH notifies"
    sent = sum(1 for t in h.recent_sends if local_now - s.rate_window < t <= local_now)
    if sent >= s.rate_limit:
        return Verdict.HOLD, f"rate limit: {s.rate_limit} per {_span(s.rate_window)}"
    return Verdict.SEND, "fresh and allowed"


def digest_due(held: int, s: NotifySettings, h: History, local_now: datetime) -> bool:
    """A digest of held messages goes out once nothing holds them back and a send is free."""
    if held == 0 or any(w.contains(local_now) for w in s.quiet_hours):
        return False
    sent = sum(1 for t in h.recent_sends if local_now - s.rate_window < t <= local_now)
    return sent < s.rate_limit


def digest_text(subjects: Sequence[tuple[str, str, str]]) -> tuple[str, str]:
    """(title, body) for held messages given as (lane, sender, subject)."""
    title = f"mailmoat: {len(subjects)} held back"
    lines = [f"[{lane}] {sender}: {subject or '(no subject)'}" for lane, sender, subject
             in subjects[:20]]
    if len(subjects) > 20:
        lines.append(f"… and {len(subjects) - 20} more")
    return title, "\n".join(lines)


def _span(delta: timedelta) -> str:
    minutes = int(delta.total_seconds() // 60)
    return f"{minutes} min" if minutes < 120 else f"{minutes // 60} h"
