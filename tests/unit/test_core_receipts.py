"""Receipts (S8): a receipt binds one floor action to its exact canonical payload."""

from __future__ import annotations

import copy
import unicodedata
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mailmoat.core.receipts import (
    SCHEMA_VERSION,
    ActionMismatch,
    PayloadError,
    PayloadMismatch,
    Receipt,
    ReceiptForged,
    ReceiptUnverifiable,
    SchemaMismatch,
    canonical_payload,
    mint,
    payload_hash,
    sign,
    verify,
    verify_mac,
)

WHEN = "2026-12-03T09:00:00+00:00"
# The server identity of one message: folder, UIDVALIDITY, UID and the sha256 of its bytes.
ONE_MESSAGE: dict[str, Any] = {"folder": "INBOX", "uidvalidity": 1700000000, "uid": 42,
                               "sha256": "ab" * 32}


def send(**over: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "action": "send_email",
        "account": "me@example.org",
        "to": "ana@example.com",
        "subject": "Re: lunch",
        "body": "Noon works.\n-- me",
        "in_reply_to": "<a1@example.com>",
        "references": ["<a0@example.com>", "<a1@example.com>"],
        "attachments": [{"filename": "menu.pdf", "content_type": "application/pdf",
                         "sha256": "ab" * 32}],
    }
    return {**base, **over}


def forward(**over: Any) -> dict[str, Any]:
    base = {"action": "forward_external", "account": "me@example.org",
            "to": "ana@example.com", "message_id": "<m1@example.org>", "note": "fyi",
            **ONE_MESSAGE}
    return {**base, **over}


def delete(**over: Any) -> dict[str, Any]:
    base = {"action": "delete_permanent", "account": "me@example.org",
            "message_id": "<m1@example.org>", **ONE_MESSAGE}
    return {**base, **over}


def test_a_minted_receipt_verifies_its_own_payload() -> None:
    for payload in (send(), forward(), delete()):
        receipt = mint(payload, "me", WHEN)
        verify(receipt, copy.deepcopy(payload))
        assert receipt.payload_sha256 == payload_hash(payload)
        assert receipt.schema == SCHEMA_VERSION


# Every field of every action, and a value different from the base for it.
MUTATIONS: list[tuple[dict[str, Any], str, Any]] = [
    (send(), "account", "you@example.org"),
    (send(), "to", "ana@example.co"),
    (send(), "subject", "Re: lunch?"),
    (send(), "body", "Noon works.\n-- me."),
    (send(), "in_reply_to", "<a2@example.com>"),
    (send(), "references", ["<a0@example.com>"]),
    (send(), "attachments", []),
    (send(), "attachments", [{"filename": "menu.pdf", "content_type": "application/pdf",
                              "sha256": "cd" * 32}]),
    (forward(), "to", "bob@example.com"),
    (forward(), "message_id", "<m2@example.org>"),
    (forward(), "note", "fyi!"),
    (forward(), "uid", 43),
    (forward(), "sha256", "cd" * 32),
    (delete(), "message_id", "<m2@example.org>"),
    (delete(), "folder", "Archive"),
    (delete(), "account", "other@example.org"),
    (delete(), "uidvalidity", 1700000001),
    (delete(), "uid", 41),
    (delete(), "sha256", "cd" * 32),
]


@pytest.mark.parametrize(("payload", "field", "value"), MUTATIONS)
def test_changing_any_field_breaks_the_receipt(payload: dict[str, Any], field: str,
                                               value: Any) -> None:
    receipt = mint(payload, "me", WHEN)
    with pytest.raises(PayloadMismatch):
        verify(receipt, {**payload, field: value})


@settings(max_examples=200, deadline=None)
@given(field=st.sampled_from(["subject", "body", "account"]), text=st.text(max_size=40))
def test_any_text_change_changes_the_hash(field: str, text: str) -> None:
    payload = send()
    try:
        changed_hash = payload_hash({**payload, field: text})
    except PayloadError:
        return  # a line break in a header field: rejected, never hashed

    def norm(value: str) -> str:  # the documented normalisation: NFC, subject trimmed
        value = unicodedata.normalize("NFC", value)
        return value.strip() if field == "subject" else value

    assert (changed_hash == payload_hash(payload)) == (norm(text) == norm(payload[field]))


@given(st.sampled_from(["ANA@EXAMPLE.COM", "  ana@example.com\t", "Ana@Example.Com "]))
def test_recipient_case_and_surrounding_whitespace_do_not_matter(to: str) -> None:
    receipt = mint(send(), "me", WHEN)
    verify(receipt, send(to=to))


def test_nfc_and_nfd_bodies_hash_the_same() -> None:
    nfc = unicodedata.normalize("NFC", "Café à midi, déjà vu")
    nfd = unicodedata.normalize("NFD", nfc)
    assert nfc != nfd
    verify(mint(send(body=nfc), "me", WHEN), send(body=nfd))


def test_idna_domains_are_normalised() -> None:
    assert canonical_payload(send(to="ana@bücher.example"))["to"] == "ana@xn--bcher-kva.example"
    verify(mint(send(to="ana@bücher.example"), "me", WHEN), send(to="ana@xn--bcher-kva.example"))


@pytest.mark.parametrize(
    ("first", "second"),
    [(send, forward), (forward, delete), (delete, send), (forward, send)],
)
def test_a_receipt_for_one_action_never_verifies_another(first: Any, second: Any) -> None:
    receipt = mint(first(), "me", WHEN)
    with pytest.raises(ActionMismatch):
        verify(receipt, second())


def test_a_stale_schema_version_fails() -> None:
    receipt = mint(send(), "me", WHEN)
    old = Receipt(SCHEMA_VERSION - 1, receipt.action, receipt.payload_sha256, "me", WHEN)
    with pytest.raises(SchemaMismatch):
        verify(old, send())
    with pytest.raises(SchemaMismatch):
        verify(receipt, send(schema=SCHEMA_VERSION + 1))


@pytest.mark.parametrize("field", ["to", "subject", "in_reply_to"])
@pytest.mark.parametrize("brk", ["\r", "\n", "\r\n", "\u2028", "\x85", "\x00"])
def test_line_breaks_in_header_fields_are_rejected(field: str, brk: str) -> None:
    value = f"ana@example.com{brk}bcc: evil@example.net" if field == "to" else f"x{brk}Bcc: y"
    with pytest.raises(PayloadError):
        mint(send(**{field: value}), "me", WHEN)


def test_line_breaks_in_the_body_are_fine() -> None:
    verify(mint(send(body="one\r\ntwo\n"), "me", WHEN), send(body="one\r\ntwo\n"))


@pytest.mark.parametrize("to", [
    "ana@example.com, eve@example.net", "ana@example.com;eve@example.net",
    "Ana <ana@example.com>", "ana@example.com eve@example.net", "ana", "a@b@example.com",
    "", ["ana@example.com"],
])
def test_exactly_one_bare_recipient(to: Any) -> None:
    with pytest.raises(PayloadError):
        mint(send(to=to), "me", WHEN)


def test_unknown_fields_and_actions_are_rejected() -> None:
    with pytest.raises(PayloadError):
        mint(send(bcc="eve@example.net"), "me", WHEN)
    with pytest.raises(PayloadError):
        mint({**send(), "action": "archive"}, "me", WHEN)
    with pytest.raises(PayloadError):
        mint(send(), "   ", WHEN)


def test_a_tampered_stored_hash_is_a_mismatch_not_a_crash() -> None:
    receipt = mint(send(), "me", WHEN)
    forged = Receipt(receipt.schema, receipt.action, "é" * 64, "me", WHEN)
    with pytest.raises(PayloadMismatch):
        verify(forged, send())


@pytest.mark.parametrize("make", [forward, delete])
@pytest.mark.parametrize(("field", "value"), [
    ("folder", ""), ("uidvalidity", 0), ("uid", None), ("uid", True), ("uid", "42"),
    ("uid", 2**32), ("sha256", ""), ("sha256", "AB" * 32), ("sha256", "ab" * 31),
])
def test_a_forward_or_delete_must_name_exactly_one_message(make: Any, field: str,
                                                           value: Any) -> None:
    """A Message-ID alone names nothing (SEARCH HEADER matches substrings; ids are copied):
    without folder, UIDVALIDITY, UID and the bytes' hash there is no payload to approve."""
    with pytest.raises(PayloadError):
        mint(make(**{field: value}), "me", WHEN)
    bare = {k: v for k, v in make().items() if k not in ONE_MESSAGE}
    with pytest.raises(PayloadError):
        mint(bare, "me", WHEN)


KEY, OTHER_KEY = b"k" * 32, b"o" * 32


def _signed(action_id: int = 7, approver: str = "me") -> Receipt:
    return sign(mint(send(), approver, WHEN), action_id, KEY, "kid1")


def test_a_signed_receipt_verifies_only_with_its_key_action_and_fields() -> None:
    receipt = _signed()
    verify_mac(receipt, 7, {"kid1": KEY})
    with pytest.raises(ReceiptForged):
        verify_mac(receipt, 8, {"kid1": KEY})  # another action
    with pytest.raises(ReceiptForged):
        verify_mac(receipt, 7, {"kid1": OTHER_KEY})  # another key under the same id
    with pytest.raises(ReceiptUnverifiable):
        verify_mac(receipt, 7, {"kid2": KEY})  # a key not in the ring
    for field, value in [("payload_sha256", payload_hash(send(subject="Re: x"))),
                         ("approved_by", "auto:work"), ("approved_at", WHEN[:-1] + "1"),
                         ("action", "forward_external"), ("schema", 2), ("action_id", 8)]:
        forged = Receipt(**{**receipt.as_dict(), field: value})
        with pytest.raises(ReceiptForged):
            verify_mac(forged, forged.action_id, {"kid1": KEY})


def test_a_receipt_without_a_mac_is_unverifiable_not_trusted() -> None:
    plain = mint(send(), "me", WHEN)  # what receipts were before they were MACs
    with pytest.raises(ReceiptUnverifiable):
        verify_mac(plain, 7, {"kid1": KEY})
    old_row = {k: v for k, v in _signed().as_dict().items()
               if k not in ("action_id", "key_id", "mac")}
    with pytest.raises(ReceiptUnverifiable):
        verify_mac(Receipt(**old_row), 7, {"kid1": KEY})


@settings(max_examples=100, deadline=None)
@given(st.text(min_size=1, max_size=64))
def test_no_guessed_mac_verifies(mac: str) -> None:
    forged = Receipt(**{**_signed().as_dict(), "mac": mac})
    with pytest.raises(ReceiptForged):
        verify_mac(forged, 7, {"kid1": KEY})
