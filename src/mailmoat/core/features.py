"""The four numbers a scorer reads off a message.

Clamping rule (documented in docs/policy.md and pinned by tests):

* A value that is missing, not a number, NaN or infinite is *rejected*: `Features.from_raw`
  raises `InvalidFeatures`. A scorer that cannot produce a number has not scored.
* A finite number outside [0, 1] is *clamped* to the nearest bound. Scorers round and drift;
  a 1.02 still says "very", and clamping it cannot move mail into a hidden lane because the
  hidden-lane rules in the policy need low urgency *and* high confidence at the same time.
* Booleans are rejected: `True` is an int in Python, but a scorer that says `true` for a
  probability is confused, not confident.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mailmoat.core.records import flat_dict

FEATURE_NAMES: tuple[str, ...] = ("confidence", "sender_trust", "reversibility", "urgency")


class InvalidFeatures(ValueError):
    """A scorer returned something that is not four finite numbers."""


def _coerce(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidFeatures(f"{name} must be a number, got {type(value).__name__}")
    try:
        number = float(value)
    except OverflowError:  # an int too large for a float is finite, so it clamps
        return 1.0 if value > 0 else 0.0
    if not math.isfinite(number):
        raise InvalidFeatures(f"{name} must be finite, got {number!r}")
    return min(1.0, max(0.0, number))


@dataclass(frozen=True, slots=True)
class Features:
    confidence: float
    sender_trust: float
    reversibility: float
    urgency: float

    def __post_init__(self) -> None:
        for name in FEATURE_NAMES:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise InvalidFeatures(f"{name} must be a number")
            if not 0.0 <= value <= 1.0:  # NaN fails this too; a huge int cannot overflow
                # repr() of a huge int raises (the 4,300-digit limit): show floats only.
                shown = f", got {value!r}" if isinstance(value, float) else ""
                raise InvalidFeatures(f"{name} must be in [0, 1]{shown}")

    @classmethod
    def from_raw(cls, raw: Mapping[str, Any]) -> Features:
        """Build from untrusted scorer output using the clamping rule above."""
        if not isinstance(raw, Mapping):
            raise InvalidFeatures(f"features must be a mapping, got {type(raw).__name__}")
        missing = [name for name in FEATURE_NAMES if name not in raw]
        if missing:
            raise InvalidFeatures(f"missing feature(s): {', '.join(missing)}")
        return cls(**{name: _coerce(name, raw[name]) for name in FEATURE_NAMES})

    def as_dict(self) -> dict[str, float]:
        return flat_dict(self)
