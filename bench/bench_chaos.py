"""Chaos at full size, and the multi-machine figures of issue 20.

1. chaos: the topology as plain processes (PostgreSQL, RabbitMQ, 2 web, 3 workers, the
   scheduler, one mail-devel per account) while a random worker is SIGKILLed every few
   seconds (tests/chaos_support.py). Default: 20 accounts x 500 mails = 10,000 mails, 200
   approved sends, 30 kills. Prints the figures; exits 1 if any guarantee failed.
2. scale: sync throughput of N accounts x M mails with 1, 2 and 4 worker processes.
3. idle: K accounts watched with IDLE by W workers, nothing arriving: RSS per worker
   process (with children) and IMAP connections. Goal: 500 accounts in <= 1 GB.

Needs PostgreSQL (postgres@127.0.0.1:5432/test) and RabbitMQ (guest@127.0.0.1:5672).
Run: python bench/bench_chaos.py chaos [--accounts 20 --mails 500 --sends 200 --kills 30]
     python bench/bench_chaos.py scale [--accounts 4 --mails 1000 --workers 1,2,4]
     python bench/bench_chaos.py idle [--accounts 500 --workers 2]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # tests.support as a package
sys.path.insert(0, str(ROOT / "src"))
PG_ADMIN = os.environ.get("MAILMOAT_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
AMQP = os.environ.get("MAILMOAT_TEST_RABBITMQ", "amqp://guest:guest@127.0.0.1:5672/%2F")


@contextlib.contextmanager
def pg_schema() -> Iterator[str]:
    from sqlalchemy import create_engine, text

    schema = f"mm_bench_{uuid.uuid4().hex[:10]}"
    admin = create_engine(PG_ADMIN)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield f"{PG_ADMIN}?options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@contextlib.contextmanager
def amqp_queue() -> Iterator[str]:
    import pika

    name = f"mm-bench-{uuid.uuid4().hex[:8]}"
    yield name
    connection = pika.BlockingConnection(pika.URLParameters(AMQP))
    try:
        channel = connection.channel()
        for queue in (name, f"{name}-resume"):
            for suffix in ("", ".DQ", ".XQ"):
                channel.queue_delete(queue + suffix)
    finally:
        connection.close()


def chaos(args: argparse.Namespace) -> int:
    from tests.support.chaos_support import ChaosSize, assert_marked, assert_sound, run_chaos

    size = ChaosSize(accounts=args.accounts, mails=args.mails, sends=args.sends,
                     kills=args.kills, kill_every=args.kill_every,
                     settle_timeout=args.settle)
    with pg_schema() as url, amqp_queue() as queue, tempfile.TemporaryDirectory() as tmp:
        figures = run_chaos(size, url, AMQP, queue, Path(tmp))
    try:
        assert_sound(figures, size)
        assert_marked(figures)
    except AssertionError as exc:
        print(f"FAILED: {exc}")
        return 1
    print("every guarantee held")
    return 0


def _rss_kb(pid: int) -> int:
    """RSS of a process and its children, kB (from /proc)."""
    total = 0
    pids = [pid]
    with contextlib.suppress(OSError):
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        pids += [int(c) for c in children]
    for p in pids:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total


def _connections(pid: int) -> int:
    with contextlib.suppress(OSError):
        return sum(1 for fd in Path(f"/proc/{pid}/fd").iterdir()
                   if os.readlink(fd).startswith("socket:"))
    return 0


def _setup(url: str, servers: list, names: list[str]) -> object:  # type: ignore[type-arg]
    from mailmoat.accounts.registry import AccountSettings, add_account
    from mailmoat.accounts.secrets import load_key_ring
    from mailmoat.services.bootstrap import open_store

    store = open_store(url)
    ring = load_key_ring()
    for name, server in zip(names, servers, strict=True):
        add_account(store, ring, AccountSettings(
            name=name, host=server.host, port=server.imap_port, username=server.user,
            tls="plain"), server.password)
    return store


def _env(url: str, queue: str, tmp: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("MAILMOAT_") or k == "MAILMOAT_SECRET_KEY"}
    env.update({"MAILMOAT_DATABASE_URL": url, "MAILMOAT_BROKER_URL": AMQP,
                "MAILMOAT_QUEUE_NAME": queue, "XDG_DATA_HOME": tmp,
                "PYTHONPATH": str(ROOT / "src")})
    return env


def _workers(env: dict[str, str], n: int, extra: list[str]) -> list[subprocess.Popen[bytes]]:
    procs = [subprocess.Popen([sys.executable, "-m", "mailmoat", "worker", *extra], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              start_new_session=True) for _ in range(n)]
    for p in procs:
        assert p.stdout is not None and b"mailmoat worker" in p.stdout.readline()
    return procs


def _stop(procs: list[subprocess.Popen[bytes]]) -> None:
    for p in procs:
        p.send_signal(signal.SIGTERM)
    for p in procs:
        try:
            p.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()


def scale(args: argparse.Namespace) -> int:
    from tests.support.accounts_keys import use_fresh_key
    from tests.support.chaos_support import _bulk_load
    from tests.support.mailserver import MailServer

    from mailmoat.entrypoints import queue as mq

    use_fresh_key()
    names = [f"acct{n}" for n in range(args.accounts)]
    servers = [MailServer().start() for _ in names]
    try:
        for n, s in enumerate(servers):
            _bulk_load(s, 0, args.mails, f"a{n}")
        for count in [int(w) for w in args.workers.split(",")]:
            with pg_schema() as url, amqp_queue() as queue, \
                    tempfile.TemporaryDirectory() as tmp:
                store = _setup(url, servers, names)
                env = _env(url, queue, tmp)
                procs = _workers(env, count, ["--workers", "1"])
                q = mq.declare(mq.make_broker(AMQP), queue)
                started = time.monotonic()
                for name in names:
                    q.sync_account.send(name)
                total = args.accounts * args.mails
                while store.count() < total:  # type: ignore[attr-defined]
                    time.sleep(0.2)
                took = time.monotonic() - started
                peak = sum(_rss_kb(p.pid) for p in procs) // 1024
                _stop(procs)
                q.broker.close()
                print(f"{count} worker(s): {total} mails in {took:.1f} s = "
                      f"{total / took:.0f} mails/s; RSS at the end {peak} MB", flush=True)
    finally:
        for s in servers:
            s.stop()
    return 0


def idle(args: argparse.Namespace) -> int:
    from tests.support.accounts_keys import use_fresh_key
    from tests.support.mailserver import MailServer

    use_fresh_key()
    per_server = 50  # accounts per mail-devel process (each account logs in separately)
    servers = [MailServer().start() for _ in range((args.accounts + per_server - 1)
                                                    // per_server)]
    names = [f"acct{n}" for n in range(args.accounts)]
    try:
        with pg_schema() as url, amqp_queue() as queue, tempfile.TemporaryDirectory() as tmp:
            _setup(url, [servers[n // per_server] for n in range(args.accounts)], names)
            env = _env(url, queue, tmp)
            base = _workers(env, args.workers, ["--workers", "1", "--watch", "0"])
            base_rss = [_rss_kb(p.pid) // 1024 for p in base]
            _stop(base)
            procs = _workers(env, args.workers, ["--workers", "1", "--watch",
                                                 str(args.accounts), "--poll", "600"])
            from mailmoat.services.bootstrap import open_store
            from mailmoat.store.leases import all_leases

            store = open_store(url)
            deadline = time.monotonic() + args.timeout
            held = 0
            while time.monotonic() < deadline:
                held = sum(1 for lease in all_leases(store, "watch:") if lease.token)
                if held >= args.accounts:
                    break
                time.sleep(2)
            time.sleep(10)  # the first passes' sync jobs drain; the watchers sit in IDLE
            rss = [_rss_kb(p.pid) // 1024 for p in procs]
            conns = [_connections(p.pid) for p in procs]
            _stop(procs)
        print(f"{args.accounts} idle accounts on {args.workers} worker(s): watched {held}; "
              f"RSS per worker {rss} MB (total {sum(rss)} MB; without watchers {base_rss} MB); "
              f"sockets per worker {conns}; per account "
              f"{(sum(rss) - sum(base_rss)) * 1024 / max(held, 1):.0f} kB", flush=True)
    finally:
        for s in servers:
            s.stop()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="what", required=True)
    c = sub.add_parser("chaos")
    c.add_argument("--accounts", type=int, default=20)
    c.add_argument("--mails", type=int, default=500)
    c.add_argument("--sends", type=int, default=200)
    c.add_argument("--kills", type=int, default=30)
    c.add_argument("--kill-every", type=float, default=4.0)
    c.add_argument("--settle", type=float, default=600.0)
    s = sub.add_parser("scale")
    s.add_argument("--accounts", type=int, default=4)
    s.add_argument("--mails", type=int, default=1000)
    s.add_argument("--workers", default="1,2,4")
    i = sub.add_parser("idle")
    i.add_argument("--accounts", type=int, default=500)
    i.add_argument("--workers", type=int, default=2)
    i.add_argument("--timeout", type=float, default=300.0)
    args = parser.parse_args()
    return {"chaos": chaos, "scale": scale, "idle": idle}[args.what](args)


if __name__ == "__main__":
    sys.exit(main())
