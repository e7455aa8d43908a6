"""Run sync for an account: one pass (`sync --once`), or for good with IDLE, polling as
the fallback, and reconnecting with backoff."""

from __future__ import annotations

import contextlib
import logging
import select
import ssl
import threading
from collections.abc import Callable

from imapclient import IMAPClient

from mailmoat.accounts.registry import AccountSettings, login_secret
from mailmoat.accounts.secrets import KeyRing
from mailmoat.core.mailbox_sync import backoff_delay
from mailmoat.mail.imap import (
    ConnectError,
    Endpoint,
    MailClient,
    ServerFeatures,
    address_policy_from_env,
    connect,
    vet_url_host,
)
from mailmoat.mail.ingress import NotificationHook
from mailmoat.mail.sync import MailboxSync, PassReport, Progress
from mailmoat.store.messages import Store

log = logging.getLogger(__name__)

# What a dropped or confused connection raises; all of them mean "reconnect".
CONNECTION_ERRORS: tuple[type[BaseException], ...] = (
    ConnectError, IMAPClient.Error, IMAPClient.AbortError, OSError, EOFError,
)


def open_client(store: Store, ring: KeyRing, account: AccountSettings,
                timeout: float = 30.0) -> MailClient:
    endpoint = Endpoint(account.host, account.port, account.tls, address_policy_from_env(),
                        timeout)
    if account.auth == "xoauth2":
        vet_url_host(account.token_endpoint or "", endpoint.policy)
    return connect(endpoint, account.username, lambda: login_secret(store, ring, account),
                   account.auth)


def close(client: IMAPClient | None) -> None:
    if client is None:
        return
    try:
        client.logout()
    except Exception:
        with contextlib.suppress(Exception):
            client.shutdown()


def sync_once(store: Store, ring: KeyRing, account: AccountSettings,
              hook: NotificationHook | None = None,
              progress: Progress | None = None) -> PassReport:
    client = open_client(store, ring, account)
    try:
        return MailboxSync(store, account, hook).run_pass(client, progress)
    finally:
        close(client)


def wait_for_activity(client: IMAPClient, folder: str, seconds: float,
                      stop: threading.Event, seen_uidnext: int | None = None) -> bool:
    """IDLE on `folder` up to `seconds`; True when the server reported something.

    `seen_uidnext` is the UIDNEXT the last pass saw: IDLE reports only what happens while
    it runs, so mail delivered during that pass, after its search, shows only as a higher
    UIDNEXT here, and counts as activity without waiting.

    Activity is detected by polling the socket, and the responses are read by `idle_done`
    in blocking mode: imapclient's `idle_check` reads lines from a non-blocking socket and
    can cut a response that arrives in two segments. Polls in one-second slices so `stop`
    is honoured promptly."""
    info = client.select_folder(folder, readonly=True)
    if seen_uidnext is not None and int(info.get(b"UIDNEXT", 0)) > seen_uidnext:
        return True
    client.idle()
    sock = client.socket()
    active = False
    try:
        waited = 0.0
        while waited < seconds and not stop.is_set():
            pending = isinstance(sock, ssl.SSLSocket) and sock.pending() > 0
            if pending or select.select([sock], [], [], 1.0)[0]:
                active = True
                break
            waited += 1.0
    finally:
        _, responses = client.idle_done()
    return active or bool(responses)


def run_forever(
    store: Store,
    ring: KeyRing,
    account: AccountSettings,
    stop: threading.Event,
    *,
    on_activity: Callable[[], object] | None = None,
    hook: NotificationHook | None = None,
    poll_seconds: float = 300.0,
    max_backoff: float = 60.0,
    after_pass: Callable[[], object] | None = None,
) -> None:
    """Sync now, then on every IDLE wake-up (or every `poll_seconds` when the server has
    no IDLE); on any connection failure wait with backoff and start over. Never raises
    for connection trouble; stops when `stop` is set.

    The IDLE watcher has its own connection: unsolicited responses for the watched folder
    never mix with the sync pass's commands. `on_activity` replaces the inline pass (for
    `mailmoat up`, which queues a job instead); `after_pass` runs after each inline pass
    (services/sync_pass.py: the AUTO sweep and the outbox)."""
    syncer = MailboxSync(store, account, hook)
    attempt = 0
    while not stop.is_set():
        watcher: MailClient | None = None
        worker: MailClient | None = None
        try:
            watcher = open_client(store, ring, account)
            features = ServerFeatures.of(watcher)
            if on_activity is None:
                worker = open_client(store, ring, account)

            def one_pass(worker: MailClient | None = worker) -> None:
                if on_activity is not None:
                    on_activity()
                elif worker is not None:
                    syncer.run_pass(worker)
                    if after_pass is not None:
                        after_pass()

            one_pass()
            attempt = 0
            while not stop.is_set():
                if features.idle:
                    folder = account.folders[0]
                    wait_for_activity(watcher, folder, poll_seconds, stop,
                                      syncer.uidnext_seen.get(folder))
                else:
                    stop.wait(poll_seconds)
                if not stop.is_set():
                    one_pass()
        except CONNECTION_ERRORS as exc:
            delay = backoff_delay(attempt, cap=max_backoff)
            attempt += 1
            log.warning("%s: %s; reconnecting in %.0fs", account.name, _safe(exc), delay)
            stop.wait(delay)
        finally:
            close(watcher)
            close(worker)


def _safe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"[:300]
