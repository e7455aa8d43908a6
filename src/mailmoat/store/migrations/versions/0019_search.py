"""Search over stored mail: subject, sender (name and address) and the preview.

SQLite: an FTS5 table over those columns of `messages` (external content, so the text is not
stored twice), kept in step by triggers on insert, update of those columns, and delete.
PostgreSQL: a stored generated column `search_doc`, the tsvector of the same columns (the
`simple` configuration: no stemming, so any language is found as written), with a GIN index.
Stored, not an expression index: the planner may also walk the newest mail by id and test
each row's vector (the fast way for a common word), and that test must not re-parse the
text of every row it reads. Existing mail is indexed by the upgrade.

Revision ID: 0019_search
"""

from __future__ import annotations

from alembic import op

revision = "0019_search"
down_revision = "0018_message_views"
branch_labels = None
depends_on = None

PG_DOCUMENT = ("to_tsvector('simple', coalesce(subject, '') || ' ' || coalesce(from_name, '') "
               "|| ' ' || coalesce(from_addr, '') || ' ' || coalesce(snippet, ''))")
_COLUMNS = "subject, from_name, from_addr, snippet"


def _sqlite_statements() -> list[str]:
    new = "new.subject, new.from_name, new.from_addr, new.snippet"
    old = "old.subject, old.from_name, old.from_addr, old.snippet"
    insert_new = f"INSERT INTO messages_fts(rowid, {_COLUMNS}) VALUES (new.id, {new});"
    delete_old = (f"INSERT INTO messages_fts(messages_fts, rowid, {_COLUMNS}) "
                  f"VALUES ('delete', old.id, {old});")
    return [
        f"CREATE VIRTUAL TABLE messages_fts USING fts5({_COLUMNS}, content='messages', "
        "content_rowid='id', tokenize='unicode61 remove_diacritics 2')",
        "INSERT INTO messages_fts(messages_fts) VALUES ('rebuild')",
        f"CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN {insert_new} END",
        f"CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN {delete_old} END",
        f"CREATE TRIGGER messages_fts_update AFTER UPDATE OF {_COLUMNS} ON messages "
        f"BEGIN {delete_old} {insert_new} END",
    ]


def upgrade() -> None:
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        for statement in _sqlite_statements():
            op.execute(statement)
    elif dialect == "postgresql":
        op.execute(f"ALTER TABLE messages ADD COLUMN search_doc tsvector "
                   f"GENERATED ALWAYS AS ({PG_DOCUMENT}) STORED")
        op.execute("CREATE INDEX ix_messages_search ON messages USING gin (search_doc)")


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        for name in ("insert", "delete", "update"):
            op.execute(f"DROP TRIGGER IF EXISTS messages_fts_{name}")
        op.execute("DROP TABLE IF EXISTS messages_fts")
    elif dialect == "postgresql":
        op.execute("DROP INDEX IF EXISTS ix_messages_search")
        op.execute("ALTER TABLE messages DROP COLUMN IF EXISTS search_doc")
