"""Search over stored mail by subject, sender and preview, through the index migration
0019_search made: FTS5 on SQLite, a stored tsvector column with a GIN index on PostgreSQL.
Every word of the query must match (as a word prefix), newest first, one account only.
Persists nothing."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import text

from mailmoat.store.messages import Store

MAX_WORDS = 8
_WORD = re.compile(r"[\w@.+-]+")
_EDGE = ".+-@"


def query_words(query: str) -> list[str]:
    """The words searched for: letters, digits and the characters of an address; nothing
    the FTS5 or tsquery syntax would read as an operator survives."""
    words = (w.strip(_EDGE) for w in _WORD.findall(query[:500]))
    return [w for w in words if w][:MAX_WORDS]


def _fts5_query(words: list[str]) -> str:
    # Each word a quoted phrase (FTS5 splits "ana@client.example" into adjacent tokens) with
    # a prefix star; juxtaposed phrases must all match.
    return " ".join(f'"{w}"*' for w in words)


def _tsquery(words: list[str]) -> str:
    return " & ".join(f"'{w}':*" for w in words)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def search(store: Store, account: str, query: str, limit: int = 50) -> list[dict[str, Any]]:
    """Messages of `account` matching every word of `query`, newest first."""
    words = query_words(query)
    if not words:
        return []
    columns = ("m.id, m.from_name, m.from_addr, m.subject, m.snippet, m.created_at, m.seen, "
               "d.lane, d.trace")
    if store.engine.dialect.name == "postgresql":
        sql = text(f"SELECT {columns} FROM messages m LEFT JOIN decisions d "
                   "ON d.message_id = m.id WHERE m.account = :account AND "
                   # search_doc: the stored tsvector migration 0018 indexes (GIN)
                   "m.search_doc @@ to_tsquery('simple', :q) ORDER BY m.id DESC LIMIT :limit")
        params: dict[str, Any] = {"account": account, "q": _tsquery(words), "limit": limit}
    else:
        sql = text(f"SELECT {columns} FROM messages_fts f JOIN messages m ON m.id = f.rowid "
                   "LEFT JOIN decisions d ON d.message_id = m.id "
                   "WHERE messages_fts MATCH :q AND m.account = :account "
                   # FTS5 hands rowids out in order: newest first with no sort of all hits.
                   "ORDER BY f.rowid DESC LIMIT :limit")
        params = {"account": account, "q": _fts5_query(words), "limit": limit}
    with store.sessions() as session:
        rows = session.execute(sql, params).mappings().all()
    return [{"id": r["id"], "from_name": r["from_name"], "from_addr": r["from_addr"],
             "subject": r["subject"], "snippet": r["snippet"],
             "received": _aware(_datetime(r["created_at"])), "seen": r["seen"],
             "lane": r["lane"], "trace": _json(r["trace"])} for r in rows]


def _datetime(value: Any) -> datetime:
    # Raw SQL on SQLite hands back the stored text, not a datetime.
    return value if isinstance(value, datetime) else datetime.fromisoformat(str(value))


def _json(value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if isinstance(value, dict):
        return value
    import orjson

    loaded = orjson.loads(value)
    return loaded if isinstance(loaded, dict) else {}
