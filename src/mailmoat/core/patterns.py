"""Text patterns the signals, the local scorer and the evidence search: RE2, asked only
whether they match, in folded UTF-8 bytes."""

from __future__ import annotations

from typing import Protocol, cast

import re2


class TextPattern(Protocol):
    """An RE2 pattern, searched in UTF-8 bytes (`as_searched`): `search` says whether it
    matches anywhere."""

    def search(self, data: bytes) -> bool: ...


_UNANCHORED = re2._Anchor.UNANCHORED
_NO_MATCH = (-1, -1)


class _Matcher:
    """Whether an RE2 pattern matches, asked of the compiled RE2 object directly. The
    binding's `search` builds a generator and a match object per call (about 3 us, more
    than the DFA run on a mail's opening: bench/bench_local.py); only yes/no is read here.
    tests/test_core_evidence.py holds it to the binding's own `search`."""

    __slots__ = ("_match", "compiled")

    def __init__(self, pattern: str | bytes) -> None:
        self.compiled = re2.compile(pattern)
        self._match = self.compiled._regexp.Match

    def search(self, data: bytes) -> bool:
        return bool(self._match(_UNANCHORED, data, 0, len(data))[0] != _NO_MATCH)

    def sub(self, repl: bytes, data: bytes) -> bytes:
        return cast(bytes, self.compiled.sub(repl, data))


def matcher(pattern: str | bytes) -> TextPattern:
    return _Matcher(pattern)


def _rx(*patterns: str) -> TextPattern:
    """Compile alternatives with RE2: a DFA matches big alternations in linear time, about
    ten times faster than `re` on real mail (bench/bench_local.py) with the same results.
    """
    return _Matcher("|".join(f"(?:{p})" for p in patterns))


def as_searched(folded: str) -> bytes:
    """Folded text as the patterns search it. RE2 matches UTF-8 bytes in any case; handed
    a `str`, the binding encodes it and maps match offsets back to characters on every
    search, a third of the time of the signals' searches. Only whether a pattern matches
    is read here, so the offsets are not needed."""
    return folded.encode("utf-8", "surrogatepass")


