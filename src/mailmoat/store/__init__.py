"""Persistence: the database, the tables, repositories per aggregate, Alembic migrations.

db            engines, migrations (one Alembic head), StoreError
tables/       one module per area, one registration (Alembic's env.py reads it)
messages      messages and their decisions: save with a Decider's traces, read, list
mailbox_state live-mailbox state: folders, locations, server actions pending
repos         Repos: one small object over the repositories below (web, notify/, the CLI)
users user_sessions login_failures   who may sign in, their sessions, failed sign-ins
secrets settings senders   sealed named secrets, per-account settings, per-sender choices
decisions notifications summaries   a person's relabel and undo, the notification log and
              push subscriptions, small per-account message reads
leases        leases shared by workers (compare-and-set) and the record of every grant
id_sets       chunked id queries
decision_queue  the home page's rows: a lane's newest mail with its trace and read state
read_state    a person's read / unread toggle (messages.seen)
search        search by subject, sender and preview (FTS5 / PostgreSQL full text, 0018)
sending_address  the address an account sends as (the approval page's From)
demo_mailbox  whether an account holds demo mail only; taking one out of a person's view

May import: core/ only. It persists and never decides: the lane of a new message comes from
the Decider services/ingest.py hands it.
"""

from mailmoat.store.db import StoreError
from mailmoat.store.messages import Incoming, IngestResult, Store, open_store

__all__ = ["Incoming", "IngestResult", "Store", "StoreError", "open_store"]
