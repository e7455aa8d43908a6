"""Persistence: SQLAlchemy models, the repository, Alembic migrations."""

from mailmoat.store.db import StoreError
from mailmoat.store.messages import Incoming, IngestResult, Store, open_store

__all__ = ["Incoming", "IngestResult", "Store", "StoreError", "open_store"]
