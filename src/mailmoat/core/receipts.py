"""Receipts: a human approval bound to the exact bytes of one irreversible action.

The canonical payload of each floor action (schema version 1):

  send_email        {schema, action, account, to, subject, body, in_reply_to, references,
                     attachments: [{filename, content_type, sha256}]}
  forward_external  {schema, action, account, to, note,
                     folder, uidvalidity, uid, sha256, message_id}
  delete_permanent  {schema, action, account, folder, uidvalidity, uid, sha256, message_id}
  calendar_invite   {schema, action, account, calendar, operation, uid, ics}

A forward or a permanent delete names exactly one message on the server: its folder, the
folder's UIDVALIDITY and the message's UID, plus the sha256 of the message's bytes. The
executor re-reads that one UID and refuses unless the bytes still hash to `sha256`; the
Message-ID is only there for the person to read (Message-IDs are not unique and IMAP's
SEARCH HEADER matches substrings, so nothing is ever looked up by it).

One reversible action is bound the same way: `calendar_event` (an event only in the user's
own calendar) runs through the executor's exactly-once outbox, so its approval also carries a
receipt over its exact bytes (same fields as calendar_invite). `operation` is "put" (create
or replace the object with that UID) or "delete".

Normalisation before hashing: every string NFC; `to` trimmed, lower-cased and exactly one
address (`local@domain`, the domain encoded with IDNA2008 / UTS #46 non-transitional);
subject and note trimmed of surrounding whitespace; CR or LF (or any other line break
Python splits on, or NUL) in any header-bound field (to, subject, message ids, references,
attachment names) is an error, not something to clean up. The receipt's hash is sha256
over the canonical JSON of that payload.

A receipt is a MAC, not just a hash: HMAC-SHA256 over the action id, the payload hash, the
action type, the schema, the approver and the approval time, keyed with a key derived from
the key ring that seals account secrets (kept outside the database). Anyone who can rewrite
the database can recompute a payload hash, but not the MAC; the executor checks it before
anything runs. The key itself is passed in: core holds no keys and reads no files.
"""

from __future__ import annotations

import hashlib
import hmac
import unicodedata
from dataclasses import dataclass
from typing import Any

import idna

from mailmoat.core.hashing import canonical_json

SCHEMA_VERSION = 1
# The purpose of the key-ring subkey that makes receipt MACs.
RECEIPT_KEY_PURPOSE = "receipt-mac"


class FloorAction:
    SEND_EMAIL = "send_email"
    DELETE_PERMANENT = "delete_permanent"
    FORWARD_EXTERNAL = "forward_external"
    CALENDAR_INVITE = "calendar_invite"  # an event that invites other people


FLOOR_ACTIONS: frozenset[str] = frozenset(
    {FloorAction.SEND_EMAIL, FloorAction.DELETE_PERMANENT, FloorAction.FORWARD_EXTERNAL,
     FloorAction.CALENDAR_INVITE}
)
CALENDAR_EVENT = "calendar_event"  # reversible: the user's own calendar only
CALENDAR_ACTIONS: frozenset[str] = frozenset({FloorAction.CALENDAR_INVITE, CALENDAR_EVENT})
# Actions whose approval is bound to exact bytes by a receipt: the floor, plus calendar_event.
BOUND_ACTIONS: frozenset[str] = FLOOR_ACTIONS | {CALENDAR_EVENT}
CALENDAR_OPERATIONS = frozenset({"put", "delete"})
MAX_ICS_BYTES = 1_000_000

_FIELDS: dict[str, tuple[str, ...]] = {
    FloorAction.SEND_EMAIL: (
        "account", "to", "subject", "body", "in_reply_to", "references", "attachments",
    ),
    FloorAction.FORWARD_EXTERNAL: (
        "account", "to", "note", "folder", "uidvalidity", "uid", "sha256", "message_id",
    ),
    FloorAction.DELETE_PERMANENT: (
        "account", "folder", "uidvalidity", "uid", "sha256", "message_id",
    ),
    FloorAction.CALENDAR_INVITE: ("account", "calendar", "operation", "uid", "ics"),
    CALENDAR_EVENT: ("account", "calendar", "operation", "uid", "ics"),
}
# The server identity of the one message a forward or delete acts on.
IDENTITY_FIELDS: tuple[str, ...] = ("folder", "uidvalidity", "uid", "sha256")
_HEX = frozenset("0123456789abcdef")
_HEADER_FIELDS = frozenset(
    {"to", "subject", "in_reply_to", "references", "message_id", "folder", "account",
     "filename", "content_type", "calendar", "operation", "uid"}
)
# CR and LF, plus the other breaks `str.splitlines` (and so the email package) honours.
_LINE_BREAKS = frozenset("\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029\x00")


class ReceiptError(Exception):
    """Base class: the action must not run."""


class PayloadError(ReceiptError):
    """The payload itself is malformed (unknown action, missing field, CR/LF, bad address)."""


class SchemaMismatch(ReceiptError):
    """The receipt was minted under another payload schema version."""


class ActionMismatch(ReceiptError):
    """The receipt approves a different action type."""


class PayloadMismatch(ReceiptError):
    """The bytes about to run are not the bytes that were approved."""


class ReceiptForged(ReceiptError):
    """The receipt's MAC does not verify: it was not minted by an approval with our key."""


class ReceiptUnverifiable(ReceiptError):
    """The receipt carries no MAC, or one made with a key that is not in the ring (a receipt
    from before receipts were MACs, or a rotated-out key): a person must approve again."""


def normalize_recipient(value: str) -> str:
    """One address, NFC, trimmed, lower-cased, IDNA domain. Raises PayloadError otherwise."""
    if not isinstance(value, str):
        raise PayloadError("recipient must be exactly one address as a string")
    text = unicodedata.normalize("NFC", value).strip()
    if _LINE_BREAKS.intersection(text):
        raise PayloadError("recipient contains CR or LF")
    if (
        any(ch in ",;<>\"()" or ch.isspace() or unicodedata.category(ch) == "Cc" for ch in text)
        or text.count("@") != 1
    ):
        raise PayloadError("recipient must be exactly one bare address")
    local, _, domain = text.partition("@")
    if not local or not domain or domain.startswith(".") or ".." in domain:
        raise PayloadError("recipient is not an address")
    return f"{local}@{ascii_domain(domain)}".lower()


def ascii_domain(domain: str) -> str:
    """The domain as it goes on the wire: IDNA2008 with UTS #46 non-transitional processing
    (`faß` stays `faß`, `xn--fa-hia`, never IDNA2003's `fass`; `ς` stays `ς`). A name that
    cannot be encoded (a joiner out of context, a disallowed code point, an `xn--` label
    that does not decode) is refused, never rewritten."""
    if domain.isascii():
        folded = domain.lower()
        for label in folded.split("."):
            if not label or len(label) > 63 or label[0] == "-" or label[-1] == "-":
                raise PayloadError("recipient domain is not a valid name: empty, too long or "
                                   "hyphen-edged label")
        if not any(label.startswith("xn--") for label in folded.split(".")):
            return folded
        try:  # an ACE label must be a valid IDNA2008 name, not arbitrary punycode
            idna.decode(folded)
        except (idna.IDNAError, UnicodeError) as exc:
            raise PayloadError(f"recipient domain is not a valid IDNA name: {exc}") from exc
        return folded
    try:
        return idna.encode(domain, uts46=True, transitional=False).decode("ascii")
    except (idna.IDNAError, UnicodeError) as exc:
        raise PayloadError(f"recipient domain cannot be encoded (IDNA2008): {exc}") from exc


def unicode_domain(domain: str) -> str:
    """The Unicode form of an encoded domain, for people to read; as given if it does not
    decode."""
    try:
        return str(idna.decode(domain))
    except (idna.IDNAError, UnicodeError):
        return domain


def _clean(name: str, value: Any) -> Any:
    if isinstance(value, str):
        text = unicodedata.normalize("NFC", value)
        if name in _HEADER_FIELDS and _LINE_BREAKS.intersection(text):
            raise PayloadError(f"{name} contains CR or LF")
        return text.strip() if name in {"subject", "note"} else text
    if isinstance(value, list | tuple):
        return [_clean(name, v) for v in value]
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            raise PayloadError(f"{name} has a non-string key")
        return {k: _clean(k, v) for k, v in sorted(value.items())}
    return value


def canonical_payload(payload: dict[str, Any]) -> dict[str, Any]:
    """Validate and normalise a floor-action payload into its canonical dict."""
    if not isinstance(payload, dict):
        raise PayloadError(f"payload must be a dict, got {type(payload).__name__}")
    action = payload.get("action")
    if not isinstance(action, str) or action not in BOUND_ACTIONS:
        raise PayloadError(f"not a floor action: {action!r}")
    fields = _FIELDS[action]
    unknown = set(payload) - set(fields) - {"action", "schema"}
    if unknown:
        raise PayloadError(f"unknown field(s) for {action}: {', '.join(sorted(unknown))}")
    schema = payload.get("schema", SCHEMA_VERSION)
    if isinstance(schema, bool) or not isinstance(schema, int):
        raise PayloadError(f"schema must be an integer version, got {type(schema).__name__}")
    out: dict[str, Any] = {"schema": schema, "action": action}
    for name in fields:
        value = payload.get(name, [] if name in {"references", "attachments"} else "")
        out[name] = _clean(name, value)
    if "to" in out:
        out["to"] = normalize_recipient(out["to"])
    if action in (FloorAction.FORWARD_EXTERNAL, FloorAction.DELETE_PERMANENT):
        _check_identity(out)
    elif action in CALENDAR_ACTIONS:
        _check_calendar(out)
    return out


def _check_identity(out: dict[str, Any]) -> None:
    """A forward or delete must name one message: folder, UIDVALIDITY, UID and its hash."""
    folder = out["folder"]
    if not isinstance(folder, str) or not folder.strip():
        raise PayloadError("a forward or delete names the message's server folder")
    for name in ("uidvalidity", "uid"):
        value = out[name]
        if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 2**32:
            raise PayloadError(f"a forward or delete names the message's {name} (1..2^32-1)")
    digest = out["sha256"]
    if not isinstance(digest, str) or len(digest) != 64 or not _HEX.issuperset(digest):
        raise PayloadError("a forward or delete names the sha256 of the message's bytes")
    if not isinstance(out["message_id"], str):
        raise PayloadError("message_id must be a string")


def _check_calendar(out: dict[str, Any]) -> None:
    if out["operation"] not in CALENDAR_OPERATIONS:
        raise PayloadError(f"calendar operation must be put or delete, not {out['operation']!r}")
    if not isinstance(out["uid"], str) or not out["uid"].strip() or len(out["uid"]) > 500:
        raise PayloadError("a calendar write needs the event's UID (1-500 characters)")
    if not isinstance(out["calendar"], str) or not out["calendar"].strip():
        raise PayloadError("a calendar write names the calendar")
    ics = out["ics"]
    if not isinstance(ics, str) or len(ics.encode("utf-8")) > MAX_ICS_BYTES:
        raise PayloadError("the event must be VCALENDAR text of at most 1,000,000 bytes")
    if out["operation"] == "put" and (f"UID:{out['uid']}" not in ics.replace("\r\n ", "")
                                      or "BEGIN:VCALENDAR" not in ics):
        raise PayloadError("the event text must be a VCALENDAR carrying that UID")


def _digest(canonical: dict[str, Any]) -> str:
    try:
        blob = canonical_json(canonical)
    except (TypeError, ValueError) as exc:  # NaN, bytes, objects: not a payload we can bind
        raise PayloadError(f"payload is not canonical JSON: {exc}") from exc
    return hashlib.sha256(blob).hexdigest()


def payload_hash(payload: dict[str, Any]) -> str:
    return _digest(canonical_payload(payload))


@dataclass(frozen=True, slots=True)
class Receipt:
    schema: int
    action: str
    payload_sha256: str
    approved_by: str
    approved_at: str  # ISO 8601; passed in, core has no clock
    action_id: int = 0  # the proposal this approval is for (bound by the MAC)
    key_id: str = ""  # which key of the ring made the MAC
    mac: str = ""  # HMAC-SHA256, hex; empty on a receipt from before receipts were MACs

    def as_dict(self) -> dict[str, Any]:
        return {
            "schema": self.schema,
            "action": self.action,
            "payload_sha256": self.payload_sha256,
            "approved_by": self.approved_by,
            "approved_at": self.approved_at,
            "action_id": self.action_id,
            "key_id": self.key_id,
            "mac": self.mac,
        }


def _mac_input(receipt: Receipt, action_id: int) -> bytes:
    return canonical_json({
        "purpose": "mailmoat receipt v1", "action_id": action_id, "schema": receipt.schema,
        "action": receipt.action, "payload_sha256": receipt.payload_sha256,
        "approved_by": receipt.approved_by, "approved_at": receipt.approved_at,
    })


def sign(receipt: Receipt, action_id: int, key: bytes, key_id: str) -> Receipt:
    """The receipt with its MAC: bound to this action, these bytes, this approver and time."""
    if isinstance(action_id, bool) or not isinstance(action_id, int) or action_id <= 0:
        raise PayloadError("a receipt is bound to a stored action id")
    mac = hmac.new(key, _mac_input(receipt, action_id), hashlib.sha256).hexdigest()
    return Receipt(receipt.schema, receipt.action, receipt.payload_sha256, receipt.approved_by,
                   receipt.approved_at, action_id, key_id, mac)


def verify_mac(receipt: Receipt, action_id: int, keys: dict[str, bytes]) -> None:
    """Raise unless the receipt's MAC was made with one of `keys` (key id -> MAC key) for
    exactly this action id, payload hash, action, schema, approver and time."""
    if not receipt.mac or not receipt.key_id:
        raise ReceiptUnverifiable("the receipt has no MAC (approved before receipts were "
                                  "MACs): approve it again")
    key = keys.get(str(receipt.key_id))
    if key is None:
        raise ReceiptUnverifiable(f"the receipt was made with key {receipt.key_id}, which is "
                                  "not in the key ring: approve it again")
    if receipt.action_id != action_id:
        raise ReceiptForged(f"the receipt is for action {receipt.action_id}, not {action_id}")
    try:
        expected = hmac.new(key, _mac_input(receipt, action_id), hashlib.sha256).hexdigest()
    except (TypeError, ValueError) as exc:
        raise ReceiptForged(f"the receipt is malformed: {exc}") from exc
    if not hmac.compare_digest(expected.encode(), str(receipt.mac).encode()):
        raise ReceiptForged("the receipt's MAC does not verify: it was not made by an approval")


def mint(payload: dict[str, Any], approved_by: str, approved_at: str) -> Receipt:
    if not approved_by.strip():
        raise PayloadError("a receipt needs an approver")
    canonical = canonical_payload(payload)
    return Receipt(
        schema=canonical["schema"],
        action=canonical["action"],
        payload_sha256=_digest(canonical),
        approved_by=approved_by,
        approved_at=approved_at,
    )


def verify(receipt: Receipt, payload: dict[str, Any]) -> None:
    """Raise unless `payload` is exactly what `receipt` approved."""
    if receipt.schema != SCHEMA_VERSION:
        raise SchemaMismatch(f"receipt schema {receipt.schema}, runtime {SCHEMA_VERSION}")
    canonical = canonical_payload(payload)
    if canonical["schema"] != receipt.schema:
        raise SchemaMismatch(f"payload schema {canonical['schema']}, receipt {receipt.schema}")
    if canonical["action"] != receipt.action:
        raise ActionMismatch(f"receipt approves {receipt.action}, payload is {canonical['action']}")
    actual = _digest(canonical)
    # Bytes, not str: compare_digest raises TypeError on a non-ASCII str (a tampered row).
    if not hmac.compare_digest(actual.encode(), str(receipt.payload_sha256).encode()):
        raise PayloadMismatch("payload does not match the approved bytes")
