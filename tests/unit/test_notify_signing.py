"""Signed one-tap links: bound to action, account and message; forged or expired fail."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mailmoat.notify.signing import BadLink, LinkClaim, sign_link, verify_link

KEY = b"k" * 32
NOW = datetime(2026, 12, 3, 12, tzinfo=UTC)
CLAIM = LinkClaim("mute", "local", 42, int(NOW.timestamp()) + 3600)


def test_round_trip() -> None:
    assert verify_link(KEY, sign_link(KEY, CLAIM), NOW) == CLAIM


def test_expired_wrong_key_and_unknown_action_fail() -> None:
    token = sign_link(KEY, CLAIM)
    with pytest.raises(BadLink, match="expired"):
        verify_link(KEY, token, datetime(2026, 12, 3, 13, 0, 1, tzinfo=UTC))
    with pytest.raises(BadLink, match="signature"):
        verify_link(b"x" * 32, token, NOW)
    with pytest.raises(ValueError):
        sign_link(KEY, LinkClaim("delete", "local", 1, CLAIM.expires))
    for junk in ("", ".", "abc", "a.b.c", "!!!.???"):
        with pytest.raises(BadLink):
            verify_link(KEY, junk, NOW)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_any_change_to_a_token_is_refused(data: st.DataObject) -> None:
    token = sign_link(KEY, CLAIM)
    index = data.draw(st.integers(0, len(token) - 1))
    replacement = data.draw(st.sampled_from("ABCDEFabcdef0123456789-_.").filter(
        lambda c: c != token[index]))
    forged = token[:index] + replacement + token[index + 1:]
    try:
        claim = verify_link(KEY, forged, NOW)
    except BadLink:
        return
    # base64 padding bits can change without changing the decoded bytes: same claim only.
    assert claim == CLAIM


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["later", "mute"]), st.text(max_size=40), st.integers(0, 2**40))
def test_claims_survive_any_account_name(action: str, account: str, mid: int) -> None:
    claim = LinkClaim(action, account, mid, CLAIM.expires)
    assert verify_link(KEY, sign_link(KEY, claim), NOW) == claim
