"""The guarded executor over every sending account, as the worker process
(`python -m mailmoat.entrypoints.worker`), `mailmoat actions run`, the outbox job and every
sync pass (services/sync_pass.py) run it.

Transports come from the accounts store (`mailmoat account add ... --smtp-host ...`): each
account with submission settings gets SMTP plus its IMAP side, both logging in with the
account's sealed password or its refreshed XOAUTH2 token, opened only at connect time. The
database comes from `--database-url` or MAILMOAT_DATABASE_URL; the key ring from
MAILMOAT_SECRET_KEY or the key file, as for sync.

Calendar writes (meeting proposals) go through the same executor: each linked CalDAV
calendar gets a writer built from its sealed password (calendar/registry.py).

Besides the outbox, each pass applies approved reversible actions on the IMAP server
(act/reversible.py); those need no receipt, but they share the accounts and the process.

`MAILMOAT_CRASH_AT=<point>` makes the process SIGKILL itself when it reaches that point
(after_claim; before_send, after the Sent copy is staged; before_data, once it is flagged;
after_send; after_append, once the copy is final): the deterministic crash used by the
exactly-once tests. It can only kill this process; it cannot make anything run.
"""

from __future__ import annotations

import logging
import os
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from mailmoat.accounts.oauth import TokenError
from mailmoat.accounts.registry import AccountSettings, list_accounts, login_secret
from mailmoat.accounts.secrets import KeyRing, SecretKeyError, load_key_ring
from mailmoat.act.executor import DEFAULT_LEASE_SECONDS, Executor, Outcome
from mailmoat.act.reversible import ReversibleApplier
from mailmoat.core.outbox import Pending
from mailmoat.mail.smtp import (
    ImapSettings,
    MailTransport,
    PermanentError,
    SmtpSettings,
    TransientError,
)
from mailmoat.services.bootstrap import open_store
from mailmoat.store import Store, StoreError

log = logging.getLogger(__name__)

CRASH_ENV = "MAILMOAT_CRASH_AT"
CRASH_POINTS = frozenset({"after_claim", "before_send", "before_data", "after_send",
                          "after_append"})


class WorkerConfigError(ValueError):
    """The worker cannot start; the message says what to fix."""


def account_secret(store: Store, ring: KeyRing, account: AccountSettings) -> Any:
    """The account's login secret, fetched when a connection needs it. A token endpoint
    that fails is worth retrying; a secret the key ring cannot open is not."""

    def secret() -> str:
        try:
            return login_secret(store, ring, account)
        except TokenError as exc:
            raise TransientError(f"login token: {exc}") from None
        except SecretKeyError as exc:
            raise PermanentError(str(exc)) from None

    return secret


def transport_for(store: Store, ring: KeyRing, account: AccountSettings) -> MailTransport:
    sub = account.submission
    if sub is None:
        raise WorkerConfigError(f"account {account.name!r} has no SMTP settings")
    secret = account_secret(store, ring, account)
    return MailTransport(
        SmtpSettings(host=sub.host, port=sub.port, from_addr=sub.from_addr or account.username,
                     # tls and auth are validated Literals in the registry, typed str there
                     security=sub.tls,  # type: ignore[arg-type]
                     username=account.username if sub.login else "",
                     auth=account.auth, secret=secret),  # type: ignore[arg-type]
        ImapSettings(host=account.host, port=account.port, username=account.username,
                     auth=account.auth, secret=secret,  # type: ignore[arg-type]
                     security=account.tls,  # type: ignore[arg-type]
                     sent_folder=sub.sent_folder, server_files_sent=sub.server_files_sent),
    )


def transports(store: Store, ring: KeyRing) -> dict[str, MailTransport]:
    """One transport per stored account that can send."""
    return {a.name: transport_for(store, ring, a)
            for a in list_accounts(store) if a.submission is not None}


def calendar_writers(store: Store, ring: KeyRing) -> dict[str, Any]:
    """One writer per linked CalDAV calendar (feeds are read-only), by calendar name."""
    from mailmoat.calendar.registry import list_calendars
    from mailmoat.calendar.sync import open_source

    return {c.name: open_source(store, ring, c) for c in list_calendars(store) if c.writable}


def crash_hook_from_env() -> Any:
    point = os.environ.get(CRASH_ENV, "")
    if point and point not in CRASH_POINTS:
        raise WorkerConfigError(f"{CRASH_ENV} must be one of {sorted(CRASH_POINTS)}")

    def hook(reached: str) -> None:
        if reached == point:
            os.kill(os.getpid(), signal.SIGKILL)

    return hook


@dataclass
class Worker:
    """The executor over every sending account, and the reversible-action applier."""

    store: Store
    ring: KeyRing
    executor: Executor
    applier: ReversibleApplier

    def run_pass(self, once: bool = False) -> list[Outcome]:
        outcomes = [o for o in [self.executor.run_once()] if o] if once else (
            self.executor.run_until_idle())
        for account in list_accounts(self.store):
            self.applier.run(account)
        return outcomes


def build_worker(database_url: str | None, worker: str,
                 lease_seconds: float = DEFAULT_LEASE_SECONDS) -> Worker:
    try:
        store = open_store(database_url)
        ring = load_key_ring()
    except (StoreError, SecretKeyError) as exc:
        raise WorkerConfigError(str(exc)) from None
    return worker_for(store, ring, worker, lease_seconds)


ENV_OUTBOX_LEASE = "MAILMOAT_OUTBOX_LEASE"


def outbox_lease() -> float:
    """Seconds an outbox claim lasts for the background jobs (MAILMOAT_OUTBOX_LEASE, default
    DEFAULT_LEASE_SECONDS): how long a send claimed by a killed worker waits. Keep it above
    the SMTP/IMAP timeouts."""
    raw = os.environ.get(ENV_OUTBOX_LEASE, "")
    try:
        return float(raw) if raw else DEFAULT_LEASE_SECONDS
    except ValueError:
        raise WorkerConfigError(f"{ENV_OUTBOX_LEASE} must be a number of seconds") from None


def worker_for(store: Store, ring: KeyRing, worker: str,
               lease_seconds: float | None = None) -> Worker:
    """The executor and the reversible-action applier on a store already open (claims last
    `lease_seconds`, default outbox_lease())."""
    lease_seconds = outbox_lease() if lease_seconds is None else lease_seconds
    executor = Executor(store.engine, transports(store, ring), worker=worker,
                        lease_seconds=lease_seconds, crash_hook=crash_hook_from_env(),
                        calendars=calendar_writers(store, ring))
    return Worker(store, ring, executor, ReversibleApplier(store, ring))


def run_outbox(database_url: str | None, worker: str,
               lease_seconds: float = DEFAULT_LEASE_SECONDS, once: bool = False,
               poll: float = 0.0) -> Iterator[Outcome]:
    """Drain the outbox (at most one row with `once`), then, with `poll` > 0, keep looking
    for due work every `poll` seconds. Raises WorkerConfigError when it cannot start."""
    for outcomes, _ in outbox_passes(database_url, worker, lease_seconds, once, poll):
        yield from outcomes


def outbox_passes(database_url: str | None, worker: str,
                  lease_seconds: float = DEFAULT_LEASE_SECONDS, once: bool = False,
                  poll: float = 0.0) -> Iterator[tuple[list[Outcome], list[tuple[Pending, str]]]]:
    """run_outbox pass by pass: what each pass did, and what is left waiting and why
    (Executor.waiting), for `mailmoat actions run` to explain."""
    running = build_worker(database_url, worker, lease_seconds)
    while True:
        yield running.run_pass(once=once), running.executor.waiting()
        if once or poll <= 0:
            return
        time.sleep(poll)
