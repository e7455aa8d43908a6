"""Canonical JSON and the scorer-input hash (S7): same logical input, same hash; any change
to a field the scorer reads, a different hash."""

from __future__ import annotations

import math
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mailmoat.core.hashing import (
    BODY_EXCERPT_CHARS,
    canonical_json,
    input_hash,
    is_stale,
    scorer_input,
    sha256_hex,
)
from mailmoat.core.message import parse_message


def _mail(subject: str = "Lunch?", body: str = "Are you free at noon?",
          extra_headers: str = "") -> bytes:
    return (
        "From: Ana <ana@example.com>\r\nTo: me@example.org\r\n"
        f"Subject: {subject}\r\n{extra_headers}"
        "Content-Type: text/plain; charset=utf-8\r\n\r\n"
        f"{body}\r\n"
    ).encode()


def test_key_order_and_normal_form_do_not_change_canonical_json() -> None:
    nfc = unicodedata.normalize("NFC", "café")
    nfd = unicodedata.normalize("NFD", "café")
    assert nfc != nfd
    assert canonical_json({"b": 1, "a": nfc}) == canonical_json({"a": nfd, "b": 1})
    assert sha256_hex({"b": [nfd]}) == sha256_hex({"b": [nfc]})


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_non_finite_floats_cannot_be_hashed(bad: float) -> None:
    with pytest.raises(ValueError):
        canonical_json({"x": bad})


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text()
                    | st.floats(allow_nan=False, allow_infinity=False),
                    lambda inner: st.lists(inner)
                    | st.dictionaries(st.text(alphabet="abcdefgh"), inner),
                    max_leaves=20))
def test_canonical_json_is_stable_under_nfd(value: object) -> None:
    def to_nfd(v: object) -> object:
        if isinstance(v, str):
            return unicodedata.normalize("NFD", v)
        if isinstance(v, list):
            return [to_nfd(x) for x in v]
        if isinstance(v, dict):
            return {to_nfd(k): to_nfd(x) for k, x in v.items()}
        return v

    try:
        expected = canonical_json(value)
    except ValueError:
        return
    assert canonical_json(to_nfd(value)) == expected


def test_the_hash_covers_what_the_scorer_reads() -> None:
    base = input_hash(parse_message(_mail()))
    assert input_hash(parse_message(_mail())) == base  # deterministic
    assert input_hash(parse_message(_mail(subject="Lunch!"))) != base
    assert input_hash(parse_message(_mail(body="Are you free at one?"))) != base
    bulk = "List-Unsubscribe: <mailto:u@example.com>\r\n"
    assert input_hash(parse_message(_mail(extra_headers=bulk))) != base


def test_the_hash_ignores_what_no_scorer_reads() -> None:
    base = input_hash(parse_message(_mail()))
    relay = "Received: from relay.example.net by mx.example.org\r\n"
    assert input_hash(parse_message(_mail(extra_headers=relay))) == base


def test_a_change_in_the_tail_of_a_long_body_is_seen() -> None:
    # The signals read the footer (opt-out links), so the hash must cover it too.
    long_body = "x" * (3 * BODY_EXCERPT_CHARS)
    a = parse_message(_mail(body=long_body + " keep"))
    b = parse_message(_mail(body=long_body + " unsubscribe"))
    assert scorer_input(a)["body"] == scorer_input(b)["body"]
    assert input_hash(a) != input_hash(b)


def test_is_stale_flags_a_message_that_no_longer_matches() -> None:
    original = parse_message(_mail())
    stored = input_hash(original)
    assert not is_stale(original, stored)
    assert is_stale(parse_message(_mail(body="Wire the money now.")), stored)


def _stdlib_form(value: object) -> bytes:
    """The definition of the canonical form (the stdlib encoder), for comparison."""
    import json

    from mailmoat.core.hashing import _nfc

    return json.dumps(_nfc(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def test_canonical_json_writes_every_code_point_as_the_stdlib_defines_it() -> None:
    # The fast encoder must not change one byte of any hash: stored input hashes and
    # receipts were computed with the stdlib encoder.
    chars = [chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
    assert canonical_json(chars) == _stdlib_form(chars)
    keyed = {c: i for i, c in enumerate(chars[:70000])}
    assert canonical_json(keyed) == _stdlib_form(keyed)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=15)


@given(JSON_VALUES)
def test_canonical_json_equals_the_stdlib_form_for_any_value(value: object) -> None:
    # Floats and integers beyond 64 bits take the stdlib path; the rest the fast one.
    assert canonical_json(value) == _stdlib_form(value)


def test_floats_and_big_integers_keep_the_stdlib_spelling() -> None:
    assert canonical_json({"f": 1e-05, "n": 2**70}) == b'{"f":1e-05,"n":1180591620717411303424}'


def test_input_hash_is_the_canonical_hash_of_the_scorer_input() -> None:
    # input_hash canonicalises once (core/hashing.py); it must equal the general path.
    from mailmoat.core.hashing import sha256_hex

    corpus = Path(__file__).resolve().parents[3] / "shared" / "corpora" / "spamassassin"
    raws = [p.read_bytes() for p in sorted(corpus.rglob("*"))[::40] if p.is_file()]
    raws.append("From: Zoë <zoe@e\u0301xample.org>\nTo: a@b.org\nSubject: Cafe\u0301 "
                "\ud55c\uae00\n\nbody with <a href=\"https://x.org\">x.org</a>\n"
                .encode("utf-8", "surrogatepass"))
    assert len(raws) > 100
    for raw in raws:
        message = parse_message(raw)
        assert input_hash(message) == sha256_hex(scorer_input(message))
