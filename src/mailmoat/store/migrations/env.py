"""Alembic environment: run programmatically by `mailmoat.store.db.migrate`."""

from __future__ import annotations

from alembic import context

import mailmoat.store.judge_models  # (registers the judge tables on Base)
import mailmoat.store.mcp_models  # noqa: F401  (registers the MCP agent table)
from mailmoat.store import accounts_models as _accounts_models  # noqa: F401  (live-mailbox tables)
from mailmoat.store import (
    calendar_models,  # noqa: F401  (calendars and synced events)
    learn_models,  # noqa: F401  (registers the learning tables)
)
from mailmoat.store.models import Base

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
