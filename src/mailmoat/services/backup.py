"""Backup and restore of one deployment: the database and the key ring, in one archive.

The archive is a gzip'd tar written 0600 (it holds every mail and the key that opens the
sealed account secrets) with three members: `manifest.json` (format, versions, schema
revision, row counts, key ids, and the sha256 and size of every other member), the database
(`database.sqlite`, a consistent SQLite snapshot; or `database.jsonl`, PostgreSQL rows from
one snapshot) and `secret.key` (the key ring in the key file's format). `restore` checks the
whole archive before it touches anything: every member listed with the right hash and size,
nothing else in it, the SQLite snapshot passes its integrity check. It refuses to replace a
database that holds anything, or a key file with other keys, without `force`; forced, the
old SQLite file and key file are kept beside the new ones (`*.before-restore-<time>`).
After a restore every sealed account and calendar secret is opened with the key ring the
deployment will use, so a restore that could not open them says so at once.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import shutil
import tarfile
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from mailmoat import __version__
from mailmoat.accounts.registry import AccountError, list_accounts, open_secret
from mailmoat.accounts.secrets import (
    ENV_KEY,
    KeyRing,
    SecretKeyError,
    decode_key,
    default_key_file,
    encode_key,
    key_id,
    load_key_ring,
)
from mailmoat.services.bootstrap import open_store
from mailmoat.store import StoreError
from mailmoat.store import backup as db_backup
from mailmoat.store.db import default_url, make_engine

FORMAT = "mailmoat-backup/1"
MANIFEST = "manifest.json"
SQLITE_MEMBER = "database.sqlite"
ROWS_MEMBER = "database.jsonl"
KEY_MEMBER = "secret.key"
CHUNK = 1024 * 1024


class BackupError(RuntimeError):
    """A backup or restore refused or failed; the message says why and what to do."""


@dataclass(frozen=True)
class BackupReport:
    path: Path
    database: str  # sqlite | postgresql
    revision: str
    tables: dict[str, int]
    key_ids: tuple[str, ...]
    size: int


@dataclass(frozen=True)
class RestoreReport:
    database: str
    target: str  # the database URL, password hidden
    revision: str
    tables: dict[str, int]
    key_file: Path | None
    secrets_opened: int
    kept: list[Path] = field(default_factory=list)  # the files a forced restore set aside
    notes: list[str] = field(default_factory=list)


def _safe_url(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def _sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _private_file(path: Path) -> IO[bytes]:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    return os.fdopen(fd, "wb")


# -- backup ---------------------------------------------------------------------------------


def create_backup(out: Path, url: str | None = None, ring: KeyRing | None = None,
                  force: bool = False, with_key: bool = True) -> BackupReport:
    """Write the archive to `out` (refusing an existing file unless `force`)."""
    if out.exists() and not force:
        raise BackupError(f"{out} exists; choose another file or pass --force to replace it")
    if out.is_dir():
        raise BackupError(f"{out} is a directory; give a file name, e.g. {out}/mailmoat.tar.gz")
    url = url or default_url()
    if with_key:
        try:
            ring = ring or load_key_ring(create=False)
        except SecretKeyError as exc:
            raise BackupError(f"cannot read the key ring: {exc}") from None
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".mailmoat-backup-", dir=out.parent) as tmp:
        work = Path(tmp)
        kind, member, revision, tables = _snapshot(url, work)
        files = {member: work / member}
        if with_key and ring is not None:
            key_path = work / KEY_MEMBER
            with _private_file(key_path) as handle:
                handle.write("".join(encode_key(k) + "\n" for k in ring.keys).encode("ascii"))
            files[KEY_MEMBER] = key_path
        key_ids = tuple(key_id(k) for k in ring.keys) if with_key and ring is not None else ()
        manifest: dict[str, Any] = {
            "format": FORMAT,
            "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "mailmoat": __version__,
            "database": {"kind": kind, "member": member, "revision": revision,
                         "tables": tables},
            "key": {"member": KEY_MEMBER, "ids": list(key_ids)} if key_ids else None,
            "files": {name: {"sha256": _sha256_file(p), "bytes": p.stat().st_size}
                      for name, p in files.items()},
        }
        partial = work / "archive.tar.gz"
        with _private_file(partial) as raw, tarfile.open(fileobj=raw, mode="w:gz") as tar:
            _add_bytes(tar, MANIFEST, json.dumps(manifest, indent=2).encode("utf-8"))
            for name, path in files.items():
                info = tar.gettarinfo(str(path), arcname=name)
                info.uid = info.gid = 0
                info.uname = info.gname = ""
                info.mode = 0o600
                with path.open("rb") as handle:
                    tar.addfile(info, handle)
        verify_backup(partial)  # what was written reads back whole
        os.replace(partial, out)
    return BackupReport(out, kind, revision, tables, key_ids, out.stat().st_size)


def _snapshot(url: str, work: Path) -> tuple[str, str, str, dict[str, int]]:
    try:
        source = db_backup.sqlite_file(url)
        if source is not None:
            dest = work / SQLITE_MEMBER
            db_backup.snapshot_sqlite(source, dest)
            check = db_backup.sqlite_check(dest)
            if check != "ok":
                raise BackupError(f"the database failed its integrity check: {check}")
            revision = db_backup.sqlite_revision(dest)
            if revision is None:
                raise BackupError("the database has no schema revision: nothing to back up")
            return "sqlite", SQLITE_MEMBER, revision, db_backup.sqlite_counts(dest)
        engine = make_engine(url)
        try:
            if engine.dialect.name != "postgresql":
                raise BackupError(f"backup knows SQLite and PostgreSQL, not "
                                  f"{engine.dialect.name}")
            with _private_file(work / ROWS_MEMBER) as handle:
                revision, tables = db_backup.dump_rows(engine, handle)
        finally:
            engine.dispose()
        return "postgresql", ROWS_MEMBER, revision, tables
    except StoreError as exc:
        raise BackupError(str(exc)) from None


def _add_bytes(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mode = 0o600
    info.mtime = int(datetime.now(UTC).timestamp())
    tar.addfile(info, io.BytesIO(data))


# -- verify ---------------------------------------------------------------------------------


def verify_backup(path: Path) -> dict[str, Any]:
    """The manifest of a whole, untampered archive; BackupError saying what is wrong."""
    with _open_archive(path) as tar:
        manifest = _manifest(tar)
        listed = manifest["files"]
        seen: set[str] = set()
        for info in tar:
            if info.name == MANIFEST:
                continue
            if info.name not in listed or not info.isfile() or info.name in seen:
                raise BackupError(f"{path}: unexpected member {info.name!r}; not a mailmoat "
                                  "backup, or altered")
            seen.add(info.name)
            handle = tar.extractfile(info)
            if handle is None:
                raise BackupError(f"{path}: member {info.name!r} cannot be read")
            digest, size = hashlib.sha256(), 0
            while chunk := handle.read(CHUNK):
                digest.update(chunk)
                size += len(chunk)
            want = listed[info.name]
            if digest.hexdigest() != want["sha256"] or size != want["bytes"]:
                raise BackupError(f"{path}: {info.name} does not match its checksum; the "
                                  "archive is damaged or was altered")
        missing = sorted(set(listed) - seen)
        if missing:
            raise BackupError(f"{path}: missing {', '.join(missing)}; the archive is incomplete")
    return manifest


def _open_archive(path: Path) -> tarfile.TarFile:
    if not path.is_file():
        raise BackupError(f"no backup file at {path}")
    try:
        return tarfile.open(path, mode="r:gz")
    except (tarfile.TarError, gzip.BadGzipFile, OSError, EOFError) as exc:
        raise BackupError(f"{path} is not a mailmoat backup (a gzip'd tar): {exc}") from None


def _manifest(tar: tarfile.TarFile) -> dict[str, Any]:
    try:
        member = tar.extractfile(MANIFEST)
        data = json.loads(member.read()) if member is not None else None
    except (KeyError, ValueError, tarfile.TarError, EOFError, OSError):
        data = None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError(f"no {FORMAT} manifest in the archive; not a mailmoat backup")
    if not isinstance(data.get("files"), dict) or not isinstance(data.get("database"), dict):
        raise BackupError("the manifest is incomplete; not a mailmoat backup, or altered")
    return data


# -- restore --------------------------------------------------------------------------------


def restore_backup(path: Path, url: str | None = None, key_file: Path | None = None,
                   force: bool = False) -> RestoreReport:
    """Put the archive's database and key ring in place (see the module docstring)."""
    manifest = verify_backup(path)
    url = url or default_url()
    key_file = key_file or default_key_file()
    db = manifest["database"]
    notes: list[str] = []
    with tempfile.TemporaryDirectory(prefix=".mailmoat-restore-") as tmp:
        work = Path(tmp)
        extracted = _extract(path, manifest, work)
        backed_keys = _read_keys(extracted.get(KEY_MEMBER))
        key_clash = _key_clash(key_file, backed_keys)
        target_sqlite = _target_sqlite(url)
        if db["kind"] == "sqlite":
            check = db_backup.sqlite_check(extracted[SQLITE_MEMBER])
            if check != "ok":
                raise BackupError(f"the database in the archive failed its integrity check: "
                                  f"{check}")
        occupied = _occupied(url, target_sqlite)
        if (occupied or key_clash) and not force:
            what = " and ".join(w for w in (occupied, key_clash) if w)
            raise BackupError(f"{what}: restore replaces what is there only with --force "
                              "(the old files are then kept beside the new ones)")
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        kept: list[Path] = []
        if db["kind"] == "sqlite" and target_sqlite is not None:
            kept += _put_sqlite(extracted[SQLITE_MEMBER], target_sqlite, stamp)
            tables = db_backup.sqlite_counts(target_sqlite)
        else:
            tables = _put_rows(url, db, extracted[db["member"]], force)
        if backed_keys and (key_clash is not None or not key_file.exists()):
            kept += _put_key(key_file, backed_keys, stamp)
        elif not backed_keys:
            notes.append("the archive holds no key ring: the sealed secrets open only with "
                         "the key they were sealed with (MAILMOAT_SECRET_KEY or the key file)")
    if os.environ.get(ENV_KEY) and backed_keys:
        notes.append(f"{ENV_KEY} is set and wins over the restored key file")
    opened = _open_every_secret(url)
    return RestoreReport(db["kind"], _safe_url(url), str(db["revision"]), tables,
                         key_file if backed_keys else None, opened, kept, notes)


def _extract(path: Path, manifest: dict[str, Any], work: Path) -> dict[str, Path]:
    out: dict[str, Path] = {}
    with _open_archive(path) as tar:
        for name in manifest["files"]:
            if "/" in name or name.startswith("."):
                raise BackupError(f"{path}: member name {name!r} refused")
            source = tar.extractfile(name)
            if source is None:
                raise BackupError(f"{path}: member {name!r} cannot be read")
            dest = work / name
            with _private_file(dest) as handle:
                shutil.copyfileobj(source, handle, CHUNK)
            if _sha256_file(dest) != manifest["files"][name]["sha256"]:
                raise BackupError(f"{path}: {name} changed while it was read")
            out[name] = dest
    return out


def _read_keys(path: Path | None) -> tuple[bytes, ...]:
    if path is None:
        return ()
    lines = [ln for ln in path.read_text("ascii").splitlines() if ln.strip()]
    try:
        return tuple(decode_key(line, "the key ring in the backup") for line in lines)
    except SecretKeyError as exc:
        raise BackupError(str(exc)) from None


def _key_clash(key_file: Path, backed: tuple[bytes, ...]) -> str | None:
    """Why writing the backed-up keys would replace other keys; None when it would not."""
    if not backed or not key_file.exists():
        return None
    try:
        present = _read_keys(key_file)
    except (BackupError, OSError, UnicodeDecodeError):
        return f"the key file {key_file} exists"
    return None if present == backed else f"the key file {key_file} holds other keys"


def _target_sqlite(url: str) -> Path | None:
    try:
        return db_backup.sqlite_file(url)
    except StoreError as exc:
        raise BackupError(str(exc)) from None


def _occupied(url: str, sqlite_path: Path | None) -> str | None:
    if sqlite_path is not None:
        if sqlite_path.exists() and sqlite_path.stat().st_size > 0:
            return f"the database {sqlite_path} exists"
        return None
    engine = make_engine(url)
    try:
        return f"the database {_safe_url(url)} holds tables" \
            if db_backup.holds_data(engine) else None
    except Exception as exc:  # unreachable server, bad credentials
        raise BackupError(f"cannot reach {_safe_url(url)}: {type(exc).__name__}") from None
    finally:
        engine.dispose()


def _set_aside(path: Path, stamp: str) -> Path:
    aside = path.with_name(f"{path.name}.before-restore-{stamp}")
    os.replace(path, aside)
    return aside


def _put_sqlite(snapshot: Path, target: Path, stamp: str) -> list[Path]:
    from mailmoat.store.db import private_dir

    if not target.parent.exists():
        private_dir(target.parent)
    kept = []
    staged = target.with_name(f".{target.name}.restoring")
    shutil.copyfile(snapshot, staged)
    staged.chmod(0o600)
    if target.exists():
        kept.append(_set_aside(target, stamp))
    for stale in (Path(f"{target}-wal"), Path(f"{target}-shm")):
        if stale.exists():  # a WAL from the replaced database must not replay onto this one
            kept.append(_set_aside(stale, stamp))
    os.replace(staged, target)
    return kept


def _put_rows(url: str, db: dict[str, Any], rows: Path, force: bool) -> dict[str, int]:
    if db["kind"] != "postgresql":
        raise BackupError("a SQLite backup restores into a SQLite database; set "
                          "MAILMOAT_DATABASE_URL to a sqlite:/// file")
    engine = make_engine(url)
    try:
        if engine.dialect.name != "postgresql":
            raise BackupError("a PostgreSQL backup restores into PostgreSQL; set "
                              "MAILMOAT_DATABASE_URL to a postgresql+psycopg:// URL")
        if force:
            db_backup.drop_all(engine)
        with rows.open("rb") as handle:
            counts = db_backup.load_rows(engine, str(db["revision"]), _lines(handle))
    except StoreError as exc:
        raise BackupError(f"restore into {_safe_url(url)} failed: {exc}") from None
    finally:
        engine.dispose()
    if counts != db["tables"]:
        raise BackupError("the restored row counts differ from the backup's")
    return counts


def _lines(handle: IO[bytes]) -> Iterator[bytes]:
    yield from handle


def _put_key(key_file: Path, keys: tuple[bytes, ...], stamp: str) -> list[Path]:
    kept = [_set_aside(key_file, stamp)] if key_file.exists() else []
    key_file.parent.mkdir(parents=True, exist_ok=True)
    staged = key_file.with_name(f".{key_file.name}.restoring")
    with _private_file(staged) as handle:
        handle.write("".join(encode_key(k) + "\n" for k in keys).encode("ascii"))
    os.replace(staged, key_file)
    return kept


def _open_every_secret(url: str) -> int:
    """Open every sealed account and calendar secret with the key ring this deployment
    loads; BackupError naming the first that does not open."""
    from mailmoat.calendar.registry import CalendarError, list_calendars
    from mailmoat.calendar.registry import open_secret as open_calendar_secret

    try:
        store = open_store(url)
    except StoreError as exc:
        raise BackupError(f"the restored database does not open: {exc}") from None
    try:
        accounts, calendars = list_accounts(store), list_calendars(store)
        if not accounts and not calendars:
            return 0
        ring = load_key_ring(create=False)
        for account in accounts:
            open_secret(store, ring, account.name)
        for calendar in calendars:
            open_calendar_secret(store, ring, calendar.name)
    except (SecretKeyError, AccountError, CalendarError) as exc:
        raise BackupError(f"restored, but a sealed secret does not open: {exc}") from None
    finally:
        store.engine.dispose()
    return len(accounts) + len(calendars)
