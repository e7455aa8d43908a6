"""The tables, one module per area, and their ONE registration.

Importing this package registers every table on `Base.metadata`; the repositories and
Alembic's env.py (store/migrations/env.py) both see the tables through it and nowhere else.

    messages   messages, their current decision, the append-only decision ledger (and Base)
    accounts   live mailboxes: accounts, folder state, message locations, lane actions
    act        proposed actions, approvals, the outbox, the audit trail
    jobs       leases shared by workers and the record of every grant
    judge      judge state: usage, budget, model health
    learn      corrections, learned rules, pins, few-shot examples
    web        people, sessions, settings, sender preferences, notifications, push
    mcp        outside agents: clients, scopes, hashed tokens, limits
    calendar   linked calendars and feeds, their sync state, synced events, meeting proposals

May import: sqlalchemy and core/ only.
"""

from mailmoat.store.tables import accounts, act, calendar, jobs, judge, learn, mcp, messages, web
from mailmoat.store.tables.messages import Base

__all__ = [
    "Base", "accounts", "act", "calendar", "jobs", "judge", "learn", "mcp", "messages", "web",
]
