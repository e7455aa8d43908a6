"""The database side of backup and restore: a consistent snapshot out, the same rows back in.

SQLite: the file itself, copied page by page with SQLite's online backup API (a consistent
snapshot even while a sync writes; the WAL is folded in) and checked with `PRAGMA
integrity_check`. PostgreSQL: every table's rows as JSON lines, read in one REPEATABLE READ
transaction (one snapshot), and written back into an empty schema migrated to the backup's
revision, then migrated to head. Persists only: what to back up and when to refuse is
services/backup.py's.
"""

from __future__ import annotations

import base64
import json
import sqlite3
from collections.abc import Iterable, Iterator
from datetime import date, datetime, time
from decimal import Decimal
from pathlib import Path
from typing import IO, Any

from sqlalchemy import (
    Date,
    DateTime,
    Engine,
    LargeBinary,
    MetaData,
    Table,
    Time,
    insert,
    inspect,
    select,
    text,
)
from sqlalchemy.engine import make_url

from mailmoat.store.db import StoreError, migrate

VERSION_TABLE = "alembic_version"
INSERT_BATCH = 500


def sqlite_file(url: str) -> Path | None:
    """The database file of a SQLite URL; None for any other database."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return None
    if not parsed.database or parsed.database == ":memory:":
        raise StoreError("an in-memory SQLite database cannot be backed up or restored")
    return Path(parsed.database)


def _read_only(path: Path) -> sqlite3.Connection:
    """A read-only connection (a URI, percent-encoded: any file name is safe)."""
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)


def snapshot_sqlite(source: Path, dest: Path) -> None:
    """A consistent copy of a live SQLite database (online backup API)."""
    if not source.is_file():
        raise StoreError(f"no database at {source}")
    src = _read_only(source)
    try:
        out = sqlite3.connect(dest)
        try:
            src.backup(out)
            out.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        finally:
            out.close()
    finally:
        src.close()


def sqlite_check(path: Path) -> str:
    """'ok', or what SQLite's integrity check found wrong."""
    try:
        db = _read_only(path)
        try:
            rows = db.execute("PRAGMA integrity_check").fetchall()
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        return f"not a SQLite database ({exc})"
    found = "; ".join(str(r[0]) for r in rows)
    return "ok" if found == "ok" else found


def sqlite_revision(path: Path) -> str | None:
    db = _read_only(path)
    try:
        row = db.execute(f"SELECT version_num FROM {VERSION_TABLE}").fetchone()
    except sqlite3.DatabaseError:
        return None
    finally:
        db.close()
    return None if row is None else str(row[0])


def sqlite_counts(path: Path) -> dict[str, int]:
    db = _read_only(path)
    try:
        names = [r[0] for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' "
            "ORDER BY name")]
        return {n: int(db.execute(f'SELECT count(*) FROM "{n}"').fetchone()[0])
                for n in names if n != VERSION_TABLE}
    finally:
        db.close()


def holds_data(engine: Engine) -> bool:
    """True when the database has any table at all (a schema in use, even an empty one)."""
    return bool(inspect(engine).get_table_names())


def revision(engine: Engine) -> str | None:
    with engine.connect() as conn:
        if VERSION_TABLE not in inspect(conn).get_table_names():
            return None
        return conn.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar()


def _tables(engine: Engine) -> list[Table]:
    meta = MetaData()
    meta.reflect(engine)
    return [t for t in meta.sorted_tables if t.name != VERSION_TABLE]


def _encode(value: Any) -> Any:
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, bytes | memoryview):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, Decimal):
        return str(value)
    return value


def _decoder(column: Any) -> Any:
    kind = column.type
    if isinstance(kind, DateTime):
        return datetime.fromisoformat
    if isinstance(kind, Date):
        return date.fromisoformat
    if isinstance(kind, Time):
        return time.fromisoformat
    if isinstance(kind, LargeBinary):
        return base64.b64decode
    return None


def dump_rows(engine: Engine, out: IO[bytes]) -> tuple[str, dict[str, int]]:
    """Every table's rows as JSON lines (`{"t": table, "r": {column: value}}`) from one
    snapshot; returns the schema revision and the row count per table."""
    counts: dict[str, int] = {}
    snapshot = {"isolation_level": "REPEATABLE READ"} \
        if engine.dialect.name == "postgresql" else {}
    with engine.connect().execution_options(**snapshot) as conn, conn.begin():
        found = conn.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar()
        if found is None:
            raise StoreError("the database has no schema revision: nothing to back up")
        for table in _tables(engine):
            n = 0
            # Generated columns (messages.search_doc, migration 0019) are the database's
            # own: never dumped, recomputed when the rows go back in.
            stored = [c for c in table.columns if c.computed is None]
            for row in conn.execute(select(*stored).execution_options(
                    stream_results=True, yield_per=1000)).mappings():
                line = {"t": table.name, "r": {k: _encode(v) for k, v in row.items()}}
                out.write(json.dumps(line, ensure_ascii=False).encode("utf-8") + b"\n")
                n += 1
            counts[table.name] = n
    return str(found), counts


def load_rows(engine: Engine, at_revision: str, lines: Iterable[bytes]) -> dict[str, int]:
    """Into an empty database: migrate to `at_revision`, insert the dumped rows, move the
    id sequences past them, then migrate to head. Returns the rows written per table."""
    if holds_data(engine):
        raise StoreError("the target database is not empty")
    migrate(engine, at_revision)
    tables = {t.name: t for t in _tables(engine)}
    counts: dict[str, int] = dict.fromkeys(tables, 0)
    with engine.begin() as conn:
        for name, rows in _batches(lines, tables):
            conn.execute(insert(tables[name]), rows)
            counts[name] += len(rows)
        if engine.dialect.name == "postgresql":
            _advance_sequences(conn, tables.values())
    migrate(engine)
    return counts


def _batches(lines: Iterable[bytes], tables: dict[str, Table]
             ) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    decoders = {name: {c.name: _decoder(c) for c in t.columns} for name, t in tables.items()}
    current: str | None = None
    batch: list[dict[str, Any]] = []
    for raw in lines:
        if not raw.strip():
            continue
        line = json.loads(raw)
        name, row = line["t"], line["r"]
        if name not in tables:
            raise StoreError(f"the backup has rows for a table this schema lacks: {name}")
        for key, decode in decoders[name].items():
            if decode is not None and row.get(key) is not None:
                row[key] = decode(row[key])
        if name != current or len(batch) >= INSERT_BATCH:
            if batch:
                yield current or name, batch
            current, batch = name, []
        batch.append(row)
    if batch and current is not None:
        yield current, batch


def _advance_sequences(conn: Any, tables: Iterable[Table]) -> None:
    for table in tables:
        for column in table.primary_key.columns:
            seq = conn.execute(text("SELECT pg_get_serial_sequence(:t, :c)"),
                               {"t": table.name, "c": column.name}).scalar()
            if seq:
                conn.execute(text(
                    f'SELECT setval(:s, COALESCE((SELECT max("{column.name}") FROM '
                    f'"{table.name}"), 0) + 1, false)'), {"s": seq})


def drop_all(engine: Engine) -> None:
    """Every table (and trigger function) in the database, or in the schema the URL's
    search_path names, for a forced restore."""
    meta = MetaData()
    meta.reflect(engine)
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            for table in meta.sorted_tables:
                conn.exec_driver_sql(f'DROP TABLE IF EXISTS "{table.name}" CASCADE')
            # The migrations' trigger functions (append-only tables) live beside the tables.
            for name in conn.execute(text(
                    "SELECT p.proname FROM pg_proc p JOIN pg_namespace n "
                    "ON n.oid = p.pronamespace WHERE n.nspname = current_schema() "
                    "AND p.prorettype = 'trigger'::regtype")).scalars():
                conn.exec_driver_sql(f'DROP FUNCTION IF EXISTS "{name}"() CASCADE')
        else:
            meta.drop_all(conn)

