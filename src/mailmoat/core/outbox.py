"""Pure rules of the outbox: idempotency keys, retry backoff, and what to do with a row
found mid-flight after a crash. The executor (act/executor.py) does the I/O around them."""

from __future__ import annotations

import hashlib
from enum import StrEnum

from mailmoat.core.hashing import canonical_json
from mailmoat.core.receipts import Receipt

MAX_ATTEMPTS = 8
# Outbox states in which a row has not started to run and can still be withdrawn.
WITHDRAWABLE: tuple[str, ...] = ("queued",)
BACKOFF_BASE_SECONDS = 30.0
BACKOFF_MAX_SECONDS = 3600.0


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


def recover_unknown(found_in_sent: bool, server_files_sent: bool) -> Recovery:
    """A send whose worker died after it started handing bytes to the server.

    Our Message-ID in the Sent folder proves it went out. Its absence proves the opposite
    only when the server itself files every accepted submission there; otherwise the
    message may have been accepted a moment before the crash, so a person decides.
    """
    if found_in_sent:
        return Recovery.DONE
    if server_files_sent:
        return Recovery.RETRY
    return Recovery.HOLD
