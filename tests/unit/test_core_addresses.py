"""The address fast path must read every header it accepts exactly as the stdlib parser
does, and hand everything else to that parser."""

from __future__ import annotations

import email
import email.policy
from email.utils import getaddresses, parseaddr
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mailmoat.core.addresses import _plain_pairs, address_pairs, single_address
from mailmoat.core.message import parse_message

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpora" / "spamassassin"

# Pieces of address syntax, the parser's specials and whitespace, and characters that look
# like whitespace to Python but are atom characters to the parser.
PIECES = ["a", "b", "x.y", "@", ".", " ", "\t", "<", ">", ",", '"', "(", ")", ":", ";",
          "\\", "[", "]", "\xa0", "\u2003", "\x85", "..", "é", "=?utf-8?q?z?=", "ann@example.org",
          "Ann Lee "]
HEADER = st.lists(st.sampled_from(PIECES), max_size=24).map("".join)


@settings(max_examples=3000, deadline=None)
@given(HEADER)
@example('"Lee, Ann" <ann@example.org>, bob@example.net')
@example("Ann\xa0Lee <ann@example.org>")
@example("ann@example.org,")
@example("ann@example.org,,bob@example.org")
@example("J. R. Doe<j@x.example>")
@example("undisclosed-recipients:;")
def test_the_fast_path_reads_what_the_stdlib_reads(raw: str) -> None:
    plain = _plain_pairs(raw)
    if plain is not None:
        assert plain == getaddresses([raw])
        if len(plain) == 1:
            assert plain[0] == parseaddr(raw)
    assert address_pairs(raw) == getaddresses([raw])
    assert single_address(raw) == parseaddr(raw)


def test_plain_forms_take_the_fast_path_and_the_rest_do_not() -> None:
    assert _plain_pairs("Ann Lee <ann@example.org>, bob@example.net") == [
        ("Ann Lee", "ann@example.org"), ("", "bob@example.net")]
    assert _plain_pairs('"Lee, Ann" <ann@example.org>') == [("Lee, Ann", "ann@example.org")]
    for other in ("ann@example.org (Ann)", "list: a@b.example;", '"A \\" B" <a@b.example>',
                  "<@route.example:a@b.example>", "a@b.example, , c@d.example", ""):
        assert _plain_pairs(other) is None


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpora/spamassassin is missing")
def test_every_address_header_of_the_corpus_reads_the_same_both_ways() -> None:
    checked = fast = 0
    for path in sorted(p for p in CORPUS.rglob("*") if p.is_file()):
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.compat32)
        for name in ("From", "To", "Cc", "Reply-To"):
            for value in message.get_all(name, []):
                raw = str(value).replace("\r", "").replace("\n", "")
                checked += 1
                fast += _plain_pairs(raw) is not None
                assert address_pairs(raw) == getaddresses([raw]), raw
                assert single_address(raw) == parseaddr(raw), raw
    assert checked > 10_000
    assert fast > checked / 2  # the point of the fast path: most real headers take it


def test_parsed_messages_keep_their_addresses() -> None:
    raw = (b'From: "Lee, Ann" <Ann@Example.org>\r\nTo: bob@example.net, Carol <c@x.example>\r\n'
           b"Cc: team: d@x.example;\r\nSubject: hi\r\n\r\nbody\r\n")
    message = parse_message(raw)
    assert (message.from_name, message.from_addr) == ("Lee, Ann", "ann@example.org")
    assert message.to == ("bob@example.net", "c@x.example")
    assert message.cc == ("d@x.example",)
