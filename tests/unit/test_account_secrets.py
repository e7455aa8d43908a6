"""The sealed secret store: AES-256-GCM at rest, 0600 key file, rotation, wrong key."""

from __future__ import annotations

import multiprocessing
import os
import stat
from pathlib import Path

import pytest
from sqlalchemy import select

from mailmoat.accounts.registry import (
    AccountError,
    AccountSettings,
    add_account,
    list_accounts,
    open_secret,
    remove_account,
    reseal_all,
)
from mailmoat.accounts.secrets import (
    ENV_KEY,
    SecretKeyError,
    add_primary_key,
    drop_old_keys,
    encode_key,
    load_key_ring,
    new_key,
)
from mailmoat.services.bootstrap import open_store
from mailmoat.store.tables.accounts import AccountRow

PASSWORD = "correct horse battery staple 42"


@pytest.fixture(autouse=True)
def _no_env_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_KEY, raising=False)


def _settings(name: str = "work") -> AccountSettings:
    return AccountSettings(name=name, host="imap.example.org", port=993, username="me")


def test_key_file_is_created_0600_and_secret_is_sealed(tmp_path: Path) -> None:
    key_file = tmp_path / "keys" / "secret.key"
    ring = load_key_ring(key_file)
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    store = open_store(f"sqlite:///{tmp_path / 'm.db'}")
    add_account(store, ring, _settings(), PASSWORD)
    db_bytes = b"".join(p.read_bytes() for p in tmp_path.glob("m.db*"))
    assert PASSWORD.encode() not in db_bytes
    with store.sessions() as session:
        sealed = session.scalar(select(AccountRow.secret))
    assert sealed.startswith("v1:") and PASSWORD not in sealed
    # A reopened ring (same file) opens it; each seal uses a fresh nonce.
    assert open_secret(store, load_key_ring(key_file), "work") == PASSWORD
    assert ring.seal(PASSWORD, "x") != ring.seal(PASSWORD, "x")


def _first_ring(path: str) -> str:
    return load_key_ring(Path(path)).primary_id


def test_a_key_file_made_by_another_process_meanwhile_wins(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """Two processes started at once on a new deployment both find no key file. The one that
    writes second must take the first one's key, not replace it: a secret the first sealed
    would not open in the second."""
    key_file = tmp_path / "secret.key"
    theirs = load_key_ring(key_file)
    real_exists = Path.exists
    monkeypatch.setattr(Path, "exists",  # this process looked before the other one wrote
                        lambda self: False if self == key_file else real_exists(self))
    mine = load_key_ring(key_file)
    monkeypatch.undo()
    assert mine.keys == theirs.keys
    assert load_key_ring(key_file).keys == theirs.keys
    assert [p.name for p in tmp_path.iterdir()] == ["secret.key"]  # no temporary file left
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600


def test_processes_starting_together_agree_on_one_key(tmp_path: Path) -> None:
    key_file = str(tmp_path / "new" / "secret.key")
    with multiprocessing.get_context("spawn").Pool(6) as pool:
        ids = pool.map(_first_ring, [key_file] * 12)
    assert len(set(ids)) == 1 and ids[0] == load_key_ring(Path(key_file)).primary_id


def test_sealed_value_is_bound_to_its_account(tmp_path: Path) -> None:
    ring = load_key_ring(tmp_path / "k")
    sealed = ring.seal(PASSWORD, "account:work:secret")
    with pytest.raises(SecretKeyError, match="altered or belongs to another field"):
        ring.open(sealed, "account:home:secret")
    tampered = sealed[:-4] + ("AAAA" if not sealed.endswith("AAAA") else "BBBB")
    with pytest.raises(SecretKeyError):
        ring.open(tampered, "account:work:secret")


def test_wrong_key_is_a_clear_error_and_loses_nothing(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'm.db'}")
    right = load_key_ring(tmp_path / "right.key")
    add_account(store, right, _settings(), PASSWORD)
    with store.sessions() as session:
        before = session.scalar(select(AccountRow.secret))

    monkeypatch.setenv(ENV_KEY, encode_key(new_key()))
    wrong = load_key_ring()
    with pytest.raises(SecretKeyError) as caught:
        open_secret(store, wrong, "work")
    message = str(caught.value)
    assert right.primary_id in message and "not in the key ring" in message
    assert "nothing was changed" in message and PASSWORD not in message
    with pytest.raises(SecretKeyError):
        reseal_all(store, wrong)  # must not half-rewrite anything
    with store.sessions() as session:
        assert session.scalar(select(AccountRow.secret)) == before
    monkeypatch.delenv(ENV_KEY)
    assert open_secret(store, right, "work") == PASSWORD


def test_rotation_keeps_every_secret(tmp_path: Path) -> None:
    key_file = tmp_path / "secret.key"
    store = open_store(f"sqlite:///{tmp_path / 'm.db'}")
    ring = load_key_ring(key_file)
    add_account(store, ring, _settings("a"), "first-secret")
    add_account(store, ring, _settings("b"), "second-secret")
    old_id = ring.primary_id

    rotated = add_primary_key(ring)
    assert len(load_key_ring(key_file).keys) == 2  # both on disk while re-sealing
    assert reseal_all(store, rotated) == 2
    final = drop_old_keys(rotated)
    assert final.primary_id != old_id and len(load_key_ring(key_file).keys) == 1
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    reread = load_key_ring(key_file)
    assert open_secret(store, reread, "a") == "first-secret"
    assert open_secret(store, reread, "b") == "second-secret"
    with store.sessions() as session:
        assert {s.split(":")[1] for s in session.scalars(select(AccountRow.secret))} == {
            final.primary_id}


def test_env_key_ring_and_bad_key_material(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    old, new = new_key(), new_key()
    monkeypatch.setenv(ENV_KEY, encode_key(old))
    sealed = load_key_ring().seal("s", "c")
    monkeypatch.setenv(ENV_KEY, f"{encode_key(new)},{encode_key(old)}")
    ring = load_key_ring()
    assert ring.open(sealed, "c") == "s"  # old key still opens while rotating
    assert ring.sealed_with(ring.seal("s", "c")) == ring.primary_id
    monkeypatch.setenv(ENV_KEY, "not-a-key")
    with pytest.raises(SecretKeyError, match=r"32 bytes|base64"):
        load_key_ring()
    monkeypatch.delenv(ENV_KEY)
    loose = tmp_path / "loose.key"
    load_key_ring(loose)
    os.chmod(loose, 0o644)
    with pytest.raises(SecretKeyError, match="chmod 600"):
        load_key_ring(loose)


def test_account_validation_and_removal(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'm.db'}")
    ring = load_key_ring(tmp_path / "k")
    with pytest.raises(AccountError, match="loopback"):
        add_account(store, ring, AccountSettings(name="x", host="imap.example.org", port=143,
                                                 username="u", tls="plain"), "p")
    with pytest.raises(AccountError, match="token-endpoint"):
        add_account(store, ring, AccountSettings(name="x", host="h", port=993, username="u",
                                                 auth="xoauth2"), "rt")
    add_account(store, ring, _settings(), PASSWORD)
    with pytest.raises(AccountError, match="exists already"):
        add_account(store, ring, _settings(), PASSWORD)
    remove_account(store, "work")
    assert list_accounts(store) == []
    with pytest.raises(AccountError, match="no account"):
        remove_account(store, "work")
