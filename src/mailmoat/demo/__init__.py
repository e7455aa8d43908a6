"""The demo mailbox: realistic sample messages covering every lane, shipped in the package.

May import: store/ (it ingests through a store opened by services/bootstrap.py).
"""

from __future__ import annotations

from importlib import resources

from mailmoat.store.messages import Incoming, IngestResult, Store


def demo_messages() -> list[bytes]:
    folder = resources.files(__package__)
    return [
        entry.read_bytes()
        for entry in sorted(folder.iterdir(), key=lambda e: e.name)
        if entry.name.endswith(".eml")
    ]


def import_demo(store: Store, account: str = "local") -> list[IngestResult]:
    return store.ingest_many(
        [Incoming(raw, "demo", folder="INBOX") for raw in demo_messages()], account
    )
