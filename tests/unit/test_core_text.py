"""The text helpers are on every message's path, so they are written for speed; these
tests hold each fast form to the plain definition it replaces."""

from __future__ import annotations

import html
import re

import nh3
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mailmoat.core.message import message_from_fields
from mailmoat.core.signals import detect_signals
from mailmoat.core.text import (
    _BLOCK_TAG,
    _HIDDEN_CONTENT,
    html_to_text,
    normalize_space,
    strip_invisible,
)
from mailmoat.judge.cascade import classify

# Every kind of whitespace and line break Python knows, beside a few letters and markup.
WHITESPACE = [" ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f", "\x85",
              "\xa0", "\u1680", "\u2003", "\u2028", "\u2029", "\u202f", "\u3000"]
INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u034f", "\u180e"]
TEXT = st.lists(st.sampled_from([*WHITESPACE, *INVISIBLE, "a", "b", "&amp;", "<", ">"]),
                max_size=200).map("".join)


@given(TEXT)
def test_normalize_space_collapses_every_whitespace_run_like_the_regex(text: str) -> None:
    assert normalize_space(text) == re.sub(r"\s+", " ", text).strip()


@given(TEXT)
def test_strip_invisible_removes_exactly_the_invisible_characters(text: str) -> None:
    assert strip_invisible(text) == "".join(c for c in text if c not in INVISIBLE)


@given(st.lists(TEXT, max_size=5))
def test_html_to_text_splits_lines_like_splitlines_after_collapsing_spaces(
        lines: list[str]) -> None:
    markup = "<br>".join(lines)
    # The plain definition: collapse all whitespace but "\n", split at every line break
    # `splitlines` knows, strip each line, drop blank ones.
    stripped = html.unescape(nh3.clean(_BLOCK_TAG.sub("\n", markup), tags=set(),
                                       clean_content_tags=set(_HIDDEN_CONTENT)))
    collapsed = re.sub(r"[^\S\n]+", " ", stripped)
    expected = "\n".join(line.strip() for line in collapsed.splitlines() if line.strip())
    assert html_to_text(markup) == expected


def test_a_message_given_as_fields_with_lone_surrogates_is_read_not_refused() -> None:
    # JSON input can carry "\ud800"; hashing and the RE2 searches need valid text.
    message = message_from_fields(sender="Ann <ann@example.com>", subject="urgent \ud800",
                                  body="please review \udcff today")
    assert "\ud800" not in message.subject and "\udcff" not in message.body_text
    assert detect_signals(message).action_requested
    assert classify(message).decision.lane is not None


def test_signals_read_text_with_lone_surrogates_around_the_words() -> None:
    # A Message built by other code may still carry them; the RE2 searches must not fail.
    from mailmoat.core.local_scorer import score_local
    from mailmoat.core.message import Message

    message = Message(subject="\ud800 can you review this asap", body_text="\udcff today \ud800")
    signals = detect_signals(message)
    assert signals.action_requested and signals.urgent_wording
    assert score_local(message, signals).features.urgency > 0.5


@pytest.mark.parametrize("body", [
    "Please also confirm whether you are filing a report.",
    "Please kindly send the signed letter.",
    "Please just check the meter reading.",
])
def test_a_request_with_a_word_between_please_and_the_verb_is_a_request(body: str) -> None:
    message = message_from_fields(sender="Laetitia <l.chan@indigo-bank.net>", subject="Hold",
                                  body=body)
    assert detect_signals(message).action_requested
