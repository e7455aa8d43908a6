"""The parser (S9): never raises, bounded work, and the fields a scorer needs."""

from __future__ import annotations

import base64
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mailmoat.core.message as message_module
from mailmoat.core.lanes import Lane
from mailmoat.core.message import MAX_BODY_CHARS, MAX_PART_BYTES, Message, parse_message
from mailmoat.judge.cascade import classify
from tests.conftest import SHARED

CORPUS = SHARED / "corpora" / "spamassassin"


def corpus_files() -> list[Path]:
    return sorted(p for p in CORPUS.glob("*/*") if p.is_file())


def test_every_corpus_message_parses_and_gets_a_lane() -> None:
    files = corpus_files()
    if not files:
        pytest.skip(f"the SpamAssassin corpus is not at {CORPUS}")
    assert len(files) > 6000
    lanes: dict[str, int] = {}
    for path in files:
        message = parse_message(path.read_bytes())
        assert isinstance(message, Message)
        lane = classify(message).decision.lane
        assert isinstance(lane, Lane)
        lanes[lane.value] = lanes.get(lane.value, 0) + 1
    assert sum(lanes.values()) == len(files)
    # Sanity on real data: a spam corpus must not all land in one lane.
    assert len(lanes) >= 3, lanes


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=4000))
def test_random_bytes_never_raise(raw: bytes) -> None:
    message = parse_message(raw)
    assert message.raw_size == len(raw)


HEADER_LINES = st.sampled_from([
    b"From: =?utf-8?B?w6k=?= <a@example.com>", b"From: <<>>@@", b"From:", b"To: ,,,;;",
    b"Subject: =?x-unknown?Q?caf=E9?=", b"Subject: =?utf-8?B?!!!?=", b"Date: yesterday",
    b"Content-Type: multipart/mixed; boundary=b", b"Content-Type: text/html; charset=bogus",
    b"Content-Transfer-Encoding: base64", b"Content-Transfer-Encoding: quoted-printable",
    b"Content-Type: message/rfc822", b"Subject: \xff\xfe\x80 8-bit junk",
    b"List-Unsubscribe: <mailto:x@example.com>", b"--b", b"--b--", b"", b"=E9=", b"<p>hi",
])


@settings(max_examples=300, deadline=None)
@given(st.lists(HEADER_LINES, max_size=25))
def test_generated_mime_shaped_input_never_raises(lines: list[bytes]) -> None:
    message = parse_message(b"\r\n".join(lines))
    assert isinstance(message.subject, str) and isinstance(message.body_text, str)


def test_rfc2047_subject_and_display_name_are_decoded() -> None:
    raw = (b"From: =?UTF-8?B?7ZmN6ri464+Z?= <hong@example.kr>\r\n"
           b"Subject: =?UTF-8?Q?Caf=C3=A9_tomorrow?=\r\n\r\nbody")
    m = parse_message(raw)
    assert m.subject == "Café tomorrow"
    assert m.from_name == "홍길동" and m.from_addr == "hong@example.kr"


def test_unknown_charset_is_read_and_noted() -> None:
    raw = (b"From: a@example.com\r\nSubject: =?x-klingon?Q?caf=C3=A9?=\r\n"
           b"Content-Type: text/plain; charset=x-klingon\r\n\r\ncaf\xc3\xa9")
    m = parse_message(raw)
    assert "caf" in m.subject and "café" in m.body_text
    assert any("charset" in d for d in m.defects)


def test_missing_headers_give_empty_fields() -> None:
    m = parse_message(b"just a body, no headers at all")
    assert (m.from_addr, m.subject, m.message_id, m.date) == ("", "", "", None)


def test_html_becomes_readable_text_without_scripts() -> None:
    raw = (b"From: a@example.com\r\nContent-Type: text/html\r\n\r\n"
           b"<html><head><style>p{}</style><script>alert(1)</script></head>"
           b"<body><p>Hello&nbsp;<b>there</b></p><div>Second line</div></body></html>")
    m = parse_message(raw)
    assert m.html_present
    assert "Hello" in m.body_text and "Second line" in m.body_text
    assert "alert" not in m.body_text and "<" not in m.body_text


def test_attachments_calendar_and_nested_messages() -> None:
    pdf = base64.b64encode(b"%PDF" + b"x" * 1000).decode()
    raw = (
        "From: a@example.com\r\nSubject: outer\r\nMIME-Version: 1.0\r\n"
        'Content-Type: multipart/mixed; boundary="B"\r\n\r\n'
        "--B\r\nContent-Type: text/plain\r\n\r\nSee attached.\r\n"
        '--B\r\nContent-Type: application/pdf; name="q3.pdf"\r\n'
        "Content-Disposition: attachment; filename=\"q3.pdf\"\r\n"
        f"Content-Transfer-Encoding: base64\r\n\r\n{pdf}\r\n"
        "--B\r\nContent-Type: text/calendar; method=REQUEST\r\n\r\n"
        "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:Review\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        "--B\r\nContent-Type: message/rfc822\r\n\r\n"
        "From: inner@example.com\r\nSubject: inner\r\n\r\nInner body text.\r\n"
        "--B--\r\n"
    ).encode()
    m = parse_message(raw)
    assert m.subject == "outer"
    assert ("q3.pdf", "application/pdf", 1004) in [
        (a.filename, a.content_type, a.size) for a in m.attachments]
    assert m.calendar_parts and "SUMMARY:Review" in m.calendar_parts[0]
    assert "See attached." in m.body_text


def test_huge_parts_are_capped_and_the_cap_is_reported() -> None:
    body = b"A" * (MAX_PART_BYTES * 3)
    m = parse_message(b"From: a@example.com\r\nSubject: big\r\n\r\n" + body)
    assert len(m.body_text) <= MAX_BODY_CHARS
    assert m.truncations, "a capped part must say so"
    assert m.raw_size == len(body) + len(b"From: a@example.com\r\nSubject: big\r\n\r\n")


def test_deeply_nested_multipart_still_yields_headers() -> None:
    depth = 3000
    opening = b"".join(
        f'Content-Type: multipart/mixed; boundary="b{i}"\r\n\r\n--b{i}\r\n'.encode()
        for i in range(depth))
    raw = b"From: bomb@example.com\r\nSubject: nested\r\n" + opening + b"\r\nleaf\r\n"
    m = parse_message(raw)
    assert m.subject == "nested" and m.from_addr == "bomb@example.com"
    assert m.defects or m.truncations


def test_eight_bit_junk_in_headers_does_not_raise() -> None:
    m = parse_message(b"From: \xff\xfe <x@\xe9xample.com>\r\nSubject: \x80\x81 hi\r\n\r\nbody")
    assert "hi" in m.subject


@given(st.text(alphabet=st.sampled_from(list("ab \t\n\r\u00a0\u2003.")), max_size=3000),
       st.integers(min_value=1, max_value=300))
def test_snippet_reads_a_prefix_but_equals_normalizing_the_whole_text(
        text: str, limit: int) -> None:
    from mailmoat.core.text import normalize_space, snippet

    assert snippet(text, limit) == normalize_space(text)[:limit]


# -- the parse's two speed-ups: the header fields nothing reads are dropped, and a single
# part's body is set as its payload without the parser reading it line by line. Both must
# change no answer: parsing the whole message with the stdlib is the reference.

def _parse_keeping_every_header(raw: bytes) -> Message:
    with mock.patch.object(message_module, "_plain_split", lambda r: None):
        return parse_message(raw)


def _drop(raw: bytes) -> bytes:
    split = message_module._plain_split(raw)
    return raw if split is None else b"".join(split)


HEAD_PIECES = [
    b"Subject: hello\r\n", b"From: Ann <ann@example.org>\n", b"To: b@example.net\r\n",
    b"Content-Type: multipart/mixed; boundary=zz\r\n", b"Content-Type: text/html\n",
    b"Content-Transfer-Encoding: base64\n", b"List-Id: <l.example>\n",
    b"Received: from x by y\r\n", b"X-Spam: yes\n", b"DKIM-Signature: v=1;\n",
    b"\tcontinued\r\n", b" more\n", b"From ann@example.org Mon Jan 1\n", b":no name\n",
    b"not a header\n", b"\r", b"\r\n", b"\n", b"Subject:\xc3\xa9t\xe9\n", b"subject: second\n",
    b'Content-Disposition: attachment; filename="a.txt"\n', b"Auto-Submitted: auto-replied\n",
]
BODY_PIECES = [b"body line\n", b"--zz\r\nContent-Type: text/plain\r\n\r\nhi\r\n", b"--zz--\n",
               b"PGI+aGk8L2I+\n", b"From: inside the body\n", b"\r\n"]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(HEAD_PIECES), max_size=14),
       st.lists(st.sampled_from(BODY_PIECES), max_size=6))
def test_dropping_unread_headers_changes_no_parse(head: list[bytes], body: list[bytes]) -> None:
    raw = b"".join(head) + b"\r\n" + b"".join(body)
    assert parse_message(raw) == _parse_keeping_every_header(raw)


def test_dropping_unread_headers_changes_no_corpus_message() -> None:
    files = corpus_files()[::3]
    if not files:
        pytest.skip(f"the SpamAssassin corpus is not at {CORPUS}")
    dropped = single = 0
    for path in files:
        raw = path.read_bytes()
        for variant in (raw, raw.split(b"\n", 1)[1]):  # with and without the mbox envelope
            fast = _drop(variant)
            dropped += fast != variant
            single += fast != variant and not message_module._message_tree(variant).is_multipart()
            assert parse_message(variant) == _parse_keeping_every_header(variant), path
    assert dropped > len(files) / 2  # most real header blocks are plain
    assert single > len(files) / 2  # and most real mail is one part: the body set directly


def test_only_plain_header_blocks_are_filtered() -> None:
    drop = _drop
    assert drop(b"Received: a\r\n\tb\r\nSubject: s\r\nX-Y: z\r\n\r\nbody\r\nReceived: c\r\n") \
        == b"Subject: s\r\n\r\nbody\r\nReceived: c\r\n"
    assert drop(b"From a@b Mon\nX-Y: z\nTo: c@d\n\nbody") == b"From a@b Mon\nTo: c@d\n\nbody"
    for untouched in (b"X: y\nFrom a@b Mon\nX-Y: z\n\nbody", b"From a@b\n\tX: y\n\nb",
                      b"From a@b Mon\n\nbody", b"\tX: y\nX-Y: z\n\nb",
                      b"X-Y: z\rSubject: s\n\nb", b"X-Y: z\nnot a header\n\nb", b"X-Y: z\n"):
        assert drop(untouched) == untouched


def test_reading_a_header_the_parser_may_drop_is_a_loud_error() -> None:
    with pytest.raises(ValueError, match="_READ_HEADERS"):
        message_module._raw_header({}, "X-Not-Read")
