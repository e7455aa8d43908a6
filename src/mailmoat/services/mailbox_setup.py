"""Adding a mailbox from the web page (stored through accounts.registry.add_account, the
secret sealed, as `mailmoat account add` does): test it step by step, each step named (as
`mailmoat account test` names the failing one), and run its first sync in the background
with progress a page can show.

A first sync runs under the account's sync lease (services/jobs.sync_account): a sync
already running elsewhere is never doubled.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from mailmoat.accounts.oauth import TokenError
from mailmoat.accounts.registry import AccountSettings, get_account
from mailmoat.accounts.secrets import KeyRing
from mailmoat.mail.imap import ConnectError, ServerFeatures
from mailmoat.mail.runner import close, open_client
from mailmoat.services.jobs import sync_account
from mailmoat.store.messages import Store

# The steps of reaching a mailbox, in the order they happen (mail/imap.py names each one in
# its ConnectError); "folder" is the first synced folder answering STATUS.
STEPS: tuple[tuple[str, str], ...] = (
    ("dns", "find the server (DNS)"),
    ("guard", "the address is allowed"),
    ("tcp", "connect (TCP)"),
    ("tls", "secure the connection (TLS)"),
    ("protocol", "the server speaks IMAP"),
    ("capability", "the server offers what mailmoat needs"),
    ("auth", "log in"),
    ("folder", "open the first folder"),
)


@dataclass(frozen=True, slots=True)
class Step:
    name: str
    label: str
    state: str  # ok | failed | skipped | not reached
    detail: str = ""


@dataclass(frozen=True, slots=True)
class CheckReport:
    steps: tuple[Step, ...]
    ok: bool
    features: tuple[str, ...] = ()
    messages: int | None = None  # in the first folder


def steps_report(account: AccountSettings, failed: ConnectError | None,
                 detail: str = "") -> tuple[Step, ...]:
    """Every step before the failed one passed; the failed one says why; the rest were not
    reached. TLS on a plain (loopback-only) connection is skipped, said as such."""
    out, reached = [], True
    for name, label in STEPS:
        if name == "tls" and account.tls == "plain":
            out.append(Step(name, label, "skipped", "plain connection, allowed on loopback"))
            continue
        if name == "guard" and (failed is None or failed.stage != "guard"):
            continue  # the guard is said only when it refused
        if failed is not None and name == failed.stage:
            out.append(Step(name, label, "failed", str(failed).partition(": ")[2]))
            reached = False
            continue
        out.append(Step(name, label, "ok" if reached else "not reached",
                        detail if name == "folder" and reached else ""))
    return tuple(out)


def check_mailbox(store: Store, ring: KeyRing, name: str) -> CheckReport:
    """Connect, log in and open the first folder; says which step failed. Never a secret in
    the report (mail/imap.py keeps them out of its errors)."""
    account = get_account(store, name)
    try:
        client = open_client(store, ring, account, timeout=15.0)
    except ConnectError as exc:
        return CheckReport(steps_report(account, exc), False)
    except TokenError as exc:  # XOAUTH2: the token endpoint said no (its error holds no token)
        return CheckReport(steps_report(account, ConnectError("auth", str(exc))), False)
    try:
        features = ServerFeatures.of(client)
        status = client.folder_status(account.folders[0], ["MESSAGES"])
    except Exception as exc:  # the folder is missing or the server broke off
        close(client)
        failed = ConnectError("folder", f"{account.folders[0]}: {type(exc).__name__}")
        return CheckReport(steps_report(account, failed), False)
    close(client)
    count = int(status[b"MESSAGES"])
    return CheckReport(steps_report(account, None, f"{account.folders[0]} holds {count} "
                                                   "messages"),
                       True, tuple(features.names()), count)


@dataclass
class SyncProgress:
    """One first sync as a page shows it."""

    state: str = "starting"  # starting | running | done | busy | failed
    folder: str = ""
    done: int = 0
    total: int = 0
    created: int = 0
    error: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def as_dict(self) -> dict[str, Any]:
        with self.lock:
            return {"state": self.state, "folder": self.folder, "done": self.done,
                    "total": self.total, "created": self.created, "error": self.error}


class FirstSyncs:
    """First syncs started from this process, by account (a page polls their progress)."""

    def __init__(self) -> None:
        self._runs: dict[str, SyncProgress] = {}
        self._lock = threading.Lock()

    def get(self, account: str) -> SyncProgress | None:
        with self._lock:
            return self._runs.get(account)

    def start(self, store: Store, account: str) -> SyncProgress:
        """Start unless one is running for the account; returns its progress."""
        with self._lock:
            current = self._runs.get(account)
            if current is not None and current.state in ("starting", "running"):
                return current
            progress = self._runs[account] = SyncProgress()
        threading.Thread(target=self._run, args=(store, account, progress),
                         name=f"first-sync-{account}", daemon=True).start()
        return progress

    @staticmethod
    def _run(store: Store, account: str, progress: SyncProgress) -> None:
        def step(folder: str, done: int, total: int) -> None:
            with progress.lock:
                progress.state, progress.folder = "running", folder
                progress.done, progress.total = done, total

        try:
            result = sync_account(store, account, holder=f"web-first-sync:{account}",
                                  progress=step)
        except Exception as exc:  # shown on the page; the error names a step, not a secret
            with progress.lock:
                progress.state, progress.error = "failed", str(exc)[:300]
            return
        with progress.lock:
            progress.state = "busy" if result.busy else "done"
            progress.created = result.created
