"""Keys made on first run and kept in the store's sealed secrets: the link-signing key and the
VAPID pair."""

from __future__ import annotations

import base64
import secrets

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid01

from mailmoat.store.secrets import Secrets

LINK_KEY = "notify_link_hmac"
VAPID_KEY = "vapid_private_pem"


def link_key(secrets_: Secrets) -> bytes:
    return bytes.fromhex(secrets_.get(LINK_KEY, lambda: secrets.token_hex(32)))


def _new_vapid_pem() -> str:
    vapid = Vapid01()
    vapid.generate_keys()
    return vapid.private_pem().decode("ascii")


def vapid(secrets_: Secrets) -> Vapid01:
    return Vapid01.from_pem(secrets_.get(VAPID_KEY, _new_vapid_pem).encode("ascii"))


def vapid_public_key(secrets_: Secrets) -> str:
    """The application server key a browser's PushManager.subscribe() needs (base64url)."""
    point = vapid(secrets_).public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return base64.urlsafe_b64encode(point).rstrip(b"=").decode("ascii")
