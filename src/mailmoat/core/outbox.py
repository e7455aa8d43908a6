"""Pure rules of the outbox: idempotency keys, retry backoff, and what to do with a row
found mid-flight after a crash. The executor (act/executor.py) does the I/O around them."""

from __future__ import annotations

import hashlib
from collections.abc import Collection
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum

from mailmoat.core.hashing import canonical_json
from mailmoat.core.receipts import Receipt

MAX_ATTEMPTS = 8
# Outbox states in which a row has not started to run and can still be withdrawn.
WITHDRAWABLE: tuple[str, ...] = ("queued",)
BACKOFF_BASE_SECONDS = 30.0
BACKOFF_MAX_SECONDS = 3600.0
# The dead-letter reason of a send that may or may not have gone out and was not found on
# the server: a person decides (ActionService.unresolved / resolve_unknown, approvals page).
OUTCOME_UNKNOWN = "outcome unknown"


def idempotency_key(receipt: Receipt, action_id: int) -> str:
    """One approval of one action, one key: re-approving the same bytes cannot enqueue twice."""
    return hashlib.sha256(
        canonical_json({"receipt": receipt.as_dict(), "action_id": action_id})
    ).hexdigest()


def backoff_seconds(attempts: int, base: float = BACKOFF_BASE_SECONDS) -> float:
    """Delay before the next try after `attempts` failed ones: doubling, capped."""
    return min(BACKOFF_MAX_SECONDS, base * 2 ** max(0, attempts - 1))


class Recovery(StrEnum):
    RETRY = "retry"  # nothing went out: run it again (same stored bytes)
    DONE = "done"  # it went out: record it, never send again
    HOLD = "hold"  # cannot tell: dead-letter for a person, never resend blindly


class SentCopy(StrEnum):
    """Our copy in the Sent folder, found by our Message-ID. When we file the copy ourselves
    it is APPENDed *before* submission and its flags say how far the send got:

    staged      \\Draft: appended; the SMTP DATA command has not begun
    submitting  \\Draft \\Flagged: flagged just before DATA; the server may have accepted
    final       no \\Draft: the server accepted the message (flags cleared after its 250)

    System flags, not keywords: every IMAP server keeps them (many drop custom keywords).
    A copy the server filed itself (Gmail, Outlook) has no \\Draft, so it reads as final.
    """

    ABSENT = "absent"
    STAGED = "staged"
    SUBMITTING = "submitting"
    FINAL = "final"


DRAFT = "\\Draft"
FLAGGED = "\\Flagged"
STAGED_FLAGS: tuple[str, ...] = ("\\Seen", DRAFT)


def sent_copy_state(flags: frozenset[str] | None) -> SentCopy:
    if flags is None:
        return SentCopy.ABSENT
    if DRAFT not in flags:
        return SentCopy.FINAL
    return SentCopy.SUBMITTING if FLAGGED in flags else SentCopy.STAGED


def recover_unknown(copy: SentCopy, server_files_sent: bool, staged: bool) -> Recovery:
    """A send whose worker died after it started handing bytes to the server.

    A final copy proves it went out. A copy flagged as submitting means DATA began and no
    answer was recorded: the server may or may not have accepted it, and nothing we can ask
    it tells which, so a person decides. A staged copy, or none at all where the copy is
    staged before submission (`staged`) or the server files every accepted submission
    itself, proves DATA never began. A row from before staging with no copy: a person.
    """
    if copy is SentCopy.FINAL:
        return Recovery.DONE
    if copy is SentCopy.SUBMITTING:
        return Recovery.HOLD
    if copy is SentCopy.STAGED or server_files_sent or staged:
        return Recovery.RETRY
    return Recovery.HOLD


@dataclass(frozen=True, slots=True)
class Pending:
    """One outbox row that has not finished (queued, claimed or sending), as `why_waiting`
    reads it."""

    outbox_id: int
    action_id: int
    account: str
    action: str
    state: str
    attempts: int
    next_attempt_at: datetime
    lease_until: datetime | None = None
    claimed_by: str | None = None
    last_error: str = ""


def why_waiting(row: Pending, now: datetime, runnable_accounts: Collection[str]) -> str | None:
    """Why an unfinished outbox row does not run now, in words for a person; None when it is
    due and the executor takes it on its next pass. `runnable_accounts` are the accounts the
    executor has a transport for (those with SMTP settings): it claims rows of no other."""
    if row.account not in runnable_accounts:
        return (f"account {row.account!r} has no SMTP settings, so nothing can run it; add "
                f"them with `mailmoat account smtp {row.account} --smtp-host HOST`, then run "
                f"`mailmoat actions run` again")
    if row.state in ("claimed", "sending") and row.lease_until is not None \
            and _utc(row.lease_until) >= now:
        return (f"{row.claimed_by or 'another worker'} is running it; if that worker died, "
                f"it is taken over after its claim ends {_when(row.lease_until, now)}")
    if row.state == "queued" and _utc(row.next_attempt_at) > now:
        after = (f", after {row.attempts} failed attempt{'s' if row.attempts != 1 else ''}"
                 + (f" (last: {row.last_error})" if row.last_error else "")
                 if row.attempts else "")
        return f"next try {_when(row.next_attempt_at, now)}{after}"
    return None


def _when(at: datetime, now: datetime) -> str:
    """`in 3 min (14:05 UTC)`: how long from `now`, and the time."""
    at = _utc(at)
    left = max(timedelta(0), at - now)
    seconds = int(left.total_seconds())
    if seconds < 60:
        span = f"{seconds} s"
    elif seconds < 3600:
        span = f"{(seconds + 59) // 60} min"
    else:
        hours, rest = divmod(seconds, 3600)
        span = f"{hours} h {rest // 60} min" if rest >= 60 else f"{hours} h"
    return f"in {span} ({at:%Y-%m-%d %H:%M} UTC)"


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
