"""Which periodic jobs are due: a pure rule over when each last ran.

The scheduler (`mailmoat scheduler`) ticks every second and queues what this names; the
intervals are configuration, the clock is the caller's.
"""

from __future__ import annotations

from collections.abc import Mapping


def due(every: Mapping[str, float], last: Mapping[str, float], now: float) -> list[str]:
    """Jobs never run, or whose interval has passed since their last run, in name order.
    An interval of 0 or less switches a job off."""
    return sorted(name for name, seconds in every.items()
                  if seconds > 0 and now - last.get(name, float("-inf")) >= seconds)
