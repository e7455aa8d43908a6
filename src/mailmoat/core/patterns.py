"""Text patterns the signals, the local scorer and the evidence search: RE2, asked only
whether they match, in folded UTF-8 bytes. Patterns read from the same text are matched
together, in one pass of an RE2 `Set` (`PatternSet`)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Protocol, cast

import re2


class TextPattern(Protocol):
    """An RE2 pattern, searched in UTF-8 bytes (`as_searched`): `search` says whether it
    matches anywhere, `start` where the first match begins (-1: none), `sub` replaces the
    matches."""

    def search(self, data: bytes) -> bool: ...

    def start(self, data: bytes) -> int: ...

    def sub(self, repl: bytes, data: bytes) -> bytes:
        """`data` with every match replaced by `repl`."""
        ...


_UNANCHORED = re2._Anchor.UNANCHORED
_ANCHOR_START = re2._Anchor.ANCHOR_START
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

    def start(self, data: bytes, pos: int = 0) -> int:
        """Where the first match at or after `pos` begins, -1 when there is none (`^` and
        `\\b` still see the text before `pos`)."""
        return int(self._match(_UNANCHORED, data, pos, len(data))[0][0])

    def matches_at(self, data: bytes, pos: int) -> bool:
        """Whether a match begins at `pos`."""
        return bool(self._match(_ANCHOR_START, data, pos, len(data))[0] != _NO_MATCH)

    def sub(self, repl: bytes, data: bytes) -> bytes:
        return cast(bytes, self.compiled.sub(repl, data))


def matcher(pattern: str | bytes) -> TextPattern:
    return _Matcher(pattern)


# The letters (with their vowel signs) of the scripts `script_words` reads, as class bodies,
# with ASCII letters, digits and "_", which a word of any script holds ("це1" is no "це")
CYRILLIC = "a-z0-9_\u0430-\u04ff"  # (folded text holds none of the capitals opening the block)
GEORGIAN = "a-z0-9_\u10d0-\u10ff"  # Mkhedruli (folding turns the capitals, Mtavruli, into it)
KANNADA = "a-z0-9_\u0c80-\u0cff"
# Hindi, Marathi (with the vowel signs and virama; not the danda and double danda, U+0964 and
# U+0965, which end a sentence as "." does)
DEVANAGARI = "a-z0-9_\u0900-\u0963\u0966-\u097f"
GURMUKHI = "a-z0-9_\u0a00-\u0a7f"  # Punjabi (with its vowel signs, addak and virama)
TAMIL = "a-z0-9_\u0b80-\u0bff"
ARABIC = "a-z0-9_\u0600-\u06ff"  # Arabic and Urdu letters, their marks and digits
GUJARATI = "a-z0-9_\u0a80-\u0aff"  # (with its vowel signs, nukta and virama)
# Latin letters with their diacritics (Latin-1, Extended-A and -B, Vietnamese's Extended
# Additional), ASCII digits and "_": French, Polish, Croatian, Vietnamese words
LATIN = "a-z0-9_\u00e0-\u024f\u1e01-\u1eff"


def script_words(pattern: str, script: str) -> str:
    """`pattern` as whole words of one script: what "\\b(?:pattern)\\b" would mean if RE2's
    "\\b" knew more than ASCII letters (it sees no boundary between a space and "é", so
    "blessé" or "zaginął" inside "\\b(...)\\b" never matches). `script` is the body of a class
    of that script's letters (`CYRILLIC`, `LATIN` ...); a boundary of any character outside
    it is consumed, which a search that asks only whether a pattern matches does not mind.
    A few Unicode blocks are a few UTF-8 byte ranges, where a class of every script's letters
    ("[^\\p{L}\\p{N}_]", used before) is hundreds: RE2 reads this at about the cost of plain
    words. `tests/unit/test_core_patterns.py` holds it to the any-script class on text in the
    script."""
    outside = f"[^{script}]"
    return f"(?:^|{outside})(?:{pattern})(?:{outside}|$)"


def word_ends(pattern: str, script: str) -> str:
    """`pattern` ending where a word of `script` ends, its start not bounded: for words of a
    script with no "\\b" that some longer word begins ("დღეს", today, opens "დღესასწაული", a
    feast day), where reading the start as well would cost a consumed character before every
    candidate (a tenth more of the asks' pass for the Cyrillic asks)."""
    return f"(?:{pattern})(?:[^{script}]|$)"


def latin_words(pattern: str) -> str:
    """`pattern` as whole words of a language written in Latin letters with diacritics
    (Czech, Slovak), each starting with an ASCII letter: an ASCII `\\b` before, and after
    anything but an ASCII letter, digit or underscore (so a final "í" or "ě" ends it). RE2
    runs this at about the cost of the plain ASCII words; a class of every script's letters,
    a consumed boundary before every word, cost a fifth more of the scorer's urgency pass
    over the corpus (docs/results.md, the forty-eighth pass). Words starting with a letter
    with a diacritic ("úterý", "čtvrtek") are written apart, after a space or a line start."""
    return f"\\b(?:{pattern})(?:[^a-z0-9_]|$)"


def alternatives(*patterns: str) -> str:
    """One pattern matching any of `patterns`. RE2 matches a big alternation in one linear
    pass (a DFA), about ten times faster than `re` on real mail, with the same results."""
    return "|".join(f"(?:{p})" for p in patterns)


# Greek is written with accents in lower case and without them in capitals ("ΕΠΕΙΓΟΝ",
# "επείγον"); folding lower-cases both and turns a final sigma into a plain one.
_GREEK_VOWELS = {"α": "αά", "ε": "εέ", "η": "ηή", "ι": "ιίϊΐ", "ο": "οό", "υ": "υύϋΰ",
                 "ω": "ωώ"}
_GREEK_ANY_ACCENT = str.maketrans(
    {**{v: f"[{c}]" for v, c in _GREEK_VOWELS.items()},
     **{a: f"[{c}]" for c in _GREEK_VOWELS.values() for a in c[1:]}, "ς": "σ"})


def greek(pattern: str) -> str:
    """`pattern`, written in lower-case Greek, matching its words with or without their
    accents (`fold`ed text: a final sigma is a plain one). Only for patterns with no
    character classes of their own."""
    return pattern.translate(_GREEK_ANY_ACCENT)


def as_searched(folded: str) -> bytes:
    """Folded text as the patterns search it. RE2 matches UTF-8 bytes in any case; handed
    a `str`, the binding encodes it and maps match offsets back to characters on every
    search, a third of the time of the signals' searches. Only whether a pattern matches
    is read here, so the offsets are not needed."""
    return folded.encode("utf-8", "surrogatepass")


# RE2 runs a set as one DFA built lazily, state by state, within a memory budget; states
# multiply with the patterns of a set. Under RE2's default budget (8 MiB) a set of all 20
# signals ran out again and again and RE2 fell back to its NFA: 59-93 us a mail against
# 40 us for 20 separate searches (64 MiB: 5 us). The sets here are one to three per text,
# 1 to 16 patterns each: at 16 MiB each runs as fast as at 64 MiB on mail it has not seen
# (at 8 MiB the sender's-words set slows by half; the scorer's 17-pattern urgency set of the
# third pass counted the same instructions over the corpus at 16, 64 and 256 MiB), and the
# budget bounds what hostile text can make the states cost: at most 16 MiB per set, 12 sets
# per process (docs/results.md).
SET_MAX_MEM = 16 << 20


# A counted run between two words: of any characters ("verify .{0,40} account"), or of one
# class of at least ten ("we are[^.\n]{0,60}importers", "\S{1,30}"). In a DFA it counts:
# each place the first word was seen is a state of its own, multiplied with the other
# patterns' states. A class counted fewer than ten times ("\d{1,2}") is left as it is.
_COUNTED_RUN = re.compile(
    rb"((?<!\\)\.|\[\^?\]?(?:\\.|[^\]\\])*\]|\\[SsWwDd])\{([01]),(\d+)\}")
_MIN_CLASS_RUN = 10


def _unbounded(run: re.Match[bytes]) -> bytes:
    item, least, most = run.group(1), run.group(2), int(run.group(3))
    if item != b"." and most < _MIN_CLASS_RUN:
        return run.group(0)
    return item + (b"*" if least == b"0" else b"+")


def loosened(pattern: bytes) -> bytes:
    """`pattern` with each counted run `_COUNTED_RUN` finds unbounded (`.{0,40}` -> `.*`,
    `[^.\\n]{1,60}` -> `[^.\\n]+`): it matches wherever `pattern` does, and more."""
    return _COUNTED_RUN.sub(_unbounded, pattern)


class PatternSet:
    """Named patterns matched in one pass over a text: `found` says which of them match
    anywhere, exactly as each one's own `search` would
    (tests/unit/test_core_judgement_speed.py holds the two equal on the corpora).

    `loose`: the pass runs the patterns `loosened`, and a pattern so changed is searched as
    it is only where its loose form matched. On mail not read before, a set whose patterns
    count runs between words builds fewer DFA states this way; those patterns rarely match."""

    __slots__ = ("_exact", "_match", "names", "patterns")

    def __init__(self, named: Mapping[str, str | bytes], loose: bool = False) -> None:
        options = re2.Options()
        options.max_mem = SET_MAX_MEM
        compiled = re2.Set.SearchSet(options)
        exact = [p.encode() if isinstance(p, str) else p for p in named.values()]
        run = [loosened(p) for p in exact] if loose else exact
        for pattern in run:
            compiled.Add(pattern)
        compiled.Compile()
        self.names: tuple[str, ...] = tuple(named)
        self.patterns: tuple[str | bytes, ...] = tuple(named.values())
        self._match = compiled._set.Match  # the wrapper only re-checks the type
        # (per pattern: its own search where the pass ran it loosened, else None)
        self._exact: tuple[_Matcher | None, ...] | None = tuple(
            _Matcher(p) if r != p else None for p, r in zip(exact, run, strict=True)
        ) if run != exact else None

    def found(self, data: bytes) -> frozenset[str]:
        hits = self._match(data)
        if not hits:  # most texts match none of a set's patterns
            return _NONE
        names, exact = self.names, self._exact
        if exact is not None:
            hits = [i for i in hits if (own := exact[i]) is None or own.search(data)]
            if not hits:
                return _NONE
        return frozenset([names[i] for i in hits])


_NONE: frozenset[str] = frozenset()


class ReadWhenAsked:
    """Whether a set (of one pattern: the promotional wording, trouble, the asks) finds its
    pattern in a text: read the first time it is asked, then kept. On mail not read before
    a set's pass mostly builds DFA states (the first pass over new text costs ten times the
    next), and where another condition already decides, the pass is not needed at all."""

    __slots__ = ("_hit", "_set", "_text")

    def __init__(self, pattern_set: PatternSet, text: bytes) -> None:
        self._set, self._text = pattern_set, text
        self._hit: bool | None = None

    def __call__(self) -> bool:
        if self._hit is None:
            self._hit = bool(self._set.found(self._text))
        return self._hit
