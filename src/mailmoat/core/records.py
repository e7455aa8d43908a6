"""Flat dataclass records as plain dicts, cheaply."""

from __future__ import annotations

from dataclasses import fields
from typing import Any


def flat_dict(record: Any) -> dict[str, Any]:
    """`dataclasses.asdict` for a dataclass whose fields are all scalars: the same dict,
    without asdict's recursive deep copy (it runs several times for every message)."""
    return {name: getattr(record, name) for name in field_names(type(record))}


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def field_names(cls: type) -> tuple[str, ...]:
    """A dataclass's field names in order (its __init__ takes them in this order); computed
    once per class (a plain dict: `functools.cache`'s stubs reject `type` as Hashable)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    return names
