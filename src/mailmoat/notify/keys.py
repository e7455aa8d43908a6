"""Keys made on first run and kept in the store: the link-signing key and the VAPID pair."""

from __future__ import annotations

import base64
import secrets

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid01

from mailmoat.store.people import WebStore

LINK_KEY = "notify_link_hmac"
VAPID_KEY = "vapid_private_pem"


def link_key(web: WebStore) -> bytes:
    return bytes.fromhex(web.secret(LINK_KEY, lambda: secrets.token_hex(32)))


def _new_vapid_pem() -> str:
    vapid = Vapid01()
    vapid.generate_keys()
    return vapid.private_pem().decode("ascii")


def vapid(web: WebStore) -> Vapid01:
    return Vapid01.from_pem(web.secret(VAPID_KEY, _new_vapid_pem).encode("ascii"))


def vapid_public_key(web: WebStore) -> str:
    """The application server key a browser's PushManager.subscribe() needs (base64url)."""
    point = vapid(web).public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return base64.urlsafe_b64encode(point).rstrip(b"=").decode("ascii")
