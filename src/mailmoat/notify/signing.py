"""Signed, expiring one-tap links ("later", "mute sender") for notifications.

A token is base64url(JSON payload) "." base64url(HMAC-SHA256). The payload names the action,
the account and the message, and an expiry; nothing in it is secret, everything is bound.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from dataclasses import dataclass
from datetime import datetime

ACTIONS = frozenset({"later", "mute"})


class BadLink(ValueError):
    """The link is malformed, forged, for another action, or expired."""


@dataclass(frozen=True, slots=True)
class LinkClaim:
    action: str
    account: str
    message_id: int
    expires: int  # unix seconds


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def sign_link(key: bytes, claim: LinkClaim) -> str:
    if claim.action not in ACTIONS:
        raise ValueError(f"unknown link action: {claim.action}")
    body = json.dumps(
        {"a": claim.action, "c": claim.account, "m": claim.message_id, "e": claim.expires},
        separators=(",", ":"), sort_keys=True,
    ).encode()
    mac = hmac.new(key, body, hashlib.sha256).digest()
    return f"{_b64(body)}.{_b64(mac)}"


def verify_link(key: bytes, token: str, now: datetime) -> LinkClaim:
    try:
        body_part, mac_part = token.split(".")
        body, mac = _unb64(body_part), _unb64(mac_part)
    except (ValueError, UnicodeError) as exc:
        raise BadLink("malformed link") from exc
    if not hmac.compare_digest(mac, hmac.new(key, body, hashlib.sha256).digest()):
        raise BadLink("link signature does not match")
    try:
        data = json.loads(body)
        claim = LinkClaim(str(data["a"]), str(data["c"]), int(data["m"]), int(data["e"]))
    except (ValueError, KeyError, TypeError) as exc:
        raise BadLink("malformed link") from exc
    if claim.action not in ACTIONS:
        raise BadLink("unknown link action")
    if now.timestamp() >= claim.expires:
        raise BadLink("link expired")
    return claim
