"""Login throttling as a pure decision: recent failures in, allowed-or-wait out.

Failures are counted per user name and per client address separately, so one noisy address
cannot lock a person out from everywhere, and many addresses cannot hammer one name quickly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta


@dataclass(frozen=True, slots=True)
class ThrottlePolicy:
    free_failures: int = 5  # this many failures in the window cost nothing
    window: timedelta = timedelta(minutes=15)
    base_delay: timedelta = timedelta(seconds=30)  # doubles with each failure past free
    max_delay: timedelta = timedelta(minutes=15)


THROTTLE = ThrottlePolicy()


def retry_after(
    failures: Sequence[datetime], now: datetime, policy: ThrottlePolicy = THROTTLE
) -> float:
    """Seconds to wait before the next attempt may be checked; 0.0 when allowed now."""
    recent = sorted(t for t in failures if now - policy.window < t <= now)
    excess = len(recent) - policy.free_failures
    if excess < 0:
        return 0.0
    delay = min(policy.base_delay * (2 ** min(excess, 20)), policy.max_delay)
    wait = (recent[-1] + delay - now).total_seconds()
    return max(wait, 0.0)
