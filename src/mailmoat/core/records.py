"""Flat dataclass records as plain dicts, cheaply."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from operator import attrgetter
from typing import Any


def flat_dict(record: Any) -> dict[str, Any]:
    """`dataclasses.asdict` for a dataclass whose fields are all scalars: the same dict,
    without asdict's recursive deep copy (it runs several times for every message)."""
    cls = type(record)
    return dict(zip(field_names(cls), field_values(cls)(record), strict=True))


def field_values(cls: type) -> Callable[[Any], tuple[Any, ...]]:
    """A function giving a record's field values in field order, read in one C call
    (`operator.attrgetter` of every field name); made once per class."""
    get = _FIELD_VALUES.get(cls)
    if get is None:
        names = field_names(cls)
        one = attrgetter(*names)  # of a single name it returns the value, not a tuple
        get = _FIELD_VALUES[cls] = one if len(names) > 1 else (lambda r: (one(r),))
    return get


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
_FIELD_VALUES: dict[type, Callable[[Any], tuple[Any, ...]]] = {}


def field_names(cls: type) -> tuple[str, ...]:
    """A dataclass's field names in order (its __init__ takes them in this order); computed
    once per class (a plain dict: `functools.cache`'s stubs reject `type` as Hashable)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    return names
