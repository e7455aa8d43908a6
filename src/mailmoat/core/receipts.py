"""Receipts: a human approval bound to the exact bytes of one irreversible action.

The canonical payload of each floor action (schema version 1):

  send_email        {schema, action, account, to, subject, body, in_reply_to, references,
                     attachments: [{filename, content_type, sha256}]}
  forward_external  {schema, action, account, to, message_id, note}
  delete_permanent  {schema, action, account, message_id, folder}
  calendar_invite   {schema, action, account, calendar, operation, uid, ics}

One reversible action is bound the same way: `calendar_event` (an event only in the user's
own calendar) runs through the executor's exactly-once outbox, so its approval also carries a
receipt over its exact bytes (same fields as calendar_invite). `operation` is "put" (create
or replace the object with that UID) or "delete".

Normalisation before hashing: every string NFC; `to` trimmed, lower-cased and exactly one
address (`local@domain`, IDNA-encoded domain); subject and note trimmed of surrounding
whitespace; CR or LF (or any other line break Python splits on, or NUL) in any
header-bound field (to, subject, message ids, references, attachment names) is an error, not
something to clean up. The receipt's hash is sha256 over the canonical JSON of that payload.
"""

from __future__ import annotations

import hashlib
import hmac
import unicodedata
from dataclasses import dataclass
from typing import Any

from mailmoat.core.hashing import canonical_json

SCHEMA_VERSION = 1


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
    FloorAction.FORWARD_EXTERNAL: ("account", "to", "message_id", "note"),
    FloorAction.DELETE_PERMANENT: ("account", "message_id", "folder"),
    FloorAction.CALENDAR_INVITE: ("account", "calendar", "operation", "uid", "ics"),
    CALENDAR_EVENT: ("account", "calendar", "operation", "uid", "ics"),
}
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
    try:
        ascii_domain = domain.encode("idna").decode("ascii")
    except UnicodeError as exc:
        raise PayloadError("recipient domain is not a valid IDNA name") from exc
    return f"{local}@{ascii_domain}".lower()


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
    if action in CALENDAR_ACTIONS:
        _check_calendar(out)
    return out


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

    def as_dict(self) -> dict[str, Any]:
        return {
            "schema": self.schema,
            "action": self.action,
            "payload_sha256": self.payload_sha256,
            "approved_by": self.approved_by,
            "approved_at": self.approved_at,
        }


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
