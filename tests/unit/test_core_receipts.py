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
    SchemaMismatch,
    canonical_payload,
    mint,
    payload_hash,
    verify,
)

WHEN = "2026-12-03T09:00:00+00:00"


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
            "to": "ana@example.com", "message_id": "<m1@example.org>", "note": "fyi"}
    return {**base, **over}


def delete(**over: Any) -> dict[str, Any]:
    base = {"action": "delete_permanent", "account": "me@example.org",
            "message_id": "<m1@example.org>", "folder": "INBOX"}
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
    (delete(), "message_id", "<m2@example.org>"),
    (delete(), "folder", "Archive"),
    (delete(), "account", "other@example.org"),
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
