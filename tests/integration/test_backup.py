"""`mailmoat backup` / `mailmoat restore` on real databases (SQLite files, a PostgreSQL
schema): the restored deployment opens its sealed secrets and verifies its receipts, a
damaged or altered archive is refused before anything is touched, nothing is overwritten
without --force, and the snapshot is consistent while a writer holds a transaction."""

from __future__ import annotations

import io
import json
import sqlite3
import stat
import tarfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, func, select, text
from typer.testing import CliRunner

from mailmoat.accounts.registry import AccountSettings, add_account, open_secret
from mailmoat.accounts.secrets import ENV_KEY, ENV_KEY_FILE, encode_key, load_key_ring, new_key
from mailmoat.act.service import ActionService
from mailmoat.core.receipts import RECEIPT_KEY_PURPOSE, Receipt, verify_mac
from mailmoat.demo import import_demo
from mailmoat.entrypoints.cli.main import app
from mailmoat.services.backup import BackupError, create_backup, restore_backup, verify_backup
from mailmoat.services.bootstrap import open_store
from mailmoat.store.tables.act import OutboxRow
from mailmoat.store.tables.messages import MessageRow
from tests.conftest import PG_ADMIN_URL
from tests.support.act_support import send_payload

runner = CliRunner()
PASSWORD = "correct horse battery staple"


def _deployment(url: str) -> tuple[int, int]:
    """Demo mail, an account with a sealed password, an approved send (a MACed receipt)."""
    store = open_store(url)
    import_demo(store)
    add_account(store, load_key_ring(), AccountSettings(
        name="work", host="127.0.0.1", port=1143, username="me@example.org", tls="plain"),
        PASSWORD)
    service = ActionService(store.engine)
    proposal = service.propose("work", send_payload(), "sam", "cli")
    service.approve(proposal["id"], "sam")
    count = store.count()
    store.engine.dispose()
    return count, int(proposal["id"])


def _assert_restored(url: str, messages: int, action_id: int) -> None:
    store = open_store(url)
    try:
        assert store.count() == messages
        ring = load_key_ring(create=False)
        assert open_secret(store, ring, "work") == PASSWORD
        with store.sessions() as session:
            row = session.scalar(select(OutboxRow).where(OutboxRow.action_id == action_id))
        assert row is not None and row.state == "queued"
        verify_mac(Receipt(**row.receipt), action_id, ring.subkeys(RECEIPT_KEY_PURPOSE))
    finally:
        store.engine.dispose()


def _move_to(monkeypatch: pytest.MonkeyPatch, where: Path) -> str:
    """Point this process at a new deployment directory (not created)."""
    url = f"sqlite:///{where / 'mailmoat.db'}"
    monkeypatch.setenv("MAILMOAT_DATABASE_URL", url)
    monkeypatch.setenv(ENV_KEY_FILE, str(where / "secret.key"))
    return url


def test_sqlite_round_trip_opens_secrets_and_receipts(
        env: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    messages, action_id = _deployment(env)
    archive = tmp_path / "backups" / "mm.tar.gz"
    made = runner.invoke(app, ["backup", str(archive)])
    assert made.exit_code == 0, made.output
    assert stat.S_IMODE(archive.stat().st_mode) == 0o600
    again = runner.invoke(app, ["backup", str(archive)])
    assert again.exit_code == 2 and "--force" in again.output
    assert runner.invoke(app, ["backup", str(archive), "--force"]).exit_code == 0

    url = _move_to(monkeypatch, tmp_path / "elsewhere")
    restored = runner.invoke(app, ["restore", str(archive)])
    assert restored.exit_code == 0, restored.output
    assert "sealed secrets opened: 1" in restored.output
    key_file = tmp_path / "elsewhere" / "secret.key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "elsewhere" / "mailmoat.db").stat().st_mode) == 0o600
    _assert_restored(url, messages, action_id)


def test_restore_refuses_to_overwrite_without_force_and_keeps_the_old_files(
        env: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    messages, action_id = _deployment(env)
    archive = tmp_path / "mm.tar.gz"
    create_backup(archive)
    # Another deployment lives at the target: its own database and its own key.
    url = _move_to(monkeypatch, tmp_path / "other")
    (tmp_path / "other").mkdir()
    other = open_store(url)
    other.engine.dispose()
    load_key_ring()  # creates a different key file
    before = (tmp_path / "other" / "secret.key").read_bytes()
    refused = runner.invoke(app, ["restore", str(archive)])
    assert refused.exit_code == 2
    text_ = " ".join(refused.output.split())
    assert "exists" in text_ and "holds other keys" in text_ and "--force" in text_
    assert (tmp_path / "other" / "secret.key").read_bytes() == before
    forced = runner.invoke(app, ["restore", str(archive), "--force"])
    assert forced.exit_code == 0, forced.output
    _assert_restored(url, messages, action_id)
    aside = sorted(p.name for p in (tmp_path / "other").glob("*.before-restore-*"))
    assert [n.split(".before-restore-")[0] for n in aside] == ["mailmoat.db", "secret.key"]
    assert (tmp_path / "other" / aside[1]).read_bytes() == before


def _rewrite(archive: Path, out: Path, change: dict[str, bytes | None]) -> None:
    """Copy the archive, replacing (or, with None, dropping) members by name."""
    with tarfile.open(archive, "r:gz") as src, tarfile.open(out, "w:gz") as dst:
        for info in src:
            data = src.extractfile(info).read()  # type: ignore[union-attr]
            if info.name in change:
                if change[info.name] is None:
                    continue
                data = change[info.name]  # type: ignore[assignment]
                info.size = len(data)
            dst.addfile(info, io.BytesIO(data))


def test_a_damaged_or_altered_archive_is_refused_before_anything_changes(
        env: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _deployment(env)
    archive = tmp_path / "mm.tar.gz"
    create_backup(archive)
    with tarfile.open(archive, "r:gz") as tar:
        db = bytearray(tar.extractfile("database.sqlite").read())  # type: ignore[union-attr]
    db[-100] ^= 0xFF
    altered = tmp_path / "altered.tar.gz"
    _rewrite(archive, altered, {"database.sqlite": bytes(db)})
    missing = tmp_path / "missing.tar.gz"
    _rewrite(archive, missing, {"secret.key": None})
    truncated = tmp_path / "truncated.tar.gz"
    truncated.write_bytes(archive.read_bytes()[:2000])
    not_ours = tmp_path / "notes.tar.gz"
    not_ours.write_bytes(b"hello")
    target = tmp_path / "fresh"
    _move_to(monkeypatch, target)
    for bad, says in ((altered, "does not match its checksum"), (missing, "missing secret.key"),
                      (truncated, "not a mailmoat backup"), (not_ours, "not a mailmoat backup")):
        checked = runner.invoke(app, ["restore", str(bad), "--check"])
        assert checked.exit_code == 2, (bad, checked.output)
        restored = runner.invoke(app, ["restore", str(bad)])
        assert restored.exit_code == 2
        assert says in " ".join(restored.output.split()) or \
            "not a mailmoat backup" in " ".join(restored.output.split()), restored.output
        assert not target.exists() or not any(target.iterdir())
    assert "intact" in runner.invoke(app, ["restore", str(archive), "--check"]).output


def test_a_key_ring_that_cannot_open_the_secrets_is_reported(
        env: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _deployment(env)
    archive = tmp_path / "mm.tar.gz"
    create_backup(archive)
    _move_to(monkeypatch, tmp_path / "fresh")
    monkeypatch.setenv(ENV_KEY, encode_key(new_key()))  # wins over the restored key file
    restored = runner.invoke(app, ["restore", str(archive)])
    assert restored.exit_code == 2
    assert "a sealed secret does not open" in " ".join(restored.output.split())


def test_without_key_the_archive_holds_no_key(env: str, tmp_path: Path) -> None:
    _deployment(env)
    archive = tmp_path / "mm.tar.gz"
    made = runner.invoke(app, ["backup", str(archive), "--without-key"])
    assert made.exit_code == 0, made.output
    manifest = verify_backup(archive)
    assert manifest["key"] is None and set(manifest["files"]) == {"database.sqlite"}


def test_the_sqlite_snapshot_leaves_out_a_transaction_still_open(
        env: str, tmp_path: Path) -> None:
    messages, _ = _deployment(env)
    writer = sqlite3.connect(env.removeprefix("sqlite:///"))
    try:
        writer.execute("BEGIN IMMEDIATE")
        writer.execute("CREATE TABLE scratch (x INTEGER)")  # uncommitted while the backup runs
        writer.execute("INSERT INTO scratch VALUES (1)")
        report = create_backup(tmp_path / "mm.tar.gz")
    finally:
        writer.rollback()
        writer.close()
    assert report.tables["messages"] == messages
    assert "scratch" not in report.tables


@pytest.fixture
def two_schemas() -> Iterator[tuple[str, str]]:
    """Two fresh PostgreSQL schemas: the deployment and the place it is restored to."""
    from tests.conftest import require_service

    require_service("PostgreSQL", "127.0.0.1", 5432)
    names = [f"mm_backup_{uuid.uuid4().hex[:10]}" for _ in range(2)]
    admin = create_engine(PG_ADMIN_URL)
    with admin.begin() as conn:
        for name in names:
            conn.execute(text(f'CREATE SCHEMA "{name}"'))
    try:
        yield tuple(f"{PG_ADMIN_URL}?options=-csearch_path%3D{n}" for n in names)  # type: ignore[misc]
    finally:
        with admin.begin() as conn:
            for name in names:
                conn.execute(text(f'DROP SCHEMA "{name}" CASCADE'))
        admin.dispose()


@pytest.mark.postgres
def test_postgresql_round_trip(env: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                               two_schemas: tuple[str, str]) -> None:
    source, target = two_schemas
    messages, action_id = _deployment(source)
    archive = tmp_path / "pg.tar.gz"
    report = create_backup(archive, url=source)
    assert report.database == "postgresql" and report.tables["messages"] == messages
    manifest = verify_backup(archive)
    assert set(manifest["files"]) == {"database.jsonl", "secret.key"}
    monkeypatch.setenv(ENV_KEY_FILE, str(tmp_path / "restored.key"))
    restored = restore_backup(archive, url=target)
    assert restored.tables == report.tables and restored.secrets_opened == 1
    _assert_restored(target, messages, action_id)
    # Ids continue after the restored rows: new mail gets new ids, not a clash.
    store = open_store(target)
    try:
        top = store.count()
        with store.sessions() as session:
            highest = session.scalar(select(func.max(MessageRow.id)))
        raw = b"From: a@b.example\r\nTo: c@d.example\r\nSubject: after\r\n\r\nhi\r\n"
        from mailmoat.store.messages import Incoming

        store.ingest_many([Incoming(raw, "eml")], "local")
        assert store.count() == top + 1
        with store.sessions() as session:
            assert session.scalar(select(func.max(MessageRow.id))) == (highest or 0) + 1
    finally:
        store.engine.dispose()
    # A second restore into the now occupied schema is refused without --force.
    with pytest.raises(BackupError, match="holds tables"):
        restore_backup(archive, url=target)
    forced = restore_backup(archive, url=target, force=True)
    assert forced.tables == report.tables


def test_manifest_counts_every_table(env: str, tmp_path: Path) -> None:
    _deployment(env)
    archive = tmp_path / "mm.tar.gz"
    create_backup(archive)
    with tarfile.open(archive, "r:gz") as tar:
        manifest = json.loads(tar.extractfile("manifest.json").read())  # type: ignore[union-attr]
    assert manifest["format"] == "mailmoat-backup/1"
    assert manifest["database"]["tables"]["messages"] == 16
    assert "alembic_version" not in manifest["database"]["tables"]
