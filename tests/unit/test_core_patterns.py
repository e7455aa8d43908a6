"""core/patterns.py: whole words in other scripts, where RE2's ASCII-only "\\b" sees none."""

from __future__ import annotations

import pytest
import re2
from hypothesis import given
from hypothesis import strategies as st

import mailmoat.core.local_scorer as scorer_mod
from mailmoat.core.patterns import (
    ARABIC,
    CYRILLIC,
    DEVANAGARI,
    GEORGIAN,
    GUJARATI,
    KANNADA,
    LATIN,
    READINGS,
    PatternSet,
    Reading,
    as_searched,
    cut_for,
    latin_words,
    reading_of,
    script_words,
    word_ends,
)

WORDS = r"blessée?s?|coincée?|zagin[ąę]ł\pL*|là"
# The boundary of every script's letters, digits and "_": what `script_words` must agree with
# on text in its script.
_ANY_SCRIPT = r"[^\p{L}\p{N}_]"


def _whole_words_in_any_script(pattern: str) -> str:
    return f"(?:^|{_ANY_SCRIPT})(?:{pattern})(?:{_ANY_SCRIPT}|$)"


@pytest.mark.parametrize("text", [
    "il est blessé.", "blessé", "deux blessés ce matin", "la voiture est coincée\n",
    "Jan zaginął w nocy", "les pompiers sont là", "(coincé)",
])
def test_script_words_match_words_that_start_or_end_with_an_accented_letter(text: str) -> None:
    assert re2.compile(script_words(WORDS, LATIN)).search(text.lower())
    assert re2.compile(script_words(WORDS, LATIN)).search(text.lower().encode())
    # what "\b" makes of the same words: the bug `script_words` exists for
    if text.rstrip(".\n)").endswith(("é", "ł", "à")) or "é " in text or "ł " in text:
        assert not re2.compile(rf"\b(?:{WORDS})\b").search(text.lower())


@pytest.mark.parametrize("text", ["débloqué", "coincéx", "blessés2", "_blessé", "déjà", "voilà"])
def test_script_words_do_not_match_inside_longer_words(text: str) -> None:
    assert not re2.compile(script_words(WORDS, LATIN)).search(text)


def test_script_words_work_in_a_pattern_set() -> None:
    found = PatternSet({"hurt": script_words(WORDS, LATIN), "other": r"\bnothing\b"}).found
    assert found("il est blessé, vite".encode()) == frozenset({"hurt"})
    assert found("débloqué".encode()) == frozenset()


def test_pattern_literals_survive_folding() -> None:
    """The judge's patterns read folded text (`core.text.fold`: NFKC, casefold). A literal that
    folding changes can never match: "ㅋㅋ" (folded to leading jamo "ᄏᄏ") and "maßnahmen"
    (folded to "massnahmen") did not. Greek letters that fold to two code points appear only
    inside the accent classes `greek` writes ("[ιίϊΐ]"), beside their folded forms."""
    import importlib

    from mailmoat.core.text import fold

    inside_greek_classes = {"ΐ", "ΰ"}
    for name in ("local_scorer", "signals", "evidence"):
        module = importlib.import_module(f"mailmoat.core.{name}")
        for attr, value in vars(module).items():
            if not isinstance(value, str) or "|" not in value:
                continue
            changed = {c for c in set(value) if ord(c) > 127 and fold(c) != c}
            assert changed <= inside_greek_classes, (name, attr, sorted(changed))


@pytest.mark.parametrize(("text", "trouble"), [
    ("wir bitten sie um die zertifikate", False),  # German "to ask"
    ("she was bitten by the neighbour's dog", True),
    ("we fell in love with your plates", False),
    ("prices fell sharply last quarter", False),
    ("mum fell. can you come?", True),
    ("he fell off the ladder", True),
])
def test_trouble_words_that_mean_something_else_elsewhere(text: str, trouble: bool) -> None:
    from mailmoat.core.local_scorer import _TROUBLE

    assert bool(re2.compile(_TROUBLE).search(text)) is trouble


@pytest.mark.parametrize(("text", "found"), [
    ("je to naléhavé, prosím", True), ("naléhavě!", True), ("urgentní", True),
    ("nespěchá", False),  # "spěchá" inside a longer word
    ("urgentními", False),  # a longer word than the one listed
    ("dnes v 10:00", True), ("dnesní", False)])
def test_latin_words_are_whole_words_ending_in_any_letter(text: str, found: bool) -> None:
    pattern = re2.compile(latin_words(r"nal[eé]hav[eéě]|urgentn[ií]|sp[eě]ch[aá]|dnes"))
    assert bool(pattern.search(text.encode())) is found


@pytest.mark.parametrize(("script", "words", "text", "found"), [
    (CYRILLIC, "гори|болниц[аиуе]", "кућа гори!", True),
    (CYRILLIC, "гори|болниц[аиуе]", "нема горива", False),  # "burning" inside "fuel"
    (CYRILLIC, "гори|болниц[аиуе]", "у болници.", True),
    (CYRILLIC, "гори|болниц[аиуе]", "болничар", False),
    (GEORGIAN, "დღეს", "დღეს 17:00-მდე", True),
    (GEORGIAN, "დღეს", "დღესასწაული", False),  # "today" opening "a feast day"
    (KANNADA, "ತಿಳಿಸಿ", "ದಯವಿಟ್ಟು ತಿಳಿಸಿ.", True),
    (KANNADA, "ತಿಳಿಸಿ", "ತಿಳಿಸಿದ್ದೇನೆ", False),  # "let me know" opening "I have let you know"
    (DEVANAGARI, "ताप", "बाबांना ताप आहे", True),
    (DEVANAGARI, "ताप", "त्याचा संताप", False),  # "fever" ending "anger"
    (DEVANAGARI, "ताप", "तापमान ४० अंश", False),  # "fever" opening "temperature"
])
def test_script_words_are_whole_words_of_their_script(script: str, words: str, text: str,
                                                      found: bool) -> None:
    assert bool(re2.compile(script_words(words, script)).search(text.encode())) is found


@given(st.text(alphabet=st.sampled_from(list("горибанцеи .,!?\n(-1a")), max_size=40),
       st.text(alphabet=st.sampled_from(list("blesécoinàłz .,!?\n(-1_")), max_size=40))
def test_script_words_read_their_script_as_any_script_words_do(cyrillic: str,
                                                                latin: str) -> None:
    """On text in its script (and ASCII around it), a script's letters as the boundary find
    what the class of every script's letters finds."""
    for words, script, text in (("гори|бан[аеи]?|це", CYRILLIC, cyrillic), (WORDS, LATIN, latin),
                                ("là|coincée?", LATIN, latin)):
        assert bool(re2.compile(script_words(words, script)).search(text.encode())) is bool(
            re2.compile(_whole_words_in_any_script(words)).search(text.encode()))


def _alternatives(pattern: str, open_at: int) -> tuple[int, list[str]]:
    """The top-level alternatives of the group opening at `open_at`, and where it closes."""
    k = open_at + (3 if pattern.startswith("(?:", open_at) else 1)
    start, depth, in_class, found = k, 0, False, []
    while k < len(pattern):
        char = pattern[k]
        if char == "\\":
            k += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "(":
            depth += 1
        elif char == ")" and depth:
            depth -= 1
        elif char == ")" or (char == "|" and not depth):
            found.append(pattern[start:k])
            if char == ")":
                return k, found
            start = k + 1
        k += 1
    return k, found


def _judge_patterns() -> set[str]:
    from mailmoat.core import evidence, local_scorer, signals
    from mailmoat.core.patterns import _Matcher

    found: set[str] = set()
    for module in (signals, evidence, local_scorer):
        for value in vars(module).values():
            if isinstance(value, _Matcher):
                found.add(value.compiled.pattern)
            elif isinstance(value, PatternSet):
                found.update(value.patterns)
    return {p.decode() if isinstance(p, bytes) else p for p in found}


def test_no_word_of_a_judge_pattern_is_lost_to_an_ascii_boundary() -> None:
    """RE2's "\\b" knows ASCII letters only: in "\\b(?:...|älä soita)", "(?:...|vettä)\\b" or
    "(?:...|at \\d+ ?%)\\b" that word can never match after or before a space. Such words
    are written with `script_words`, or with the boundary where an ASCII letter stands."""
    lost = []
    patterns = _judge_patterns()
    assert len(patterns) > 40
    for pattern in patterns:
        for at, char in enumerate(pattern):
            if char != "(" or pattern[at - 1:at] == "\\":
                continue
            close, words = _alternatives(pattern, at)
            lead, trail = pattern[at - 2:at] == "\\b", pattern[close + 1:close + 3] == "\\b"
            for word in words:
                if (lead and _not_ascii_word(_first_literal(word))) or (
                        trail and _not_ascii_word(_last_literal(word))):
                    lost.append(word)
    assert not lost, lost[:20]


def _first_literal(alternative: str) -> str:
    """The character an alternative must start with, "" where a class or group starts it."""
    if alternative[:1] == "\\":
        return alternative[1:2] if alternative[1:2] in ".$+-?%" else ""
    return "" if alternative[:1] in "([.^" else alternative[:1]


def _last_literal(alternative: str) -> str:
    """The character an alternative must end with, "" where a class, group or repeat ends it."""
    if alternative[-2:-1] == "\\":
        return alternative[-1] if alternative[-1] in ".$+-?%" else ""
    return "" if alternative[-1:] in ")]?*+}.$^" else alternative[-1:]


def _not_ascii_word(char: str) -> bool:
    """A character next to which RE2's "\\b" sees no word start or end (after a space; a
    space itself, with a word after it, has one)."""
    return bool(char) and not char.isspace() and not (
        char.isascii() and (char.isalnum() or char == "_"))


@pytest.mark.parametrize(("words", "text", "found"), [
    ("आज|आजच", "आज दुपारी", True),
    ("आज|आजच", "आजच कळवा.", True),
    ("आज|आजच", "आजी येत आहे", False),  # "today" opening "grandmother"
    ("आज|आजच", "आजार", False),  # "today" opening "an illness"
    ("आज|आजच", "काम आज", True),  # at the text's end
])
def test_word_ends_bound_a_word_at_its_end_only(words: str, text: str, found: bool) -> None:
    assert bool(re2.compile(word_ends(words, DEVANAGARI)).search(text.encode())) is found


@pytest.mark.parametrize(("script", "words", "text", "found"), [
    (GUJARATI, "આજ|આજે", "આજે સાંજે", True),
    (GUJARATI, "આજ|આજે", "આજકાલ શું ભાવ છે?", False),  # "today" opening "nowadays"
    (ARABIC, "آج", "آج شام", True),
    (ARABIC, "آج", "آجائیں", False),  # "today" opening "come"
])
def test_word_ends_in_gujarati_and_urdu(script: str, words: str, text: str, found: bool) -> None:
    assert bool(re2.compile(word_ends(words, script)).search(text.encode())) is found


# --- A text in Latin letters (or Latin and Korean) is read without the other scripts' words ---

LATIN_READING, KOREAN_READING = READINGS


@pytest.mark.parametrize("reading", READINGS, ids=lambda r: r.name)
def test_a_readings_byte_test_and_its_code_points_agree_on_every_code_point(
        reading: Reading) -> None:
    """The byte test a set runs (`Reading.fits`) and the code points the cut keeps
    (`Reading.admits`) are one definition: were they not, a pattern could lose a word a text
    holds."""
    wrong = [cp for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF
             and reading.fits(chr(cp).encode()) != reading.admits(cp)]
    assert wrong == []


def test_a_text_is_read_by_the_narrowest_reading_it_fits() -> None:
    assert reading_of("Réunion à 14 h — coût 20 €, ça va ✓".encode()) == 0
    assert reading_of("긴급 회의 today「확인」".encode()) == 1
    assert reading_of("срочно".encode()) == reading_of("ἐπείγον".encode()) == len(READINGS)
    assert reading_of("긴급 срочно".encode()) == reading_of("სასწრაფო".encode()) == len(READINGS)


@pytest.mark.parametrize(("pattern", "latin"), [
    (r"\burgent\b|срочно", r"\burgent\b"),
    (r"\b(?:asap|긴급)\b", r"\b(?:asap)\b"),
    (r"(?:^|[^\pL\pN_])(?:blessé|срочно)(?:[^\pL]|$)", r"(?:^|[^\pL\pN_])(?:blessé)(?:[^\pL]|$)"),
    (script_words("слово|срочно", CYRILLIC) + r"|x.{0,40}y", r"x.{0,40}y"),
    (r"now(?: 즉시)? please", r"now please"),  # an optional part that needs Hangul goes
    (r"\burgent\b", r"\burgent\b"),  # nothing to leave out: the pattern itself
])
def test_the_latin_cut_leaves_out_what_needs_another_script(pattern: str, latin: str) -> None:
    assert cut_for(pattern, LATIN_READING) == latin
    text = "now please, this is urgent: x 1 2 y and blessé"
    assert bool(re2.search(latin, text)) == bool(re2.search(pattern, text))


def test_the_korean_cut_keeps_korean_and_leaves_out_the_rest() -> None:
    assert cut_for(r"\burgent\b|срочно|긴급|[가-힣]+ 요청|तुरंत", KOREAN_READING) == \
        r"\burgent\b|긴급|[가-힣]+ 요청"
    assert cut_for(r"\burgent\b|срочно|긴급|[가-힣]+ 요청|तुरंत", LATIN_READING) == r"\burgent\b"


def test_a_cut_of_a_pattern_all_in_other_scripts_is_none() -> None:
    assert cut_for("срочно|긴급|[가-힣]+ 요청", LATIN_READING) is None
    assert cut_for("срочно|तुरंत", KOREAN_READING) is None
    assert cut_for(b"\\burgent\\b", LATIN_READING) == b"\\burgent\\b"  # bytes are run as they are


def test_a_set_reads_each_text_by_the_narrowest_cut() -> None:
    found = PatternSet({"urgent": r"\burgent\b|срочно", "korean": r"긴급|즉시",
                        "meeting": r"\bmeeting\b"})
    assert found.found(as_searched("an urgent meeting")) == {"urgent", "meeting"}
    assert found.found(as_searched("긴급 meeting")) == {"korean", "meeting"}
    assert found.found(as_searched("срочно, 긴급")) == {"urgent", "korean"}
    assert found.found(as_searched("nothing here")) == frozenset()
    assert found.pass_for(0).names == ("urgent", "meeting")
    assert found.pass_for(1).names == ("urgent", "korean", "meeting")
    assert found.pass_for(1) is not found.full_pass()  # (Korean's cut left out "срочно")


def test_the_judges_sets_leave_out_other_scripts_on_latin_text() -> None:
    """The cut reads the judge's own patterns: the trouble words' Latin form holds no
    Hangul, Cyrillic or Devanagari, their Korean form Hangul but no Cyrillic or Devanagari;
    each is a good part shorter."""
    trouble = scorer_mod._TROUBLE
    latin, korean = cut_for(trouble, LATIN_READING), cut_for(trouble, KOREAN_READING)
    assert isinstance(latin, str) and len(latin) < 0.95 * len(trouble)
    assert isinstance(korean, str) and len(latin) < len(korean) < 0.95 * len(trouble)
    other = "[\u0400-\u04ff\u0900-\u097f]"
    assert re2.search("[가-힣]", trouble) and not re2.search(f"[가-힣]|{other}", latin)
    assert re2.search("[가-힣]", korean) and not re2.search(other, korean)
