"""The authority path end to end: propose + approve, then the guarded executor draining the
outbox into a real SMTP/IMAP server (mail-devel on loopback), one or more executors.

Prints approvals per second, sends per second (SMTP submission + Sent APPEND + record), and
each executor's share. Run: .venv/bin/python bench/bench_outbox.py [--n 200] [--workers 2]
[--postgres]  (default: a fresh SQLite file; --postgres: a throwaway schema in
MAILMOAT_TEST_PG, default postgresql+psycopg://postgres@127.0.0.1:5432/test, dropped after)
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import create_engine, text

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.support

from tests.support.mailserver import MailServer

from mailmoat.act.executor import Executor
from mailmoat.act.service import ActionService
from mailmoat.mail.smtp import ImapSettings, MailTransport, SmtpSettings
from mailmoat.services.bootstrap import open_store


@contextmanager
def _database(postgres: bool, tmp: str) -> Iterator[str]:
    if not postgres:
        yield f"sqlite:///{tmp}/bench.db"
        return
    admin_url = os.environ.get("MAILMOAT_TEST_PG",
                               "postgresql+psycopg://postgres@127.0.0.1:5432/test")
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--server-files-sent", action="store_true",
                        help="skip our IMAP APPEND (as with Gmail/Outlook)")
    parser.add_argument("--postgres", action="store_true")
    args = parser.parse_args()
    server = MailServer().start()
    try:
        with tempfile.TemporaryDirectory() as tmp, _database(args.postgres, tmp) as url:
            store = open_store(url)
            service = ActionService(store.engine)
            start = time.perf_counter()
            for i in range(args.n):
                p = service.propose("bench", {"action": "send_email",
                                              "to": f"r{i}@client.example",
                                              "subject": f"bench {i}",
                                              "body": "Hello,\nthis is a benchmark.\n" * 20},
                                    "bench", "cli")
                service.approve(p["id"], "bench")
            approve_s = time.perf_counter() - start
            def secret() -> str:
                return server.password

            transport = MailTransport(
                SmtpSettings(server.host, server.smtp_port, server.user, security="plain",
                             username=server.user, secret=secret),
                ImapSettings(server.host, server.imap_port, server.user, secret=secret,
                             security="plain", server_files_sent=args.server_files_sent),
            )
            shares: Counter[str] = Counter()

            def drain(name: str) -> None:
                executor = Executor(store.engine, {"bench": transport}, worker=name)
                shares[name] += sum(o.state == "done" for o in executor.run_until_idle(10**6))

            start = time.perf_counter()
            threads = [threading.Thread(target=drain, args=(f"w{i}",))
                       for i in range(args.workers)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            send_s = time.perf_counter() - start
            store.engine.dispose()
    finally:
        server.stop()
    dialect = "postgresql" if args.postgres else "sqlite"
    print(f"{args.n} approvals in {approve_s:.2f}s: {args.n / approve_s:,.0f}/s ({dialect})")
    print(f"{sum(shares.values())} sends in {send_s:.2f}s: {sum(shares.values()) / send_s:,.1f}/s "
          f"with {args.workers} executor(s), "
          f"{'no APPEND' if args.server_files_sent else 'with Sent APPEND'}; "
          f"shares {dict(shares)}")


if __name__ == "__main__":
    main()
