"""Meeting proposals made without being asked: for new MEETING mail after each sync pass,
and by the AUTO sweep for the MEETING mail it handles.

Both only propose. The reply and the calendar write wait in the decision queue under the
source `sync`, which `ActionService.approve_unattended` never approves (it approves only the
AUTO sweep's own `auto` proposals): a person's approval fires them, as for a proposal made
with `mailmoat meeting propose`. An unsure reading, a mail with no writable calendar, or one
already proposed for gives no proposal; the mail stays visible in the MEETING lane.

Before proposing, the account's linked calendars are synced, so the clash check reads the
calendar as it is now; a calendar that cannot be reached leaves its stored events in use.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from mailmoat.accounts.secrets import KeyRing
from mailmoat.act.errors import PolicyRefused
from mailmoat.act.service import ActionService
from mailmoat.calendar.registry import calendars_for_account
from mailmoat.calendar.sync import sync_calendar
from mailmoat.mail.ingress import Arrival, NotificationHook
from mailmoat.services.meeting import MeetingNotFound
from mailmoat.services.meeting_proposals import NotProposable, propose_meeting
from mailmoat.store.messages import Store

log = logging.getLogger(__name__)

SOURCE = "sync"  # never approved unattended: only `auto` proposals are
MEETING = "MEETING"


def now() -> datetime:
    """The clock a sweep reads to leave past meetings alone (tests set it)."""
    return datetime.now(UTC)


def proposer_identity(account: str) -> str:
    return f"mailmoat:{account}"


@dataclass
class MeetingArrivals:
    """A notification hook that remembers the new MEETING mail of a pass (then hands each
    arrival to the hook it wraps), for `MeetingProposer` to propose for after the pass."""

    inner: NotificationHook
    arrived: list[int] = field(default_factory=list)

    def on_decided(self, arrival: Arrival) -> None:
        if arrival.lane == MEETING:
            self.arrived.append(arrival.message_id)
        self.inner.on_decided(arrival)

    def take(self) -> list[int]:
        taken, self.arrived = self.arrived, []
        return taken


@dataclass(frozen=True)
class Proposed:
    message_id: int
    answer: str | None  # accept | decline | alternatives | cancel; None: nothing proposed
    why: str = ""  # when nothing was proposed


class MeetingProposer:
    """Propose the reply and the calendar write for MEETING mail; never approve them."""

    def __init__(self, store: Store, ring: KeyRing | None, drafter: Any = None,
                 actions: ActionService | None = None) -> None:
        self.store, self.ring, self.drafter = store, ring, drafter
        self.actions = actions or ActionService(store.engine)

    def refresh_calendars(self, account: str) -> None:
        if self.ring is None:
            return
        for cal in calendars_for_account(self.store, account):
            try:
                sync_calendar(self.store, self.ring, cal.name)
            except Exception as exc:  # unreachable: the stored events stand
                log.warning("%s: calendar %s not synced before proposing: %s", account,
                            cal.name, exc)

    def propose(self, account: str, message_id: int) -> Proposed:
        try:
            made = propose_meeting(self.store, self.actions, message_id, account=account,
                                   proposed_by=proposer_identity(account), source=SOURCE,
                                   drafter=self.drafter, not_before=now())
        except (NotProposable, MeetingNotFound, PolicyRefused) as exc:
            return Proposed(message_id, None, str(exc))
        except Exception as exc:  # a bad payload, a store error: this mail only, logged
            log.exception("%s: proposing for meeting mail %s failed", account, message_id)
            return Proposed(message_id, None, f"proposing failed ({type(exc).__name__})")
        return Proposed(message_id, made.answer)

    def propose_arrived(self, account: str, message_ids: list[int]) -> list[Proposed]:
        """After a sync pass: the pass's new MEETING mail, oldest first."""
        if not message_ids:
            return []
        self.refresh_calendars(account)
        out = []
        for mid in sorted(message_ids):
            done = self.propose(account, mid)  # one mail's failure never stops the others
            log.info("%s: meeting mail %s: %s", account, mid, done.answer or done.why)
            out.append(done)
        return out
