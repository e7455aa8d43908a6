"""Import mail from disk into the store in batches, with progress and a per-file error list."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from mailmoat.mail.importer import Found, ReadError, iter_messages
from mailmoat.store.messages import Incoming, Store

BATCH = 200  # messages per transaction at most ...
BATCH_BYTES = 24 * 1024 * 1024  # ... and at most this many raw bytes (one big mail alone)


@dataclass
class ImportSummary:
    imported: int = 0
    already_present: int = 0
    failed: list[ReadError] = field(default_factory=list)
    skipped: list[ReadError] = field(default_factory=list)

    def skipped_by_reason(self) -> list[tuple[str, list[str]]]:
        """The skipped files grouped by why, the most common reason first (then by name),
        each with the files in the order they were met."""
        groups: dict[str, list[str]] = {}
        for skip in self.skipped:
            groups.setdefault(skip.error, []).append(skip.where)
        return sorted(groups.items(), key=lambda item: (-len(item[1]), item[0]))


def import_path(
    store: Store,
    path: Path,
    account: str = "local",
    on_progress: Callable[[int], None] | None = None,
) -> ImportSummary:
    summary = ImportSummary()
    batch: list[Incoming] = []
    held = 0  # raw bytes in `batch`: memory is bounded by bytes, not by a message count

    def flush() -> None:
        nonlocal held
        for result in store.ingest_many(batch, account):
            if result.created:
                summary.imported += 1
            else:
                summary.already_present += 1
        if on_progress:
            on_progress(len(batch))
        batch.clear()
        held = 0

    for item in iter_messages(path):
        if isinstance(item, Found):
            if batch and held + len(item.raw) > BATCH_BYTES:
                flush()
            batch.append(Incoming(item.raw, item.origin))
            held += len(item.raw)
            del item  # the batch holds the only reference to the bytes
            if len(batch) >= BATCH or held >= BATCH_BYTES:
                flush()
        else:
            (summary.skipped if item.skipped else summary.failed).append(item)
            if on_progress:
                on_progress(1)
    if batch:
        flush()
    return summary
