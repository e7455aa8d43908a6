"""Numbers typed by someone else (URL path ids, form fields): ASCII digits only (pure).

`str.isdigit()` is true for "²" and "١", and `int()` reads "١٢", " 12", "+12" and "1_2";
an id is none of those. Anything but 1-10 ASCII digits in range is not an id.
"""

from __future__ import annotations

import re

_DIGITS = re.compile(r"[0-9]{1,10}")
MAX_ID = 2_147_483_647  # fits every database's integer column


def ascii_int(text: str, low: int = 0, high: int = MAX_ID) -> int | None:
    """`text` as an int when it is ASCII digits only and within [low, high]; else None."""
    if not isinstance(text, str) or not _DIGITS.fullmatch(text):
        return None
    value = int(text)
    return value if low <= value <= high else None


def ascii_id(text: str) -> int | None:
    """A database id: 1..MAX_ID written in ASCII digits, or None."""
    return ascii_int(text, 1, MAX_ID)
