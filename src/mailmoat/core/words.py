"""Words of a text for similarity and learned features: folded, de-duplicated order kept."""

from __future__ import annotations

import re

from mailmoat.core.text import fold

_WORD = re.compile(r"\w{2,40}")
MAX_WORDS = 400  # a hostile 25 MB body costs the same as a short one


def words(text: str, limit: int = MAX_WORDS) -> list[str]:
    """Case- and width-folded words of two or more characters, at most `limit` of them."""
    out: list[str] = []
    for match in _WORD.finditer(fold(text[: limit * 50])):
        out.append(match.group())
        if len(out) >= limit:
            break
    return out
