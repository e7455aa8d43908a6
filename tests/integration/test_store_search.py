"""Search over subject, sender and preview through migration 0019_search's index: FTS5 on
SQLite, a stored tsvector column with a GIN index on PostgreSQL (both databases)."""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from sqlalchemy import text

from mailmoat.demo import import_demo
from mailmoat.services.bootstrap import open_store
from mailmoat.store.db import MIGRATIONS
from mailmoat.store.search import query_words, search
from tests.support.act_support import incoming


def _subjects(found: list[dict[str, object]]) -> list[object]:
    return [r["subject"] for r in found]


def test_search_finds_by_subject_sender_and_preview_in_one_account(store_url: str) -> None:
    store = open_store(store_url)
    import_demo(store)
    ana = store.ingest(incoming("Ana Sørensen <ana@client.example>", subject="Quarterly deck",
                                body="The numbers for Zürich are in."), "eml").message_id
    store.ingest(incoming("Bo <bo@other.example>", subject="Quarterly deck (theirs)",
                          message_id="<b@x>"), "eml", account="bob")
    assert _subjects(search(store, "local", "quarterly")) == ["Quarterly deck"]
    assert [r["id"] for r in search(store, "local", "Quart")] == [ana]  # a word prefix
    assert [r["id"] for r in search(store, "local", "ana@client.example")] == [ana]
    assert [r["id"] for r in search(store, "local", "Sørensen")] == [ana]
    assert [r["id"] for r in search(store, "local", "zürich numbers")] == [ana]  # preview
    assert search(store, "local", "quarterly nowhere") == []  # every word must match
    assert _subjects(search(store, "bob", "quarterly")) == ["Quarterly deck (theirs)"]
    found = search(store, "local", "checkout")
    assert found and found[0]["lane"] == "PUSH" and found[0]["trace"]["branch"]
    # Operators and quotes are words, never syntax.
    for hostile in ('"', "a OR b*", "NEAR(x y)", "' | !", "-", ":*", "x' & 'y"):
        search(store, "local", hostile)  # no syntax error
    assert query_words('ana" OR x:*') == ["ana", "OR", "x"]
    # Later changes are indexed: the triggers (SQLite), the generated column (PostgreSQL).
    with store.sessions.begin() as session:
        session.execute(text("UPDATE messages SET subject = 'Renamed thing' WHERE id = :i"),
                        {"i": ana})
    assert search(store, "local", "quarterly") == []
    assert [r["id"] for r in search(store, "local", "renamed")] == [ana]


def test_the_index_is_used_and_the_migration_goes_down_and_up(store_url: str) -> None:
    store = open_store(store_url)
    import_demo(store)
    with store.engine.connect() as conn:
        if store.engine.dialect.name == "postgresql":
            conn.execute(text("SET enable_seqscan = off"))
            plan = "\n".join(r[0] for r in conn.execute(text(
                "EXPLAIN SELECT id FROM messages WHERE search_doc @@ "
                "to_tsquery('simple', 'checkout:*')")))
            assert "ix_messages_search" in plan, plan
        else:
            plan = " ".join(str(r[-1]) for r in conn.execute(text(
                "EXPLAIN QUERY PLAN SELECT rowid FROM messages_fts WHERE messages_fts "
                "MATCH 'checkout'")))
            assert "VIRTUAL TABLE INDEX" in plan, plan
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with store.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0018_message_views")
    store.engine.dispose()
    again = open_store(store_url)  # the next start upgrades again and indexes what is there
    assert search(again, "local", "checkout")
