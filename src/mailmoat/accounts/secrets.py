"""Secrets at rest: AES-256-GCM with a key ring (newest key first).

The key comes from MAILMOAT_SECRET_KEY (url-safe base64 of 32 bytes; several,
comma-separated, newest first, while rotating) or from a key file created with mode 0600
on first run. Every sealed value names the key that sealed it, so rotation can re-seal
with a new key while the old one still opens what is not re-sealed yet. A value sealed
with a key that is not in the ring is an error that says so; nothing is overwritten.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import hmac
import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from platformdirs import user_data_dir

ENV_KEY = "MAILMOAT_SECRET_KEY"
ENV_KEY_FILE = "MAILMOAT_KEY_FILE"
FORMAT = "v1"
NONCE_BYTES = 12


class SecretKeyError(RuntimeError):
    """The key ring cannot open a secret, or the key material is unusable. Says what to fix;
    never contains key material or the secret."""


def key_id(key: bytes) -> str:
    return hashlib.sha256(b"mailmoat-key-id:" + key).hexdigest()[:12]


def new_key() -> bytes:
    return AESGCM.generate_key(bit_length=256)


def encode_key(key: bytes) -> str:
    return base64.urlsafe_b64encode(key).decode("ascii")


def decode_key(text: str, where: str) -> bytes:
    try:
        key = base64.urlsafe_b64decode(text.strip().encode("ascii"))
    except (binascii.Error, ValueError, UnicodeEncodeError) as exc:
        raise SecretKeyError(f"{where}: a key is not valid url-safe base64") from exc
    if len(key) != 32:
        raise SecretKeyError(f"{where}: a key must be 32 bytes (AES-256), got {len(key)}")
    return key


@dataclass(frozen=True)
class KeyRing:
    keys: tuple[bytes, ...]  # newest first; keys[0] seals
    source: str  # where the keys came from, for error messages (never the keys)
    path: Path | None = None  # the key file, when the ring came from one

    @property
    def primary_id(self) -> str:
        return key_id(self.keys[0])

    def seal(self, plaintext: str, context: str) -> str:
        """Encrypt `plaintext`; `context` (e.g. "account:work:password") is bound as
        associated data so a sealed value cannot be moved to another field or account."""
        nonce = os.urandom(NONCE_BYTES)
        sealed = AESGCM(self.keys[0]).encrypt(nonce, plaintext.encode("utf-8"), context.encode())
        blob = base64.urlsafe_b64encode(nonce + sealed).decode("ascii")
        return f"{FORMAT}:{self.primary_id}:{blob}"

    def open(self, token: str, context: str) -> str:
        try:
            version, kid, blob = token.split(":", 2)
            raw = base64.urlsafe_b64decode(blob.encode("ascii"))
        except (ValueError, binascii.Error) as exc:
            raise SecretKeyError(
                f"a stored secret for {context} is not in the sealed format"
            ) from exc
        if version != FORMAT:
            raise SecretKeyError(f"a stored secret for {context} has unknown format {version!r}")
        for key in self.keys:
            if key_id(key) != kid:
                continue
            try:
                plain = AESGCM(key).decrypt(raw[:NONCE_BYTES], raw[NONCE_BYTES:], context.encode())
                return plain.decode("utf-8")
            except InvalidTag as exc:
                raise SecretKeyError(
                    f"the stored secret for {context} does not verify with key {kid}: "
                    "it was altered or belongs to another field"
                ) from exc
        raise SecretKeyError(
            f"the stored secret for {context} was sealed with key {kid}, which is not in the "
            f"key ring from {self.source} (keys there: {', '.join(key_id(k) for k in self.keys)}). "
            f"Set {ENV_KEY} or {ENV_KEY_FILE} to the key that sealed it; nothing was changed."
        )

    def subkeys(self, purpose: str) -> dict[str, bytes]:
        """A key per ring key for one purpose (receipt MACs, ...): HMAC-SHA256 of the purpose
        under the ring key, so no ring key is ever used for two jobs. Named by the ring
        key's id, so rotation keeps old MACs verifiable while the old key is in the ring."""
        label = f"mailmoat-subkey:{purpose}".encode()
        return {key_id(k): hmac.new(k, label, hashlib.sha256).digest() for k in self.keys}

    def primary_subkey(self, purpose: str) -> tuple[str, bytes]:
        return self.primary_id, self.subkeys(purpose)[self.primary_id]

    def sealed_with(self, token: str) -> str:
        return token.split(":", 2)[1] if token.count(":") >= 2 else ""


def default_key_file() -> Path:
    configured = os.environ.get(ENV_KEY_FILE)
    if configured:
        return Path(configured)
    return Path(user_data_dir("mailmoat", appauthor=False)) / "secret.key"


def _write_key_file(path: Path, keys: tuple[bytes, ...], *, only_if_absent: bool = False
                    ) -> None:
    """Write atomically with mode 0600 from the first byte (no window where it is readable),
    through a temporary file of this process's own. With `only_if_absent`, a key file that
    another process created meanwhile wins and is left as it is: two processes started at
    once on a new deployment end up with the same key, never one each."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w") as handle:  # mkstemp opens it 0600
            handle.write("".join(encode_key(k) + "\n" for k in keys))
            handle.flush()
            os.fsync(handle.fileno())
        if not only_if_absent:
            os.replace(tmp, path)
            return
        with contextlib.suppress(FileExistsError):  # the path exists: the first writer won
            os.link(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _read_key_file(path: Path) -> tuple[bytes, ...]:
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        raise SecretKeyError(
            f"key file {path} is readable by others (mode {mode:o}); run: chmod 600 {path}"
        )
    lines = [line for line in path.read_text("ascii").splitlines() if line.strip()]
    if not lines:
        raise SecretKeyError(f"key file {path} is empty; restore it from your backup")
    return tuple(decode_key(line, f"key file {path}") for line in lines)


def load_key_ring(path: Path | None = None, create: bool = True) -> KeyRing:
    """The environment wins; else the key file, created (0600) on first use."""
    env = os.environ.get(ENV_KEY)
    if env:
        keys = tuple(decode_key(part, ENV_KEY) for part in env.split(",") if part.strip())
        if not keys:
            raise SecretKeyError(f"{ENV_KEY} is set but holds no key")
        return KeyRing(keys, ENV_KEY)
    path = path or default_key_file()
    if not path.exists():
        if not create:
            raise SecretKeyError(f"no key: set {ENV_KEY} or create the key file {path}")
        _write_key_file(path, (new_key(),), only_if_absent=True)
    return KeyRing(_read_key_file(path), f"key file {path}", path)


def add_primary_key(ring: KeyRing) -> KeyRing:
    """Rotation, step one: a new key in front; the old keys stay so nothing becomes unreadable."""
    if ring.path is None:
        raise SecretKeyError(
            f"the keys come from {ENV_KEY}: put the new key first there (new,old), re-seal, "
            "then drop the old one"
        )
    fresh = KeyRing((new_key(), *ring.keys), ring.source, ring.path)
    _write_key_file(ring.path, fresh.keys)
    return fresh


def drop_old_keys(ring: KeyRing) -> KeyRing:
    """Rotation, last step, once every secret is re-sealed with the primary key."""
    kept = KeyRing(ring.keys[:1], ring.source, ring.path)
    if ring.path is not None:
        _write_key_file(ring.path, kept.keys)
    return kept
