"""The sync pass: sync one account, notify on arrival, propose replies and events for new
MEETING mail (services/meeting_sweep.py: proposals only), run the AUTO sweep on what
arrived, then drain the outbox. The one assembly `mailmoat sync` (once and with IDLE), the
sync job (`mailmoat up`, `mailmoat worker`) all run, so they cannot drift apart.
"""

from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass, field
from typing import Any

from mailmoat.accounts.registry import AccountSettings
from mailmoat.accounts.secrets import KeyRing
from mailmoat.act.auto import AutoSweep
from mailmoat.act.executor import Outcome
from mailmoat.act.service import ActionService
from mailmoat.mail.runner import run_forever, sync_once
from mailmoat.mail.sync import PassReport, Progress
from mailmoat.notify.hook import NotifyOnArrival
from mailmoat.services.bootstrap import build_drafter
from mailmoat.services.meeting_sweep import MeetingArrivals, MeetingProposer
from mailmoat.services.outbox import worker_for
from mailmoat.store.messages import Store

log = logging.getLogger(__name__)


@dataclass
class SyncPass:
    """Everything that follows mail arriving in one account, in order."""

    store: Store
    ring: KeyRing
    drafter: Any = None
    outcomes: list[Outcome] = field(default_factory=list)  # what the outbox drains did

    @classmethod
    def on(cls, store: Store, ring: KeyRing) -> SyncPass:
        return cls(store, ring, drafter=build_drafter(store.engine))

    def run(self, account: AccountSettings, progress: Progress | None = None) -> PassReport:
        """One pass now: sync (with arrival notifications), then the follow-up work."""
        hook = MeetingArrivals(NotifyOnArrival(self.store))
        report = sync_once(self.store, self.ring, account, hook=hook, progress=progress)
        self._propose_meetings(account.name, hook)
        self.after_sync(account.name)
        return report

    def _propose_meetings(self, account: str, hook: MeetingArrivals) -> None:
        """The pass's new MEETING mail gets its reply and event proposed (never approved):
        services/meeting_sweep.py. Kept apart from after_sync, which other work shares."""
        try:
            MeetingProposer(self.store, self.ring, self.drafter).propose_arrived(
                account, hook.take())
        except Exception:  # proposing is a convenience: it never stops the pass
            log.exception("%s: proposing for new meeting mail failed", account)

    def after_sync(self, account: str) -> None:
        """Canaries into triage and AUTO's unattended work on what just arrived, then the
        outbox (approved sends, AUTO's replies) drained by the guarded executor."""
        AutoSweep(self.store, ActionService(self.store.engine), drafter=self.drafter,
                  meetings=MeetingProposer(self.store, self.ring, self.drafter)).run(account)
        worker = worker_for(self.store, self.ring, f"sync-{os.getpid()}")
        self.outcomes.extend(worker.run_pass())

    def watch(self, account: AccountSettings, stop: threading.Event,
              poll_seconds: float = 300.0) -> None:
        """For good: a pass now and on every IDLE wake-up (mail/runner.run_forever), each
        one followed by the same work as `run`, until `stop` is set."""
        hook = MeetingArrivals(NotifyOnArrival(self.store))
        run_forever(self.store, self.ring, account, stop, poll_seconds=poll_seconds,
                    hook=hook, after_pass=lambda: self._after_pass_logged(account.name, hook))

    def _after_pass_logged(self, account: str, hook: MeetingArrivals) -> None:
        self._propose_meetings(account, hook)
        try:
            self.after_sync(account)
        except Exception:  # a failing sweep must not stop the mailbox watcher
            log.exception("%s: the work after the sync pass failed", account)
