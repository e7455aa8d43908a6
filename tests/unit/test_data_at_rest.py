"""Data at rest (issue 17, item 18): the data directory is 0700, the SQLite database and its
WAL/SHM files 0600, and the web's secrets (the link-signing key, the Web Push private key,
Apprise URLs with tokens) are sealed with the key ring like account secrets; plain-text rows
from older versions are sealed when first read."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import insert, select, text

from mailmoat.accounts.secrets import load_key_ring
from mailmoat.entrypoints.web.app import SETUP_TOKEN_SECRET, create_app
from mailmoat.notify.keys import LINK_KEY, VAPID_KEY, link_key, vapid
from mailmoat.services.bootstrap import open_store
from mailmoat.store.db import default_url
from mailmoat.store.repos import Repos
from mailmoat.store.secrets import NoSealer, is_sealed
from mailmoat.store.tables.web import AccountSettingsRow, SecretRow

TOKEN = "Zq9SECRETtoken4711xyz"
APPRISE = f"json://hooks.example/notify?token={TOKEN}"


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def loose_umask() -> Iterator[None]:
    old = os.umask(0o022)  # the usual default: files 0644, directories 0755
    try:
        yield
    finally:
        os.umask(old)


def test_the_default_data_directory_and_database_are_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, loose_umask: None
) -> None:
    monkeypatch.delenv("MAILMOAT_DATABASE_URL", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    url = default_url()
    store = open_store(url)
    store.ingest(b"From: a@b.example\nSubject: hi\n\nbody\n", "import", account="acct")
    data = tmp_path / "xdg" / "mailmoat"
    db = data / "mailmoat.db"
    assert url.endswith(str(db))
    assert _mode(data) == 0o700
    assert _mode(db) == 0o600
    for extra in (Path(f"{db}-wal"), Path(f"{db}-shm")):
        assert not extra.exists() or _mode(extra) == 0o600, extra
    store.engine.dispose()


def test_an_existing_world_readable_database_is_tightened(tmp_path: Path,
                                                          loose_umask: None) -> None:
    db = tmp_path / "old.db"
    open_store(f"sqlite:///{db}").engine.dispose()
    db.chmod(0o644)
    open_store(f"sqlite:///{db}").engine.dispose()
    assert _mode(db) == 0o600


def _file_bytes(db: Path) -> bytes:
    return b"".join(p.read_bytes() for p in (db, Path(f"{db}-wal")) if p.exists())


def test_no_secret_is_in_the_database_file_in_plain_text(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    store = open_store(f"sqlite:///{db}")
    create_app(store)  # first run makes the link key and the VAPID pair
    web = Repos(store, sealer=load_key_ring())
    web.settings.save("acct", {"mode": "SUGGEST", "notify": {"apprise_urls": [APPRISE]}})
    assert web.settings.get("acct")["notify"]["apprise_urls"] == [APPRISE]
    key = link_key(web.secrets)
    pem = vapid(web.secrets).private_pem()
    # The one-time /setup token is shared by every web process through the database.
    setup = web.secrets.get(SETUP_TOKEN_SECRET, lambda: "unused: create_app made it")
    body = b"".join(pem.splitlines()[1:-1])
    with store.engine.connect() as conn:
        conn.execute(text("PRAGMA wal_checkpoint(TRUNCATE)"))
        stored = dict(conn.execute(select(SecretRow.name, SecretRow.value)).all())
    store.engine.dispose()
    raw = _file_bytes(db)
    assert TOKEN.encode() not in raw and b"hooks.example" not in raw
    assert key.hex().encode() not in raw
    assert body[:40] not in raw and b"PRIVATE KEY" not in raw
    assert setup.encode() not in raw
    assert all(is_sealed(v) for v in stored.values())
    assert set(stored) == {LINK_KEY, VAPID_KEY, SETUP_TOKEN_SECRET}
    with pytest.raises(NoSealer):  # without the key ring, no secret comes out
        Repos(open_store(f"sqlite:///{db}")).secrets.get(LINK_KEY, lambda: "x")


def test_plain_text_rows_from_older_versions_are_sealed_when_read(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    store = open_store(f"sqlite:///{db}")
    legacy_key = "ab" * 32
    with store.engine.begin() as conn:
        conn.execute(insert(SecretRow).values(name=LINK_KEY, value=legacy_key))
        conn.execute(insert(AccountSettingsRow).values(
            account="acct", data={"notify": {"apprise_urls": [APPRISE]}},
            updated_at=datetime.now(UTC)))
    web = Repos(store, sealer=load_key_ring())
    # the same key: old links still verify
    assert link_key(web.secrets) == bytes.fromhex(legacy_key)
    assert web.settings.get("acct")["notify"]["apprise_urls"] == [APPRISE]
    with store.engine.connect() as conn:
        value = conn.execute(select(SecretRow.value)).scalar_one()
        data = conn.execute(select(AccountSettingsRow.data)).scalar_one()
        conn.execute(text("PRAGMA wal_checkpoint(TRUNCATE)"))
    assert is_sealed(value) and is_sealed(data["notify"]["apprise_urls"][0])
    assert link_key(web.secrets) == bytes.fromhex(legacy_key)
    store.engine.dispose()
    assert TOKEN.encode() not in _file_bytes(db)
