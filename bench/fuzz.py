"""Fuzz the parser (MIME parameters, big-part elision, recipients), the wrapper (tags and
chat-template tokens), recipient normalisation and the policy with hypothesis, for longer
than CI does.

CI runs the same properties with a few hundred examples each (tests/test_core_*.py); this
runs many more and prints executions and findings per target. A finding is printed with the
shrunk input that triggers it; the exit code is 1 when there is any.

Run: .venv/bin/python bench/fuzz.py [--examples 20000]
"""

from __future__ import annotations

import argparse
import contextlib
import email
import re
import time
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mailmoat.core.message as core_message
from mailmoat.core.features import FEATURE_NAMES, Features, InvalidFeatures
from mailmoat.core.lanes import HIDDEN_LANES
from mailmoat.core.message import _POLICY, header_cap, parse_message
from mailmoat.core.policy import Facts, decide
from mailmoat.core.receipts import PayloadError, normalize_recipient
from mailmoat.core.recipients import check_recipient
from mailmoat.core.signals import Signals
from mailmoat.core.untrusted import defang, strip_wrapper_tags, wrap_untrusted

MIME_LINES = st.sampled_from([
    b"From: a@example.com", b"Subject: =?utf-8?B?w6k=?=", b"Content-Type: multipart/mixed; "
    b"boundary=b", b"--b", b"--b--", b"Content-Transfer-Encoding: base64",
    b"Content-Type: text/html; charset=bogus", b"Content-Type: message/rfc822", b"", b"\xff",
])
TAG_PIECES = st.sampled_from(["<", ">", "/", "&", "lt;", "gt;", "untrusted", "content", "_",
                              "\u200b", "＜", "＞", " ", "x", "</untrusted_content>"])


PARAM = st.one_of(
    st.sampled_from([
        "charset=utf-8", "charset=\"bogus\"", "boundary=b", "boundary=\"b\"", "name=a.pdf",
        "filename*=UTF-8''%e2%82%ac.txt", "filename*0*=UTF-8''a", "filename*1*=%20b",
        "filename*0=\"x\"", "filename*1=\"y\"", "name=\"=?utf-8?B?w6k=?=\"", "=", "a=",
        "=b", "\"unterminated", "a=\"b;c\"", "x*=''", "x*=utf-8'en'%ZZ", "(comment)",
        "\\", "format=flowed", "delsp=yes", "q=\"\\\"\"",
    ]),
    st.from_regex(r"[a-z*0-9]{1,8}=[ -~]{0,20}", fullmatch=True),
)
PARAMS = st.tuples(st.lists(PARAM, max_size=30), st.integers(0, 3000))
CTYPES = st.sampled_from(["text/plain", "text/html", "multipart/mixed", "application/pdf",
                          "message/rfc822", "text/calendar", "bogus", ""])


def _mime_params(top: tuple[list[str], int], part: tuple[list[str], int], ctype: str,
                 disposition: tuple[list[str], int]) -> None:
    """Hostile parameter lists (RFC 2231 pieces, quoting, thousands of ";") on the top and
    a part's Content-Type and Content-Disposition: the parse never raises, no header the
    stdlib can read is longer than its cap, and the text part is still found."""
    def plist(spec: tuple[list[str], int]) -> str:
        params, repeat = spec
        return "".join(f"; {p}" for p in params) + "; x=y" * repeat

    raw = (f"From: a@b.example\r\nSubject: p\r\nMIME-Version: 1.0\r\n"
           f"Content-Type: multipart/mixed; boundary=zz{plist(top)}\r\n\r\n"
           f"--zz\r\nContent-Type: text/plain{plist(part)}\r\n\r\nhello\r\n"
           f"--zz\r\nContent-Type: {ctype}{plist(part)}\r\n"
           f"Content-Disposition: attachment{plist(disposition)}\r\n\r\nZZZZ\r\n"
           f"--zz--\r\n").encode("utf-8", "surrogateescape")
    message = parse_message(raw)
    for part_ in email.message_from_bytes(raw, policy=_POLICY).walk():
        for name, value in part_.raw_items():
            assert len(value) <= header_cap(name), (name, len(value))
    # A parameter list that does not redefine the boundary leaves the text part readable
    # (RFC 2231 pieces included: a mix the stdlib cannot decode is dropped, not fatal).
    if not any(p.startswith(("boundary", "\"", "(", "\\", "=", "a=\"b", "q=", "x*"))
               for p in top[0]):
        assert "hello" in message.body_text, (top[0], message)


def _elision(lines: list[bytes], boundary_every: int) -> None:
    """With tiny thresholds, eliding the tails of long MIME stretches changes no header a
    decision reads and no attachment name, whatever the message."""
    body = b"".join(line + (b"\r\n--b\r\n" if i % boundary_every == 0 else b"\r\n")
                    for i, line in enumerate(lines))
    raw = (b"From: A <a@b.example>\r\nTo: c@d.example\r\nSubject: s\r\n"
           b"Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n" + body + b"--b--\r\n")
    saved = (core_message.ELIDE_ABOVE, core_message.KEEP_REGION, core_message.KEEP_TOTAL,
             core_message.KEEP_SMALL)
    whole = parse_message(raw)
    try:
        (core_message.ELIDE_ABOVE, core_message.KEEP_REGION, core_message.KEEP_TOTAL,
         core_message.KEEP_SMALL) = (64, 48, 256, 16)
        cut = parse_message(raw)
    finally:
        (core_message.ELIDE_ABOVE, core_message.KEEP_REGION, core_message.KEEP_TOTAL,
         core_message.KEEP_SMALL) = saved
    assert (cut.from_addr, cut.to, cut.subject) == (whole.from_addr, whole.to, whole.subject)
    assert {a.filename for a in cut.attachments} <= {a.filename for a in whole.attachments} | {
        "(unnamed)", "(inline)"}


ADDRESS_PIECES = st.sampled_from([
    "ana", "@", "faß", ".example", "ς", "\u200d", "\u200c", "xn--", "-", ".", "ＡＢ", "ı",
    "Ана", "é", "e\u0301", " ", ",", "<", ">", "\"", "\r", "\n", "=?utf-8?q?a?=", "\u202e",
    "example.com", "a..b", "@@", "\x00", "١", "ｅｘａｍｐｌｅ", "com",
])


def _recipients(pieces: list[str], name: str) -> None:
    """One recipient in any spelling: refused with PayloadError or normalised to one address
    with an ASCII (IDNA) domain, idempotently; the approval view's flags never raise
    anything else. (A non-ASCII local part is SMTPUTF8's business, not normalisation's.)"""
    text = "".join(pieces)
    try:
        address = normalize_recipient(text)
    except PayloadError:
        return
    assert address.count("@") == 1 and address.rpartition("@")[2].isascii(), repr(address)
    assert not re.search(r"[\s,;<>\"()\x00-\x1f]", address), repr(address)
    assert address == address.lower() and normalize_recipient(address) == address
    with contextlib.suppress(PayloadError):
        check_recipient(text, name, frozenset({"example.com", "lawfirm.example"}))


def _header_recipients(pieces: list[str]) -> None:
    """Recipients read from a To/Cc header: at most 100, each with an "@", none with a line
    break or a comma (an address is never two)."""
    value = ", ".join("".join(pieces[i:i + 4]) for i in range(0, len(pieces), 4))
    raw = f"From: a@b.example\r\nTo: {value}\r\nCc: {value}\r\n\r\nx\r\n".encode(
        "utf-8", "surrogatepass")
    message = parse_message(raw)
    for address in (*message.to, *message.cc):
        assert "@" in address and not set(address) & {"\r", "\n"}, repr(address)
    assert len(message.to) <= 100


TOKEN_PIECES = st.sampled_from(["<", "|", ">", "im_start", "im_end", "eot_id", "｜", "[INST]",
                                "[", "]", "/", "INST", "<s>", "start_of_turn", "<<", "SYS",
                                ">>", "\u200b", "&lt;", "а", " ", "x", "system", "end"])


def _tokens(pieces: list[str]) -> None:
    """Nothing that reads as a chat-template token or a wrapper tag survives defanging:
    defanging the result again changes nothing."""
    text = "".join(pieces)
    once = defang(text)
    assert defang(once) == once, (text, once)


def _parser(raw: bytes) -> None:
    parse_message(raw)


def _mime(lines: list[bytes]) -> None:
    parse_message(b"\r\n".join(lines))


def _wrapper(pieces: list[str]) -> None:
    text = "".join(pieces)
    wrapped = wrap_untrusted(text, "body")
    inner = wrapped.split("\n", 1)[1].rsplit("\n", 1)[0]
    # Nothing left that reads as a tag: stripping again changes nothing.
    assert strip_wrapper_tags(inner) == inner, repr(text)


def _policy(raw: dict[str, float], s: tuple[bool, ...], replies: int) -> None:
    try:
        f = Features.from_raw(raw)
    except InvalidFeatures:
        return
    signals = Signals(*s)
    d = decide(f, signals, Facts(replies_sent=replies))
    if f.confidence < 0.5:
        assert d.lane not in HIDDEN_LANES
    if f.urgency >= 0.7 and f.confidence >= 0.5:
        assert d.lane not in HIDDEN_LANES


FEATURE_DICT = st.fixed_dictionaries({n: st.floats(allow_nan=True) for n in FEATURE_NAMES})
TARGETS: dict[str, tuple[Callable[..., None], tuple[st.SearchStrategy, ...]]] = {
    "parser (random bytes)": (_parser, (st.binary(max_size=8000),)),
    "parser (MIME-shaped)": (_mime, (st.lists(MIME_LINES, max_size=40),)),
    "parser (MIME parameters)": (_mime_params, (PARAMS, PARAMS, CTYPES, PARAMS)),
    "parser (big-part elision)": (_elision, (st.lists(st.sampled_from([
        b"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", b"Content-Type: text/plain",
        b"Content-Disposition: attachment; filename=f.bin", b"", b"--b",
        b"Content-Transfer-Encoding: base64", b"hello world", b"~~!#~~"]), max_size=60),
        st.integers(1, 12))),
    "recipients (one address)": (_recipients, (st.lists(ADDRESS_PIECES, max_size=12),
                                               st.text(max_size=30))),
    "recipients (To/Cc headers)": (_header_recipients,
                                   (st.lists(ADDRESS_PIECES, max_size=40),)),
    "wrapper": (_wrapper, (st.lists(TAG_PIECES, max_size=40),)),
    "wrapper (chat-template tokens)": (_tokens, (st.lists(TOKEN_PIECES, max_size=40),)),
    "policy": (_policy, (FEATURE_DICT, st.tuples(*[st.booleans()] * 9),
                         st.integers(0, 5))),
}


def _counting(target: Callable[..., None], runs: list[int]) -> Callable[[tuple], None]:
    def run(values: tuple) -> None:  # type: ignore[type-arg]
        runs[0] += 1
        target(*values)

    return run


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--examples", type=int, default=20_000)
    args = parser.parse_args()
    findings = 0
    for name, (target, strategies) in TARGETS.items():
        runs = [0]
        test = settings(max_examples=args.examples, deadline=None, database=None,
                        suppress_health_check=list(HealthCheck))(
            given(st.tuples(*strategies))(_counting(target, runs)))
        start = time.perf_counter()
        try:
            test()
            result = "no findings"
        except Exception as exc:  # a property failed: that is a finding, keep going
            findings += 1
            result = f"FINDING: {type(exc).__name__}: {str(exc)[:300]}"
        print(f"{name}: {runs[0]:,} executions in {time.perf_counter() - start:.1f}s — {result}")
    raise SystemExit(1 if findings else 0)


if __name__ == "__main__":
    main()
