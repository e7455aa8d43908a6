"""Lease rules: who may hold an account's sync (or IDLE watch) and for how long.

A lease is a named claim with a holder, a token (one per grant) and an expiry. A holder
renews it with a heartbeat well before it expires; a holder that dies stops renewing, the
lease expires, and the next claimant takes it over. A live lease (expiry in the future) is
never taken: that is the one rule that keeps two syncs of one account apart.

Times are seconds since the epoch handed in by the caller; this module reads no clock.
"""

from __future__ import annotations

from dataclasses import dataclass

LEASE_SECONDS = 30.0  # a grant lasts this long without a heartbeat
HEARTBEAT_SECONDS = 10.0  # a live holder renews this often (three chances per grant)
SWEEP_SECONDS = 10.0  # the scheduler looks for expired, unreleased leases this often


@dataclass(frozen=True, slots=True)
class Lease:
    name: str
    holder: str | None  # None once released
    token: str | None
    expires_at: float


def sync_lease(account: str) -> str:
    """The lease a sync pass of `account` holds."""
    return f"sync:{account}"


def watch_lease(account: str) -> str:
    """The lease an IDLE watcher of `account` holds (one connection per account)."""
    return f"watch:{account}"


def account_of(lease_name: str) -> str:
    """The account a sync or watch lease names."""
    return lease_name.split(":", 1)[1]


def is_live(lease: Lease | None, now: float) -> bool:
    """Held and not expired: nobody else may take it."""
    return lease is not None and lease.token is not None and lease.expires_at > now


def may_take(lease: Lease | None, now: float) -> bool:
    """A claimant may take a lease that does not exist, was released, or expired."""
    return not is_live(lease, now)


def abandoned(lease: Lease, now: float) -> bool:
    """Expired without a release: its holder died (or lost the database) mid-work, and the
    work it held must be picked up again."""
    return lease.token is not None and lease.expires_at <= now


def expiry(now: float, seconds: float = LEASE_SECONDS) -> float:
    return now + seconds


def check_timing(seconds: float, heartbeat: float) -> None:
    """A grant must outlast at least two heartbeats, or one slow renewal loses it."""
    if seconds < 2 * heartbeat:
        raise ValueError(f"a lease of {seconds}s must outlast two {heartbeat}s heartbeats")


def pickup_bound(lease_seconds: float = LEASE_SECONDS,
                 sweep_seconds: float = SWEEP_SECONDS) -> float:
    """The longest a dead holder's account waits before another worker takes it: the lease
    runs out, then the next sweep queues the work."""
    return lease_seconds + sweep_seconds
