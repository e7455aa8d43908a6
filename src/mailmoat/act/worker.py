"""Run the guarded executor as its own process: `python -m mailmoat.act.worker CONFIG`.

CONFIG is a JSON file: {"database_url": ..., "lease_seconds": 120, "accounts": {name:
{"smtp": {SmtpSettings fields}, "imap": {ImapSettings fields}}}}. Until the accounts store
is wired in, this is how a deployment (or a job queue task) hands the executor its
transports. The file holds credentials: keep it mode 0600.

`MAILMOAT_CRASH_AT=<point>` makes the process SIGKILL itself when it reaches that point
(after_claim, before_send, after_send, after_append): the deterministic crash used by the
exactly-once tests. It can only kill this process; it cannot make anything run.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import stat
import sys
import time
from pathlib import Path
from typing import Any

from mailmoat.act.executor import DEFAULT_LEASE_SECONDS, Executor
from mailmoat.mail.smtp import ImapSettings, MailTransport, SmtpSettings
from mailmoat.store.db import make_engine, migrate

CRASH_ENV = "MAILMOAT_CRASH_AT"
CRASH_POINTS = frozenset({"after_claim", "before_send", "after_send", "after_append"})


class ConfigError(ValueError):
    """The worker configuration is unusable; the message names the field."""


def load_config(path: Path) -> dict[str, Any]:
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except OSError as exc:
        raise ConfigError(f"cannot read worker config {path}: {type(exc).__name__}") from None
    if mode & 0o077:
        raise ConfigError(f"worker config {path} holds credentials but is readable by others "
                          f"(mode {mode:o}); run: chmod 600 {path}")
    try:
        config = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot read worker config {path}: {type(exc).__name__}") from None
    if not isinstance(config, dict) or not isinstance(config.get("accounts"), dict):
        raise ConfigError("worker config needs an 'accounts' object")
    return config


def transports(config: dict[str, Any]) -> dict[str, MailTransport]:
    out: dict[str, MailTransport] = {}
    for name, account in config["accounts"].items():
        try:
            out[name] = MailTransport(SmtpSettings(**account["smtp"]),
                                      ImapSettings(**account["imap"]))
        except (KeyError, TypeError) as exc:
            raise ConfigError(f"account {name!r}: bad smtp/imap settings ({exc})") from None
    return out


def crash_hook_from_env() -> Any:
    point = os.environ.get(CRASH_ENV, "")
    if point and point not in CRASH_POINTS:
        raise ConfigError(f"{CRASH_ENV} must be one of {sorted(CRASH_POINTS)}")

    def hook(reached: str) -> None:
        if reached == point:
            os.kill(os.getpid(), signal.SIGKILL)

    return hook


def build_executor(config: dict[str, Any], worker: str) -> Executor:
    engine = make_engine(config.get("database_url"))
    migrate(engine)
    return Executor(
        engine, transports(config), worker=worker,
        lease_seconds=float(config.get("lease_seconds", DEFAULT_LEASE_SECONDS)),
        crash_hook=crash_hook_from_env(),
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="mailmoat.act.worker")
    parser.add_argument("config", type=Path)
    parser.add_argument("--once", action="store_true", help="run at most one outbox row")
    parser.add_argument("--worker", default=f"worker-{os.getpid()}")
    parser.add_argument("--poll", type=float, default=0.0,
                        help="keep running: look for due rows every POLL seconds")
    args = parser.parse_args(argv)
    try:
        executor = build_executor(load_config(args.config), args.worker)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    while True:
        outcomes = [executor.run_once()] if args.once else executor.run_until_idle()
        for outcome in outcomes:
            if outcome is not None:
                print(f"{outcome.outbox_id} {outcome.state} {outcome.detail}", flush=True)
        if args.once or args.poll <= 0:
            return 0
        time.sleep(args.poll)


if __name__ == "__main__":  # pragma: no cover - process entry point
    sys.exit(main())
