"""Alembic environment: run programmatically by `mailmoat.store.db.migrate`."""

from __future__ import annotations

from alembic import context

from mailmoat.store.tables import Base  # the one registration of every table

config = context.config
connection = config.attributes.get("connection")
if connection is None:  # pragma: no cover - we always pass a connection
    raise RuntimeError("mailmoat migrations run through mailmoat.store.db.migrate()")

context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
