"""Engine, connection settings and migrations, and the few helpers every repository shares
(the time now, naive SQLite datetimes read back as UTC, a transaction-scoped lock)."""

from __future__ import annotations

import contextlib
import os
import stat
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
from alembic import command
from alembic.config import Config
from platformdirs import user_data_dir
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

MIGRATIONS = Path(__file__).parent / "migrations"
ENV_URL = "MAILMOAT_DATABASE_URL"


class StoreError(RuntimeError):
    """The store cannot be opened or migrated; the message says what to fix."""


def now() -> datetime:
    return datetime.now(UTC)


def aware(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes for timezone-aware columns; they were stored as UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def serialise(session: Session, key: int) -> None:
    """A transaction-scoped PostgreSQL advisory lock on `key`; on SQLite the first write of a
    transaction takes the database's write lock, which serialises the same way."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": key})


class Refused(Exception):
    """Raised inside a transaction to roll it back."""


def default_url() -> str:
    url = os.environ.get(ENV_URL)
    if url:
        return url
    data = Path(user_data_dir("mailmoat", appauthor=False))
    private_dir(data)
    return f"sqlite:///{data / 'mailmoat.db'}"


def private_dir(path: Path) -> None:
    """The data directory holds every mail: created 0700, and tightened to it if looser."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    if stat.S_IMODE(path.stat().st_mode) & 0o077:
        path.chmod(0o700)


def private_sqlite_file(url: str) -> None:
    """Create the SQLite file 0600 before SQLite does (it would use the umask, often 0644,
    and its -wal and -shm files copy the database file's mode); tighten an existing one."""
    try:
        database = make_url(url).database
    except Exception:  # a bad URL: create_engine reports it
        return
    if not database or database == ":memory:" or database.startswith("file:"):
        return
    path = Path(database)
    if not path.parent.is_dir():
        return  # a missing directory stays an error (open_store reports it)
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    for name in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        if name.exists() and stat.S_IMODE(name.stat().st_mode) & 0o077:
            name.chmod(0o600)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL lets the web page read while a sync writes; the busy timeout rides out short locks.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    # Freed pages are zeroed: a secret sealed in place or a deleted mail leaves no old bytes
    # in the file (most builds default to this; say it so every build does).
    cursor.execute("PRAGMA secure_delete=ON")
    cursor.close()


def _json_dumps(value: Any) -> str:
    # Every JSON column (decision traces twice per message, labels, flags) goes through
    # here; orjson costs a fraction of the stdlib encoder, which was 7% of a sync's CPU in
    # the syncing process. Non-string keys become strings, as the stdlib does them.
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def make_engine(url: str | None = None) -> Engine:
    url = url or default_url()
    json_codec = {"json_serializer": _json_dumps, "json_deserializer": orjson.loads}
    try:
        if url.startswith("sqlite"):
            private_sqlite_file(url)
            engine = create_engine(url, connect_args={"check_same_thread": False}, **json_codec)
            event.listen(engine, "connect", _sqlite_pragmas)
        else:
            engine = create_engine(url, pool_pre_ping=True, **json_codec)
    except Exception as exc:  # bad URL, missing driver
        raise StoreError(f"cannot open database: {type(exc).__name__}: {exc}") from exc
    return engine


def migrate(engine: Engine, revision: str = "head") -> None:
    """Bring the schema to the newest revision (run on every start), or to `revision` (a
    restore loads rows at the revision they were backed up at, then migrates to head)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    try:
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, revision)  # one head: 0013_one_head joins the old branches
    except Exception as exc:
        safe = engine.url.render_as_string(hide_password=True)
        raise StoreError(f"cannot migrate {safe}: {type(exc).__name__}: {exc}") from exc
