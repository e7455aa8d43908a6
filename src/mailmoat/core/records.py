"""Flat dataclass records as plain dicts, cheaply."""

from __future__ import annotations

import functools
from dataclasses import fields
from typing import Any


def flat_dict(record: Any) -> dict[str, Any]:
    """`dataclasses.asdict` for a dataclass whose fields are all scalars: the same dict,
    without asdict's recursive deep copy (it runs several times for every message)."""
    return {name: getattr(record, name) for name in field_names(type(record))}


@functools.cache
def field_names(cls: type) -> tuple[str, ...]:
    """A dataclass's field names in order (its __init__ takes them in this order)."""
    return tuple(f.name for f in fields(cls))
