"""Stored message views (issue 17, item 7: "parse once, store the result"): figures, not a test.

    PYTHONPATH=src python bench/bench_message_views.py [--corpus ../shared/corpora/spamassassin]
        [--limit N]

Imports the corpus into a fresh SQLite store (every message gets its parsed view at ingest,
migration 0018), then prints:
  1. the database size with the views, and without them (view rows deleted, VACUUM): the
     cost of storing the parse;
  2. the time to open every message as the views do (`Store.get_message(..., with_html=True)`)
     from the stored views, and again with no views (every read parses, as before 0018);
  3. the same for one hostile mail (a 1 MB Content-Type parameter list, bench_hostile_input).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import delete, select, text

from mailmoat.services.bootstrap import open_store
from mailmoat.store import Incoming, Store
from mailmoat.store.tables.messages import MessageRow, MessageViewRow

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from bench_hostile_input import param_bomb  # noqa: E402  (a sibling script)

CORPUS = ROOT.parent / "shared" / "corpora" / "spamassassin"


def _read_all(store: Store, ids: list[int]) -> float:
    start = time.perf_counter()
    for mid in ids:
        store.get_message(mid, with_html=True)
    return time.perf_counter() - start


def _size(path: Path, store: Store) -> int:
    with store.engine.begin() as conn:
        conn.execute(text("VACUUM"))
    return path.stat().st_size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--limit", type=int, default=0, help="at most this many files")
    args = parser.parse_args()
    files = sorted(p for p in args.corpus.rglob("*") if p.is_file())
    if args.limit:
        files = files[: args.limit]
    raw_bytes = sum(p.stat().st_size for p in files)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "views.db"
        store = open_store(f"sqlite:///{path}")
        start = time.perf_counter()
        for n in range(0, len(files), 200):
            store.ingest_many([Incoming(p.read_bytes(), "eml", "INBOX")
                               for p in files[n: n + 200]])
        took = time.perf_counter() - start
        hostile = store.ingest(param_bomb(1_000_000), "eml", "INBOX").message_id
        with store.sessions() as s:
            ids = list(s.scalars(select(MessageRow.id).where(MessageRow.id != hostile)
                                 .order_by(MessageRow.id)))
        with_views = _size(path, store)
        read_views = _read_all(store, ids)
        hostile_views = _read_all(store, [hostile])
        with store.sessions.begin() as s:
            s.execute(delete(MessageViewRow))
        without = _size(path, store)
        read_parse = _read_all(store, ids)
        hostile_parse = _read_all(store, [hostile])
    print(f"corpus: {args.corpus} ({len(files)} files, {raw_bytes / 2**20:.1f} MiB), "
          f"{len(ids)} messages stored; import {took:.1f} s")
    print(f"database with views:    {with_views / 2**20:8.1f} MiB")
    print(f"database without views: {without / 2**20:8.1f} MiB")
    print(f"views add:              {(with_views - without) / 2**20:8.1f} MiB "
          f"({(with_views / without - 1) * 100:.0f} %)")
    print(f"open every message, stored views: {read_views:6.2f} s "
          f"({read_views / len(ids) * 1e3:.2f} ms each)")
    print(f"open every message, parsing:      {read_parse:6.2f} s "
          f"({read_parse / len(ids) * 1e3:.2f} ms each)")
    print(f"open the 1 MB Content-Type mail: stored view {hostile_views * 1e3:.1f} ms, "
          f"parsing {hostile_parse * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
