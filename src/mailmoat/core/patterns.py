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
# budget bounds what hostile text can make the states cost: at most 16 MiB per pass, three
# passes (`PatternSet`: cut for Latin, for Latin and Korean, all the patterns) of 13 sets
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


# Most mail is written in Latin letters alone, and most of a set's words are not: Korean,
# Cyrillic, Greek, Devanagari ... A text with no letter of those scripts cannot match an
# alternative that needs one, so a set reads such a text with those alternatives left out
# (`cut_for`): fewer NFA threads, fewer DFA states to build on mail not read before. Two
# readings are cut (`READINGS`), narrowest first: Latin, and Latin with Korean (the one
# other script this tool's users read most). Any other text is read by all the patterns.
# What "Latin" admits: ASCII and Latin-1 to IPA (U+0000-U+027F), Vietnamese's Latin Extended
# Additional (U+1E00-U+1EFF), punctuation, currency and symbols (U+2000-U+2FFF), and from
# the private use area on (U+E000-: fullwidth forms, emoji). Korean adds the Hangul Jamo,
# the CJK symbols and punctuation, the compatibility Jamo and the Hangul syllables.
_LATIN_RANGES = ((0x0000, 0x027F), (0x1E00, 0x1EFF), (0x2000, 0x2FFF), (0xE000, 0x10FFFF))
_HANGUL_RANGES = ((0x1100, 0x11FF), (0x3000, 0x303F), (0x3130, 0x318F), (0xAC00, 0xD7AF))


class Reading:
    """The characters a text may hold to be read by a set's patterns cut for them: `ranges`
    of code points; `fits` asks of UTF-8 bytes whether they hold only those (RE2, a class of
    the same ranges: tests/unit/test_core_patterns.py holds `fits` and `admits` to agree on
    every code point)."""

    __slots__ = ("_other", "_outside", "name", "ranges")

    def __init__(self, name: str, ranges: tuple[tuple[int, int], ...]) -> None:
        self.name, self.ranges = name, ranges
        spans = "".join(f"\\x{{{lo:x}}}-\\x{{{hi:x}}}" for lo, hi in ranges)
        self._outside = re2.compile(f"[^{spans}]")._regexp.Match
        self._other = re.compile("[^" + "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in ranges)
                                 + "]")

    def admits(self, cp: int) -> bool:
        """Whether code point `cp` is one of `ranges`."""
        return any(lo <= cp <= hi for lo, hi in self.ranges)

    def fits(self, data: bytes) -> bool:
        """Whether UTF-8 `data` holds only characters of `ranges`."""
        return self._outside(_UNANCHORED, data, 0, len(data))[0] == _NO_MATCH

    def needs_other(self, literal: str) -> bool:
        """Whether literal text holds a character outside `ranges`."""
        return self._other.search(literal) is not None


READINGS = (Reading("latin", _LATIN_RANGES), Reading("korean", _LATIN_RANGES + _HANGUL_RANGES))
_ALL = len(READINGS)  # (a text no reading fits: read by all the patterns)
# The last text asked about and its reading: a text is read by several sets in a row.
_last_read: tuple[bytes, int] = (b"", 0)


def reading_of(data: bytes) -> int:
    """The index in `READINGS` of the narrowest reading UTF-8 `data` fits (`_ALL`: none)."""
    global _last_read
    if data.isascii():
        return 0
    last = _last_read
    if last[0] is data:
        return last[1]
    found = next((i for i, r in enumerate(READINGS) if r.fits(data)), _ALL)
    _last_read = (data, found)
    return found


# A pattern is cut, not rewritten: its text is read as RE2 reads it (escapes, classes,
# groups, alternatives, repeats) and put back together less the alternatives, and the
# optional parts, that need a letter of another script. What is left is the pattern's own
# text, a part of it.
_TOKEN = re.compile(
    r"\\(?:[pP]\{\w+\}|x\{[0-9a-fA-F]+\}|.)"  # an escape
    r"|\[\^?\]?(?:\[:\^?\w+:\]|\\.|[^\]\\])*\]"  # a class
    r"|\((?:\?(?:P?<\w+>|[a-zA-Z]*(?:-[a-zA-Z]+)?:))?"  # a group opens
    r"|[)|]|(?:[*+?]|\{\d+(?:,\d*)?\})\??"  # a group closes, an alternative, a repeat
    r"|[^\\\[()|*+?{]+|.", re.DOTALL)  # literal characters
_REPEAT = re.compile(r"(?:[*+?]|\{\d+(?:,\d*)?\})\??")
_RANGE_OR_ONE = re.compile(r"(.)-(.)|(.)", re.DOTALL)


class _Part:
    """A part of a pattern: literal characters, an escape, a class or a group (`alts`: its
    alternatives, each a list of parts), with its repeat ("" when none)."""

    __slots__ = ("_needs", "alts", "least", "reading", "repeat", "text", "unread")

    def __init__(self, text: str, reading: Reading, alts: list[list[_Part]] | None = None,
                 unread: bool = False) -> None:
        self.text, self.reading, self.alts, self.unread = text, reading, alts, unread
        self.repeat, self.least = "", 1
        self._needs: bool | None = None

    def set_repeat(self, repeat: str) -> None:
        self.repeat = repeat
        count = repeat.rstrip("?") or "?"
        self.least = (0 if count in ("*", "?") else 1 if count == "+"
                      else int(count[1:-1].split(",")[0]))

    def needs_other_script(self) -> bool:
        """Whether every match of this part (once) holds a letter its reading refuses. A part
        read case-insensitively is not read (RE2 folds some letters of other blocks into
        ASCII ones), nor an escape."""
        if self._needs is None:
            self._needs = self._read_needs()
        return self._needs

    def _read_needs(self) -> bool:
        if self.unread or self.text.startswith("\\"):
            return False
        if self.alts is not None:
            return all(_alt_needs_other_script(alt) for alt in self.alts)
        if self.text.startswith("[") and len(self.text) > 1:
            body = self.text[1:-1]
            if body.startswith("^") or "\\" in body or "[:" in body:
                return False
            ranges = self.reading.ranges
            return all(not any(lo <= ord(m[1]) and ord(m[0]) <= hi for lo, hi in ranges)
                       if m[0] else not self.reading.admits(ord(m[2]))
                       for m in _RANGE_OR_ONE.findall(body))
        return self.reading.needs_other(self.text)


def _alt_needs_other_script(parts: list[_Part]) -> bool:
    return any(p.least >= 1 and p.needs_other_script() for p in parts)


def _read(tokens: list[str], at: int, unread: bool,
          reading: Reading) -> tuple[list[list[_Part]], int, bool]:
    """The alternatives from `tokens[at]` to the group's end, where reading stopped, and
    whether a ")" closed the group (else the tokens ran out)."""
    alts: list[list[_Part]] = [[]]
    while at < len(tokens):
        token = tokens[at]
        at += 1
        parts = alts[-1]
        if token == ")":
            return alts, at, True
        if token == "|":
            alts.append([])
        elif token.startswith("("):
            flags = token[2:].partition("-")[0] if token.startswith("(?") else ""
            inner_unread = unread or "i" in flags
            inner, at, closed = _read(tokens, at, inner_unread, reading)
            if not closed:
                raise ValueError("a group does not close")
            parts.append(_Part(token, reading, inner, inner_unread))
        elif parts and _REPEAT.fullmatch(token) and not parts[-1].repeat:
            last = parts[-1]
            if last.alts is None and not last.text.startswith(("\\", "[")) and len(last.text) > 1:
                # (a repeat after literal characters repeats the last of them)
                last.text, one = last.text[:-1], _Part(last.text[-1], reading, unread=last.unread)
                parts.append(one)
                last = one
            last.set_repeat(token)
        else:
            parts.append(_Part(token, reading, unread=unread))
    return alts, at, False


def _put_together(alts: list[list[_Part]]) -> str:
    """The alternatives' text less what `_Part.needs_other_script` finds (the caller has
    seen that at least one alternative is left)."""
    kept = []
    for alt in alts:
        if _alt_needs_other_script(alt):
            continue
        text = []
        for part in alt:
            if part.needs_other_script():  # (an optional part: `least` is 0)
                continue
            body = part.text if part.alts is None else f"{part.text}{_put_together(part.alts)})"
            text.append(body + part.repeat)
        kept.append("".join(text))
    return "|".join(kept)


def cut_for(pattern: str | bytes, reading: Reading) -> str | bytes | None:
    """`pattern` as it reads a text that `reading` fits: without the alternatives, and the
    optional parts, that need a letter outside it, matching such a text exactly where
    `pattern` does. `pattern` itself when it has none (or is bytes, or holds a form this
    cut does not know: inline flags for the rest of the pattern), None when all of it needs
    one."""
    if isinstance(pattern, bytes) or re.search(r"\(\?[a-zA-Z-]*\)", pattern):
        return pattern
    tokens = _TOKEN.findall(pattern)
    try:
        alts, _, closed = _read(tokens, 0, False, reading)
    except ValueError:
        return pattern
    if closed:
        return pattern  # (an unmatched ")")
    if all(_alt_needs_other_script(alt) for alt in alts):
        return None
    return _put_together(alts)


class _Pass:
    """One compiled RE2 `Set` of patterns and, where it runs them `loosened`, each one's own
    search (None where it runs a pattern as it is)."""

    __slots__ = ("exact", "match", "names")

    def __init__(self, named: Mapping[str, str | bytes], loose: bool) -> None:
        options = re2.Options()
        options.max_mem = SET_MAX_MEM
        compiled = re2.Set.SearchSet(options)
        exact = [p.encode() if isinstance(p, str) else p for p in named.values()]
        run = [loosened(p) for p in exact] if loose else exact
        for pattern in run:
            compiled.Add(pattern)
        compiled.Compile()
        self.names: tuple[str, ...] = tuple(named)
        self.match = compiled._set.Match  # the wrapper only re-checks the type
        self.exact: tuple[_Matcher | None, ...] | None = tuple(
            _Matcher(p) if r != p else None for p, r in zip(exact, run, strict=True)
        ) if run != exact else None

    def found(self, data: bytes) -> frozenset[str]:
        hits = self.match(data)
        if not hits:  # most texts match none of a set's patterns
            return _NONE
        names, exact = self.names, self.exact
        if exact is not None:
            hits = [i for i in hits if (own := exact[i]) is None or own.search(data)]
            if not hits:
                return _NONE
        return frozenset([names[i] for i in hits])


class PatternSet:
    """Named patterns matched in one pass over a text: `found` says which of them match
    anywhere, exactly as each one's own `search` would
    (tests/unit/test_core_judgement_speed.py holds the two equal on the corpora).

    `loose`: the pass runs the patterns `loosened`, and a pattern so changed is searched as
    it is only where its loose form matched. On mail not read before, a set whose patterns
    count runs between words builds fewer DFA states this way; those patterns rarely match.

    A text is read by a pass of the patterns `cut_for` the narrowest of `READINGS` it fits,
    or by a pass of them all; each pass is compiled the first time a text needs it (a
    process that reads only Latin text compiles only the Latin pass)."""

    __slots__ = ("_loose", "_passes", "names", "patterns")

    def __init__(self, named: Mapping[str, str | bytes], loose: bool = False) -> None:
        self.names: tuple[str, ...] = tuple(named)
        self.patterns: tuple[str | bytes, ...] = tuple(named.values())
        self._loose = loose
        self._passes: list[_Pass | None] = [None] * (_ALL + 1)

    def pass_for(self, reading: int) -> _Pass:
        """The pass a text of `READINGS[reading]` is read by (`_ALL`: any text)."""
        done = self._passes[reading]
        if done is not None:
            return done
        named = dict(zip(self.names, self.patterns, strict=True))
        if reading == _ALL:
            made = _Pass(named, self._loose)
        else:
            kept = {n: f for n, p in named.items()
                    if (f := cut_for(p, READINGS[reading])) is not None}
            made = (self.pass_for(reading + 1) if kept == named
                    else _Pass(kept, self._loose) if kept else _NOTHING)
        self._passes[reading] = made
        return made

    def full_pass(self) -> _Pass:
        """The pass any text is read by."""
        return self.pass_for(_ALL)

    def found(self, data: bytes) -> frozenset[str]:
        reading = reading_of(data)
        return (self._passes[reading] or self.pass_for(reading)).found(data)


_NONE: frozenset[str] = frozenset()


class _Nothing(_Pass):
    """The pass of a set none of whose patterns can match a text of a reading."""

    def __init__(self) -> None:
        self.names, self.exact = (), None

    def found(self, data: bytes) -> frozenset[str]:
        return _NONE


_NOTHING = _Nothing()


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
