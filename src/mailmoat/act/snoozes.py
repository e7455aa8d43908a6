"""Which messages a person snoozed and until when: mailmoat's own views hide them until then.

A snooze is an approved reversible action (core/actions.py); on the server it is a keyword
the worker adds and later removes (act/reversible.py). The views read the approval itself, so
a snoozed message leaves the firewall the moment it is approved, not when the worker runs.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select

from mailmoat.core.actions import ActionType, snooze_until
from mailmoat.core.receipts import PayloadError
from mailmoat.store import Store
from mailmoat.store.tables.act import ActionRow

_IN_FORCE = ("approved", "done")  # a failed or rejected snooze hides nothing


def snoozed(store: Store, account: str, now: datetime) -> dict[int, datetime]:
    """{message id: wake-up time} for this account's snoozes that have not woken yet."""
    with store.sessions() as session:
        payloads = session.scalars(select(ActionRow.payload).where(
            ActionRow.account == account, ActionRow.action == ActionType.SNOOZE.value,
            ActionRow.status.in_(_IN_FORCE)))
        found: dict[int, datetime] = {}
        for payload in payloads:
            try:
                until, message = snooze_until(payload), int(payload["message"])
            except (PayloadError, KeyError, TypeError, ValueError):
                continue  # refused at proposal; an altered row hides nothing
            if until > now:
                found[message] = max(until, found.get(message, until))
        return found
