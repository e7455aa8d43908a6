"""Flat dataclass records as plain dicts, cheaply."""

from __future__ import annotations

import functools
from dataclasses import fields
from typing import Any


def flat_dict(record: Any) -> dict[str, Any]:
    """`dataclasses.asdict` for a dataclass whose fields are all scalars: the same dict,
    without asdict's recursive deep copy (it runs several times for every message)."""
    return {name: getattr(record, name) for name in _names(type(record))}


@functools.cache
def _names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))
