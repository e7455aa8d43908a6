"""Home page (the decision queue) and search latency over loopback at 100,000 stored mails.

The mails are split over two accounts the signed-in person sees (second_account): the home
page is timed across both, and filtered to one.

Builds a SQLite store with --messages mails (bench_web.build: demo mail with varied
subjects, senders and dates, each classified by the real cascade; the FTS5 index of
migration 0019_search follows through its triggers), adds a few pending approvals, signs in
through the real login form and asks uvicorn (its own process) for each page --requests
times: the home page (both accounts, and one), /firewall, a lane page, and searches for a
common word, two words, a number and a sender address (each finds mail; at most 50 hits are
shown). Prints p50/p95/p99 per page.
Goal: p95 <= 100 ms for each.
Run: .venv/bin/python bench/bench_home.py  (--db PATH keeps the built store for reruns;
--postgres URL measures PostgreSQL: its generated tsvector column and GIN index)
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from bench_web import build, free_port, measure, store_url

PAGES = (
    ("home, both accounts", "/"),
    ("home, one account", "/?account=work"),
    ("firewall (counts and rows)", "/firewall"),
    ("a lane page", "/lane/QUEUE"),
    ("search, a common word", "/search?q=invoice"),
    ("search, two words", "/search?q=quota+notice"),
    ("search, a number", "/search?q=4242"),
    ("search, a sender address", "/search?q=n42.dev%40buildstack.example"),
)


def hits(db: Path | str) -> dict[str, int]:
    """How many mails each search finds (the same query the page runs): every one finds
    some, or the bench would time an empty answer."""
    from urllib.parse import parse_qs, urlsplit

    from mailmoat.services.bootstrap import open_store
    from mailmoat.store.search import search

    store = open_store(store_url(db))
    found = {}
    for name, path in PAGES:
        query = parse_qs(urlsplit(path).query).get("q")
        if query:
            found[name] = len(search(store, "local", query[0]))
            if not found[name]:
                raise SystemExit(f"{name}: nothing found, the bench would time nothing")
    return found


def second_account(db: Path | str) -> None:
    """Every third mail moves to a second account, "work", which the bench user also sees:
    the home page then merges two mailboxes (66,667 and 33,333 mails: a person with two
    inboxes), and the filter shows one. A third, not a half: the demo mails repeat in a
    cycle of 16, so every kind of mail stays in both."""
    from sqlalchemy import text

    from mailmoat.services.bootstrap import open_store
    from mailmoat.store.repos import Repos

    store = open_store(store_url(db))
    with store.engine.begin() as conn:
        for table in ("messages", "decisions"):
            key = "id" if table == "messages" else "message_id"
            conn.execute(text(f"UPDATE {table} SET account = 'work' WHERE {key} % 3 = 0"))
    Repos(store).users.grant("bench", "work")


def approvals(db: Path | str, count: int) -> None:
    from mailmoat.act.service import ActionService
    from mailmoat.services.bootstrap import open_store

    service = ActionService(open_store(store_url(db)).engine)
    for i in range(count):
        service.propose("local", {"action": "send_email", "to": f"ana{i}@client.example",
                                  "subject": f"Numbers {i}", "body": "Attached.\n"},
                        "bench", "api")


def serve_and_measure(db: Path | str, requests: int) -> dict[str, list[float]]:
    port = free_port()
    bench_web = str(Path(__file__).with_name("bench_web.py"))
    server = subprocess.Popen([sys.executable, bench_web, "--serve", str(db), str(port)],
                              env=os.environ.copy())
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("server did not start") from None
                time.sleep(0.2)
        return {name: measure(f"http://127.0.0.1:{port}", requests, path)
                for name, path in PAGES}
    finally:
        server.terminate()
        server.wait(timeout=10)


@contextmanager
def schema_in(admin_url: str | None) -> Iterator[str | None]:
    """A fresh PostgreSQL schema for the bench (None: SQLite); dropped afterwards."""
    if admin_url is None:
        yield None
        return
    from sqlalchemy import create_engine, text

    schema = f"mm_bench_{uuid.uuid4().hex[:10]}"
    admin = create_engine(admin_url)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield f"{admin_url}?options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


def analyze(db: Path | str) -> None:
    """PostgreSQL: fresh planner statistics, as autovacuum would gather them in time."""
    if "://" not in str(db):
        return
    from sqlalchemy import text

    from mailmoat.services.bootstrap import open_store

    engine = open_store(store_url(db)).engine
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.execute(text("ANALYZE"))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--approvals", type=int, default=5)
    parser.add_argument("--db", type=Path, help="build here once, reuse on later runs")
    parser.add_argument("--postgres", metavar="URL",
                        help="PostgreSQL instead (e.g. postgresql+psycopg://postgres@127.0.0.1"
                             "/test): built in a fresh schema, dropped afterwards")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, schema_in(args.postgres) as pg:
        db: Path | str = pg or args.db or Path(tmp) / "bench.db"
        if pg or not Path(db).exists():
            start = time.perf_counter()
            build(db, args.messages)
            second_account(db)
            approvals(db, args.approvals)
            analyze(db)
            print(f"built in {time.perf_counter() - start:.1f}s")
        found = hits(db)
        timings = serve_and_measure(db, args.requests)
    for name, path in PAGES:
        values = sorted(timings[name])
        q = statistics.quantiles(values, n=100)
        print(f"{name} ({path}), {args.requests} requests over loopback: p50 {q[49]:.1f} ms, "
              f"p95 {q[94]:.1f} ms, p99 {q[98]:.1f} ms, max {values[-1]:.1f} ms "
              f"(goal p95 <= 100 ms)" + (f"; {found[name]} hits shown" if name in found
                                         else ""))


if __name__ == "__main__":
    main()
