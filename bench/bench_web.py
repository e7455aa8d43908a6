"""Firewall page latency over loopback with 10,000 messages in the store.

Builds a SQLite store with --messages messages (demo mail with varied subjects, senders and
dates, each classified by the real cascade), signs in through the real login form, then asks
uvicorn (a separate process, so client and server do not share a GIL) for the firewall page
--requests times. Prints p50/p95/p99 and the lane counts. Goal: p95 <= 100 ms.
Run: .venv/bin/python bench/bench_web.py
Other pages: --path /rules --rules 200 (200 senders with two identical corrections each, so
400 rules with their address and domain, every one citing its corrections).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

PASSWORD = "bench passphrase, loopback only"  # a throwaway credential for the bench user


def store_url(db: Path | str) -> str:
    """A SQLite file, or a database URL as it is (bench_home.py --postgres)."""
    return str(db) if "://" in str(db) else f"sqlite:///{db}"


def build(db: Path | str, messages: int, rules: int = 0) -> None:
    from mailmoat.demo import demo_messages
    from mailmoat.entrypoints.web.security.auth import hash_password
    from mailmoat.services.bootstrap import open_store
    from mailmoat.store import Incoming
    from mailmoat.store.repos import Repos

    store = open_store(store_url(db))
    templates = demo_messages()
    batch: list[Incoming] = []
    for i in range(messages):
        raw = templates[i % len(templates)]
        head, sep, body = raw.partition(b"\n\n")
        head = re.sub(rb"(?m)^Subject: ", f"Subject: [{i}] ".encode(), head, count=1)
        head = re.sub(rb"(?m)^From: (.*?)<", f"From: \\1<n{i % 700}.".encode(), head, count=1)
        batch.append(Incoming(head + sep + body + f"\n-- #{i}\n".encode(), "eml"))
        if len(batch) == 500:
            store.ingest_many(batch)
            batch = []
    if batch:
        store.ingest_many(batch)
    Repos(store).users.create("bench", hash_password(PASSWORD), ["local"])
    if rules:
        teach(store, rules)
    print(f"store: {store.count()} messages, lanes {store.lane_counts()}")


def teach(store: object, senders: int) -> None:
    """Two identical corrections for each of `senders` senders: a rule for each."""
    from sqlalchemy import select

    from mailmoat.learn.service import Learning
    from mailmoat.store.tables.messages import DecisionRow, MessageRow

    learning = Learning(store)  # type: ignore[arg-type]
    with store.sessions() as session:  # type: ignore[attr-defined]
        found = session.execute(select(MessageRow.id, MessageRow.from_addr, DecisionRow.lane)
                                .join(DecisionRow, DecisionRow.message_id == MessageRow.id)
                                .order_by(MessageRow.id)).all()
    by_sender: dict[str, list[tuple[int, str]]] = {}
    for mid, sender, lane in found:
        by_sender.setdefault(sender, []).append((mid, lane))
    taught = 0
    for pairs in by_sender.values():
        if taught == senders or len(pairs) < 2:
            continue
        (a, lane_a), (b, lane_b) = pairs[:2]
        chosen = next(x for x in ("PUSH", "MEETING", "QUEUE") if x not in (lane_a, lane_b))
        learning.correct(a, chosen, "bench")
        learning.correct(b, chosen, "bench")
        taught += 1
    print(f"rules: {len(learning.rules())} from {taught} senders")


def serve(db: Path | str, port: int) -> None:
    import uvicorn

    from mailmoat.entrypoints.web.app import create_app
    from mailmoat.services.bootstrap import open_store

    uvicorn.run(create_app(open_store(store_url(db))), host="127.0.0.1", port=port,
                log_level="warning")


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def measure(base: str, requests: int, path: str = "/") -> list[float]:
    with httpx.Client(base_url=base, timeout=30) as client:
        page = client.get("/login")
        token = re.search(r'name="csrf" value="([^"]+)"', page.text)
        assert token is not None
        client.post("/login", data={"username": "bench", "password": PASSWORD,
                                    "csrf": token.group(1)})
        first = client.get(path)
        assert first.status_code == 200 and "<h2" in first.text, first.status_code
        for _ in range(20):  # warm caches and the connection pool
            client.get(path)
        timings = []
        for _ in range(requests):
            start = time.perf_counter()
            reply = client.get(path)
            timings.append((time.perf_counter() - start) * 1000)
            assert reply.status_code == 200
    return timings


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--path", default="/", help="the page to time (default: firewall)")
    parser.add_argument("--rules", type=int, default=0, help="senders to learn a rule for")
    parser.add_argument("--serve", nargs=2, metavar=("DB", "PORT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve[0] if "://" in args.serve[0] else Path(args.serve[0]),
              int(args.serve[1]))
        return
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        start = time.perf_counter()
        build(db, args.messages, args.rules)
        print(f"built in {time.perf_counter() - start:.1f}s")
        port = free_port()
        server = subprocess.Popen([sys.executable, __file__, "--serve", str(db), str(port)],
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
            timings = measure(f"http://127.0.0.1:{port}", args.requests, args.path)
        finally:
            server.terminate()
            server.wait(timeout=10)
    timings.sort()
    q = statistics.quantiles(timings, n=100)
    print(f"page {args.path}, {args.requests} requests over loopback: p50 {q[49]:.1f} ms, "
          f"p95 {q[94]:.1f} ms, p99 {q[98]:.1f} ms, max {timings[-1]:.1f} ms "
          f"(goal p95 <= 100 ms)")


if __name__ == "__main__":
    main()
