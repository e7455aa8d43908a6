"""The notification hook: what the ingress pipeline tells the outside world about a new
decision. Only the interface lives here; notifications themselves are a later issue."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Protocol

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Arrival:
    account: str
    message_id: int
    lane: str
    folder: str
    subject: str
    from_addr: str


class NotificationHook(Protocol):
    def on_decided(self, arrival: Arrival) -> None:
        """Called once per newly stored message, after its decision and lane actions are
        recorded. Must not raise; a failure here never stops sync."""
        ...


class NoNotifications:
    def on_decided(self, arrival: Arrival) -> None:
        return None


def notify_safely(hook: NotificationHook, arrival: Arrival) -> None:
    try:
        hook.on_decided(arrival)
    except Exception:
        log.exception("notification hook failed for message %s", arrival.message_id)
