"""Fuzz the parser, the wrapper and the policy with hypothesis, for longer than CI does.

CI runs the same properties with a few hundred examples each (tests/test_core_*.py); this
runs many more and prints executions and findings per target. A finding is printed with the
shrunk input that triggers it; the exit code is 1 when there is any.

Run: .venv/bin/python bench/fuzz.py [--examples 20000]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mailmoat.core.features import FEATURE_NAMES, Features, InvalidFeatures
from mailmoat.core.lanes import HIDDEN_LANES
from mailmoat.core.message import parse_message
from mailmoat.core.policy import Facts, decide
from mailmoat.core.signals import Signals
from mailmoat.core.untrusted import strip_wrapper_tags, wrap_untrusted

MIME_LINES = st.sampled_from([
    b"From: a@example.com", b"Subject: =?utf-8?B?w6k=?=", b"Content-Type: multipart/mixed; "
    b"boundary=b", b"--b", b"--b--", b"Content-Transfer-Encoding: base64",
    b"Content-Type: text/html; charset=bogus", b"Content-Type: message/rfc822", b"", b"\xff",
])
TAG_PIECES = st.sampled_from(["<", ">", "/", "&", "lt;", "gt;", "untrusted", "content", "_",
                              "\u200b", "＜", "＞", " ", "x", "</untrusted_content>"])


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
    "wrapper": (_wrapper, (st.lists(TAG_PIECES, max_size=40),)),
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
