"""Canonical JSON and the sha256 hashes built on it.

Canonical form: strings NFC-normalised, keys sorted, no insignificant whitespace, UTF-8,
non-ASCII kept as is, floats rejected where they are not finite. The same logical value
always hashes the same, whichever machine or Unicode normal form it came from.
"""

from __future__ import annotations

import hashlib
import json
import math
import unicodedata
from typing import Any

import orjson

from mailmoat.core.message import Message


def _nfc(value: Any) -> Any:
    if isinstance(value, str):
        return unicodedata.normalize("NFC", value)
    if isinstance(value, dict):
        return {_nfc(str(k)): _nfc(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_nfc(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError("canonical JSON cannot hold NaN or infinity")
    return value


def _has_float(value: Any) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, dict):
        return any(_has_float(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_float(v) for v in value)
    return False


def canonical_json(value: Any) -> bytes:
    """The canonical form is defined by the stdlib encoder call at the end. For strings,
    integers up to 64 bits, booleans, None, lists and dicts, orjson writes the same bytes
    (tests/unit/test_core_hashing.py checks every code point and random nested values) about
    ten times faster; every message's input hash is one of these. Floats keep the stdlib
    path: the two write exponents differently (1e-05 against 1e-5)."""
    normal = _nfc(value)
    if not _has_float(normal):
        try:
            return orjson.dumps(normal, option=orjson.OPT_SORT_KEYS)
        except orjson.JSONEncodeError:  # an integer beyond 64 bits: the stdlib writes it
            pass
    return json.dumps(
        normal, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def sha256_hex(value: Any) -> str:
    return hashlib.sha256(canonical_json(value)).hexdigest()


# Exactly the fields any scorer reads. Adding a field a scorer reads means adding it here,
# or stored decisions stop detecting that they are stale.
SCORER_INPUT_VERSION = 3  # 3: the sender evidence's headers, recipients and links (issue 22)
BODY_EXCERPT_CHARS = 2000  # from each end: the signals read the footer (opt-out links) too


def _tail(body: str) -> str:
    return body[-BODY_EXCERPT_CHARS:] if len(body) > BODY_EXCERPT_CHARS else ""


def scorer_input(message: Message) -> dict[str, Any]:
    """The scorer input. The message's tuples are handed over as they are: JSON writes a
    tuple as the list it holds (both canonical forms do), without a copy made first."""
    return {
        "v": SCORER_INPUT_VERSION,
        "from_name": message.from_name,
        "from_addr": message.from_addr,
        "subject": message.subject,
        "snippet": message.snippet,
        "body": message.body_text[:BODY_EXCERPT_CHARS],
        "body_tail": _tail(message.body_text),
        "labels": sorted(message.labels),
        "list_unsubscribe": bool(message.list_unsubscribe),
        "bulk_headers": message.bulk_headers,
        "precedence": message.precedence,
        "auto_submitted": message.auto_submitted,
        "calendar": bool(message.calendar_parts),
        "attachment_types": sorted({a.content_type for a in message.attachments})
        if message.attachments else [],
        # Read by core/evidence.py and the list-discussion signal.
        "to": message.to,
        "cc": message.cc,
        "reply_to": message.reply_to,
        "list_id": message.list_id,
        "threaded": [bool(message.message_id), bool(message.in_reply_to),
                     bool(message.references)],
        "parsed": message.raw_size > 0,
        "auth_results": message.auth_results,
        "spam_headers": message.spam_headers,
        "autoreply_header": message.autoreply_header,
        "links": message.links,
    }


def _nfc_flat(value: Any) -> Any:
    if isinstance(value, str):
        return unicodedata.normalize("NFC", value)
    if isinstance(value, list | tuple):
        return [_nfc_flat(v) for v in value]
    return value


def input_hash(message: Message) -> str:
    """`sha256_hex(scorer_input(message))`, canonicalised once: the scorer input holds only
    strings, booleans, an integer and lists or tuples of them (no floats, no objects), so
    orjson writes the canonical bytes directly; when those bytes are all ASCII every string
    is already its NFC form, otherwise the strings are NFC-normalised in one pass and
    written again (tests/test_core_hashing.py holds the two equal on the corpus)."""
    data = scorer_input(message)
    raw = orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
    if not raw.isascii():  # ASCII strings are their own NFC form: most mail needs no pass
        data = {key: _nfc_flat(value) for key, value in data.items()}
        raw = orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
    return hashlib.sha256(raw).hexdigest()


def is_stale(message: Message, stored_hash: str) -> bool:
    """True when the message no longer hashes to what the stored decision read."""
    return input_hash(message) != stored_hash
