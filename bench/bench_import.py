"""Import into SQLite including persistence: the SpamAssassin corpus into a fresh store.

Prints messages per second and peak RSS. Goal: >= 300 messages/s.
Run: .venv/bin/python bench/bench_import.py
"""

from __future__ import annotations

import argparse
import resource
import tempfile
import time
from pathlib import Path

from mailmoat.services.bootstrap import open_store
from mailmoat.services.imports import import_path

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpora" / "spamassassin"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(f"sqlite:///{tmp}/bench.db")
        start = time.perf_counter()
        summary = import_path(store, args.corpus)
        elapsed = time.perf_counter() - start
        again = time.perf_counter()
        repeat = import_path(store, args.corpus)
        elapsed_again = time.perf_counter() - again
        size_mb = Path(f"{tmp}/bench.db").stat().st_size / 2**20
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    total = summary.imported + summary.already_present
    print(f"imported {summary.imported} ({summary.already_present} duplicates in corpus, "
          f"{len(summary.failed)} failed, {len(summary.skipped)} skipped) in {elapsed:.1f}s: "
          f"{total / elapsed:,.0f} messages/s (goal >= 300)")
    print(f"re-import (all present): {repeat.already_present / elapsed_again:,.0f} messages/s")
    print(f"database {size_mb:.0f} MB; peak RSS {peak_mb:.0f} MB")


if __name__ == "__main__":
    main()
