"""Engine, connection settings and migrations."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import orjson
from alembic import command
from alembic.config import Config
from platformdirs import user_data_dir
from sqlalchemy import Engine, create_engine, event

MIGRATIONS = Path(__file__).parent / "migrations"
ENV_URL = "MAILMOAT_DATABASE_URL"


class StoreError(RuntimeError):
    """The store cannot be opened or migrated; the message says what to fix."""


def default_url() -> str:
    url = os.environ.get(ENV_URL)
    if url:
        return url
    data = Path(user_data_dir("mailmoat", appauthor=False))
    data.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{data / 'mailmoat.db'}"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL lets the web page read while a sync writes; the busy timeout rides out short locks.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
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
            engine = create_engine(url, connect_args={"check_same_thread": False}, **json_codec)
            event.listen(engine, "connect", _sqlite_pragmas)
        else:
            engine = create_engine(url, pool_pre_ping=True, **json_codec)
    except Exception as exc:  # bad URL, missing driver
        raise StoreError(f"cannot open database: {type(exc).__name__}: {exc}") from exc
    return engine


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest revision (run on every start)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    try:
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "head")  # one head: 0013_one_head joins the old branches
    except Exception as exc:
        safe = engine.url.render_as_string(hide_password=True)
        raise StoreError(f"cannot migrate {safe}: {type(exc).__name__}: {exc}") from exc
