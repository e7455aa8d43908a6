"""Home page (the decision queue) and search latency over loopback at 100,000 stored mails.

Builds a SQLite store with --messages mails (bench_web.build: demo mail with varied
subjects, senders and dates, each classified by the real cascade; the FTS5 index of
migration 0018_search follows through its triggers), adds a few pending approvals, signs in
through the real login form and asks uvicorn (its own process) for each page --requests
times: the home page, and searches for a common word, two words, a number and a sender
address (each finds mail; at most 50 hits are shown). Prints p50/p95/p99 per page.
Goal: p95 <= 100 ms for each.
Run: .venv/bin/python bench/bench_home.py  (--db PATH keeps the built store for reruns)
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from bench_web import build, free_port, measure

PAGES = (
    ("home", "/"),
    ("search, a common word", "/search?q=invoice"),
    ("search, two words", "/search?q=quota+notice"),
    ("search, a number", "/search?q=4242"),
    ("search, a sender address", "/search?q=n42.dev%40buildstack.example"),
)


def hits(db: Path) -> dict[str, int]:
    """How many mails each search finds (the same query the page runs): every one finds
    some, or the bench would time an empty answer."""
    from urllib.parse import parse_qs, urlsplit

    from mailmoat.services.bootstrap import open_store
    from mailmoat.store.search import search

    store = open_store(f"sqlite:///{db}")
    found = {}
    for name, path in PAGES:
        query = parse_qs(urlsplit(path).query).get("q")
        if query:
            found[name] = len(search(store, "local", query[0]))
            if not found[name]:
                raise SystemExit(f"{name}: nothing found, the bench would time nothing")
    return found


def approvals(db: Path, count: int) -> None:
    from mailmoat.act.service import ActionService
    from mailmoat.services.bootstrap import open_store

    service = ActionService(open_store(f"sqlite:///{db}").engine)
    for i in range(count):
        service.propose("local", {"action": "send_email", "to": f"ana{i}@client.example",
                                  "subject": f"Numbers {i}", "body": "Attached.\n"},
                        "bench", "api")


def serve_and_measure(db: Path, requests: int) -> dict[str, list[float]]:
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--approvals", type=int, default=5)
    parser.add_argument("--db", type=Path, help="build here once, reuse on later runs")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "bench.db"
        if not db.exists():
            start = time.perf_counter()
            build(db, args.messages)
            approvals(db, args.approvals)
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
