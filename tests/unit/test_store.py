"""The store on SQLite and on the real PostgreSQL server."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select, text
from sqlalchemy.exc import DBAPIError

from mailmoat.demo import demo_messages, import_demo
from mailmoat.services.bootstrap import open_store
from mailmoat.store import Incoming, StoreError
from mailmoat.store.tables.messages import DecisionRow, MessageRow
from tests.conftest import table_indexes


def test_migrates_fresh_and_reopens(store_url: str) -> None:
    store = open_store(store_url)
    assert store.count() == 0
    again = open_store(store_url)  # migrations are idempotent
    assert again.count() == 0
    with store.engine.connect() as conn:
        version = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
    assert version is not None


def test_ingest_is_idempotent_and_ledgered(store_url: str) -> None:
    store = open_store(store_url)
    first = import_demo(store)
    assert all(r.created for r in first)
    second = import_demo(store)
    assert not any(r.created for r in second)
    assert [r.message_id for r in first] == [r.message_id for r in second]
    assert store.count() == len(demo_messages())
    counts = store.lane_counts()
    assert sum(counts.values()) == store.count()
    assert set(counts) == {"PUSH", "MEETING", "QUEUE", "INFO", "SILENT"}
    ledger = store.ledger(first[0].message_id)
    assert [e["event"] for e in ledger] == ["decided"]
    assert ledger[0]["trace"]["input_hash"]


def test_same_bytes_twice_in_one_batch(store_url: str) -> None:
    store = open_store(store_url)
    raw = demo_messages()[0]
    results = store.ingest_many([Incoming(raw, "eml"), Incoming(raw, "eml")])
    assert [r.created for r in results] == [True, False]
    assert results[0].message_id == results[1].message_id
    assert store.count() == 1


def test_accounts_are_separate(store_url: str) -> None:
    store = open_store(store_url)
    raw = demo_messages()[0]
    a = store.ingest(raw, "eml", account="alice")
    b = store.ingest(raw, "eml", account="bob")
    assert a.created and b.created and a.message_id != b.message_id
    assert store.get_message(a.message_id, account="bob") is None
    assert store.lane_counts("alice") == store.lane_counts("bob")


def test_ledger_is_append_only_in_the_database(store_url: str) -> None:
    store = open_store(store_url)
    import_demo(store)
    for statement in ("UPDATE decision_ledger SET lane = 'SILENT'", "DELETE FROM decision_ledger"):
        with pytest.raises(DBAPIError, match="append-only"), store.engine.begin() as conn:
            conn.execute(text(statement))
    assert len(store.ledger(1)) == 1


def test_read_path_detects_stale_decisions(store_url: str) -> None:
    store = open_store(store_url)
    mid = import_demo(store)[0].message_id
    fresh = store.get_message(mid)
    assert fresh is not None and fresh["stale"] is False
    with store.sessions.begin() as session:
        row = session.get(MessageRow, mid)
        assert row is not None
        row.raw = row.raw.replace(b"checkout", b"invoices")  # the bytes changed under us
    tampered = store.get_message(mid)
    assert tampered is not None and tampered["stale"] is True
    with store.sessions.begin() as session:
        decision = session.get(DecisionRow, mid)
        assert decision is not None
        decision.input_hash = "0" * 64
    assert store.get_message(mid)["stale"] is True  # type: ignore[index]


def test_list_messages_newest_first_with_features(store_url: str) -> None:
    store = open_store(store_url)
    import_demo(store)
    rows = store.list_messages("PUSH")
    # The demo's two urgent mails from people; its wire request (a stranger asking to confirm
    # account details) is a cold contact and waits in QUEUE.
    assert len(rows) == 2
    assert [r["id"] for r in rows] == sorted((r["id"] for r in rows), reverse=True)
    assert set(rows[0]["features"]) == {"confidence", "sender_trust", "reversibility", "urgency"}
    assert store.list_messages("PUSH", limit=1, offset=1)[0]["id"] == rows[1]["id"]


def test_bad_url_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="cannot"):
        open_store("nosuchdb://x")
    with pytest.raises(StoreError):
        open_store(f"sqlite:///{tmp_path}/missing/dir/x.db")


def test_sqlite_runs_in_wal_mode(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'w.db'}")
    with store.engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"


def test_json_columns_round_trip_through_the_engine_codec(store_url: str) -> None:
    """The engine's JSON codec (orjson) keeps what the stdlib encoder kept: unicode as is,
    non-string keys as strings, and the stored trace reads back equal."""
    from mailmoat.store.db import _json_dumps

    assert _json_dumps({1: "é", "k": [1.5, None, True]}) == '{"1":"é","k":[1.5,null,true]}'
    store = open_store(store_url)
    result = store.ingest_many([Incoming(demo_messages()[0], "demo", labels=("Ünïcode",))])[0]
    with store.sessions() as session:
        row = session.get(MessageRow, result.message_id)
        decision = session.get(DecisionRow, result.message_id)
        assert row is not None and decision is not None
        assert row.labels == ["Ünïcode"]
        stored = decision.trace
    assert stored == store.get_message(result.message_id, "local")["trace"]
    assert stored["lane"] == result.lane and isinstance(stored["features"]["urgency"], float)


def _indexes(store_url: str) -> set[str]:
    return table_indexes(store_url, "messages")


def test_sender_index_migration_goes_down_and_up_with_the_data(store_url: str) -> None:
    from alembic import command
    from alembic.config import Config

    from mailmoat.store.db import MIGRATIONS

    store = open_store(store_url)
    import_demo(store)
    assert {"ix_messages_account_from"} <= _indexes(store_url)
    assert "ix_learn_messages_account_from" not in _indexes(store_url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with store.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0010_learn_undo")
    assert "ix_messages_account_from" not in _indexes(store_url)
    assert "ix_learn_messages_account_from" in _indexes(store_url)
    store.engine.dispose()
    again = open_store(store_url)  # the next start upgrades again
    assert "ix_messages_account_from" in _indexes(store_url)
    assert again.count() == len(demo_messages())


def test_sender_facts_are_read_from_the_sender_index_alone(tmp_path: Path) -> None:
    """Sender facts are read for every stored batch: if a query left the covering index,
    SQLite would read each message row, walking past its raw bytes, and a sync batch would
    cost more the bigger the mailbox (migration 0011)."""
    from datetime import UTC, datetime

    from sqlalchemy import event

    from mailmoat.learn.history import load_sender_facts

    store = open_store(f"sqlite:///{tmp_path / 'm.db'}")
    import_demo(store)
    with store.sessions() as session:
        senders = list(session.scalars(select(MessageRow.from_addr)))
    seen: list[tuple[str, object]] = []
    event.listen(store.engine, "before_cursor_execute",
                 lambda _c, _cur, stmt, params, _ctx, _many: seen.append((stmt, params)))
    with store.sessions() as session:
        facts = load_sender_facts(session, "local", senders, datetime.now(UTC))
        assert facts, "the demo senders have history"
        queries = list(seen)
        plans = [(stmt, " ".join(str(step[-1]) for step in session.connection().exec_driver_sql(
                     f"EXPLAIN QUERY PLAN {stmt}", params)))
                 for stmt, params in queries if "FROM messages" in stmt]
    assert len(plans) == 2
    for stmt, plan in plans:
        assert "COVERING INDEX ix_messages_account_from" in plan, (stmt, plan)
