"""Named secrets of the deployment (the link-signing key, the Web Push key pair, the setup
token), made on first use and stored sealed with the key ring that seals account secrets
(accounts.secrets.KeyRing), each bound to its name. A value stored in plain text by an older
version is sealed the first time it is read. Without a sealer they can be neither read nor
written."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Protocol

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from mailmoat.store.messages import Store
from mailmoat.store.tables.web import SecretRow

# accounts.secrets' sealed format: version, key id, url-safe base64 of nonce and ciphertext.
_SEALED = re.compile(r"v1:[0-9a-f]{12}:[A-Za-z0-9_=-]+")


class Sealer(Protocol):
    """Authenticated encryption bound to a context (accounts.secrets.KeyRing)."""

    def seal(self, plaintext: str, context: str) -> str: ...

    def open(self, token: str, context: str) -> str: ...


class NoSealer(RuntimeError):
    """A secret was asked for from a repository built without a key ring."""


def is_sealed(value: str) -> bool:
    return _SEALED.fullmatch(value) is not None


def need(sealer: Sealer | None) -> Sealer:
    if sealer is None:
        raise NoSealer("secrets need the key ring: build Repos(store, sealer=ring)")
    return sealer


class Secrets:
    def __init__(self, store: Store, sealer: Sealer | None = None) -> None:
        self.sessions = store.sessions
        self.sealer = sealer

    def get(self, name: str, make: Callable[[], str]) -> str:
        """The named secret, made on first use; concurrent first uses agree on one value.
        Stored sealed (context `web-secret:<name>`); a plain-text row is sealed on read."""
        sealer, context = need(self.sealer), f"web-secret:{name}"
        with self.sessions() as s:
            value = s.scalar(select(SecretRow.value).where(SecretRow.name == name))
        if value is None:
            try:
                with self.sessions.begin() as s:
                    s.add(SecretRow(name=name, value=sealer.seal(make(), context)))
            except IntegrityError:
                pass
            with self.sessions() as s:
                value = str(s.scalar(select(SecretRow.value).where(SecretRow.name == name)))
        if is_sealed(value):
            return sealer.open(value, context)
        with self.sessions.begin() as s:  # a row from before secrets were sealed
            s.execute(update(SecretRow).where(SecretRow.name == name, SecretRow.value == value)
                      .values(value=sealer.seal(value, context)))
        return value
