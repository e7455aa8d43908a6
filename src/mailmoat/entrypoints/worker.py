"""The executor worker process: `python -m mailmoat.entrypoints.worker`.

Thin over services/outbox.py, which builds the executor and its transports from the accounts
store; see there for the database, key ring and `MAILMOAT_CRASH_AT` test hook.
"""

from __future__ import annotations

import argparse
import os
import sys

from mailmoat.services.outbox import DEFAULT_LEASE_SECONDS, WorkerConfigError, run_outbox


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="mailmoat.entrypoints.worker")
    parser.add_argument("--database-url", default=None,
                        help="default: MAILMOAT_DATABASE_URL, else the local SQLite file")
    parser.add_argument("--lease", type=float, default=DEFAULT_LEASE_SECONDS,
                        help="seconds a claim lasts; keep it above the SMTP/IMAP timeouts")
    parser.add_argument("--once", action="store_true", help="run at most one outbox row")
    parser.add_argument("--worker", default=f"worker-{os.getpid()}")
    parser.add_argument("--poll", type=float, default=0.0,
                        help="keep running: look for due work every POLL seconds")
    args = parser.parse_args(argv)
    try:
        for outcome in run_outbox(args.database_url, args.worker, args.lease, args.once,
                                  args.poll):
            print(f"{outcome.outbox_id} {outcome.state} {outcome.detail}", flush=True)
    except WorkerConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover - process entry point
    sys.exit(main())
