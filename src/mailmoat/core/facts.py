"""Sender facts from history: numbers the model cannot author. Pure: aggregates in, facts out.

Every input here comes from the store's own records — which messages it holds from the
sender, the server's \\Seen flags, the user's sent mail, people's corrections — and the
store's clock (when a message arrived), never from what a message says. A mail claiming
"we have worked together for years" or carrying a forged Date header changes no number.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from types import MappingProxyType
from typing import Any

from mailmoat.core.lanes import Lane
from mailmoat.core.policy import Facts

# Folder names (last path component, case-folded) that hold the user's own sent mail.
SENT_FOLDERS: frozenset[str] = frozenset(
    {
        "sent", "sent items", "sent mail", "sent messages", "sent-mail", "outbox",
        "보낸편지함", "보낸 편지함", "보낸메일함", "envoyés", "éléments envoyés",
        "gesendet", "gesendete elemente", "gesendete objekte", "enviados", "inviata",
        "posta inviata", "verzonden", "skickat", "отправленные", "已发送", "送信済み",
    }
)
SENT_LABELS: frozenset[str] = frozenset({"\\sent", "sent"})  # IMAP SPECIAL-USE, Gmail
SENT_ORIGIN = "sent"


def is_inbox(folder: str | None) -> bool:
    """True for the inbox itself (IMAP's INBOX, whose name is case-insensitive; a folder
    under it, such as `INBOX.Sent`, is not the inbox)."""
    return folder is not None and folder.strip().casefold() == "inbox"


@functools.lru_cache(maxsize=256)  # asked for every stored message; a mailbox has few folders
def is_sent(origin: str, folder: str | None, labels: tuple[str, ...] = ()) -> bool:
    """True for the user's own outgoing mail, judged by where the store found it.

    The inbox is never a Sent folder, whatever the account's configuration, a SPECIAL-USE
    flag or a label says: mail there was delivered to the user and is judged like any other.
    (A test server that files sent copies in INBOX once made a whole inbox "own mail",
    stored without a decision and never marked.)"""
    if is_inbox(folder):
        return False
    if origin == SENT_ORIGIN:
        return True
    if folder:
        leaf = folder.replace("\\", "/").rstrip("/").rpartition("/")[2]
        for name in (folder, leaf, leaf.rpartition(".")[2]):
            if name.strip().casefold() in SENT_FOLDERS:
                return True
    return any(label.strip().casefold() in SENT_LABELS for label in labels)


def is_own_mail(origin: str, folder: str | None, labels: tuple[str, ...], from_addr: str,
                own_addresses: frozenset[str]) -> bool:
    """True for mail the user wrote, which is stored but never judged (no lane, no scorer,
    no lane actions): sent mail (`is_sent`), or mail From one of the account's own addresses
    found anywhere but the inbox (an archive, Gmail's All Mail). In the inbox a From naming
    the user is judged like any other mail: anyone can write that header."""
    if is_sent(origin, folder, labels):
        return True
    if not own_addresses or folder is None or is_inbox(folder):
        return False
    return from_addr.strip().lower() in own_addresses


@dataclass(frozen=True, slots=True)
class ReadRateSettings:
    window_days: int = 90  # only recent reading behaviour counts
    min_samples: int = 3  # fewer known \Seen flags than this: no read rate at all

    def __post_init__(self) -> None:
        if self.window_days < 1 or self.min_samples < 1:
            raise ValueError("read-rate window and minimum samples must be at least 1")

    def window_start(self, now: datetime) -> datetime:
        return now - timedelta(days=self.window_days)


READ_RATE = ReadRateSettings()


@dataclass(frozen=True, slots=True)
class SenderHistory:
    """What the store knows about one sender, already aggregated."""

    lanes: Mapping[str, int] = field(default_factory=dict)  # current lane -> messages
    seen_in_window: int = 0  # messages in the read window the server marks \Seen ...
    known_in_window: int = 0  # ... out of those whose \Seen flag is known
    last_received: datetime | None = None  # the store's arrival time, not the Date header
    replies_sent: int = 0  # the user's sent messages addressed to this sender
    human_corrections: int = 0  # corrections people made to this sender's mail


@dataclass(frozen=True, slots=True)
class SenderFacts:
    address: str
    messages_received: int
    replies_sent: int
    human_corrections: int
    lanes: Mapping[str, int]
    read_rate: float | None
    read_samples: int
    days_since_last: float | None
    pinned_lane: Lane | None = None
    rule_lane: Lane | None = None
    rule_cites: tuple[int, ...] = ()

    def to_policy(self) -> Facts:
        """The subset the policy reads (core.policy.Facts)."""
        return Facts(
            pinned_lane=self.pinned_lane,
            rule_lane=self.rule_lane,
            messages_received=self.messages_received,
            replies_sent=self.replies_sent,
            human_corrections=self.human_corrections,
            read_rate=self.read_rate,
        )

    def as_numbers(self) -> dict[str, Any]:
        """For a model prompt, outside the untrusted wrapper: only counts and rates."""
        return {
            "messages_received": self.messages_received,
            "replies_sent": self.replies_sent,
            "human_corrections": self.human_corrections,
            "read_rate": None if self.read_rate is None else round(self.read_rate, 3),
            "read_samples": self.read_samples,
            "days_since_last_message": None
            if self.days_since_last is None
            else round(self.days_since_last, 1),
        }

    def as_dict(self) -> dict[str, Any]:
        return {
            "address": self.address,
            **self.as_numbers(),
            "lanes": dict(self.lanes),
            "pinned_lane": None if self.pinned_lane is None else self.pinned_lane.value,
            "rule_lane": None if self.rule_lane is None else self.rule_lane.value,
            "rule_cites": list(self.rule_cites),
        }


def sender_facts(
    address: str,
    history: SenderHistory,
    now: datetime,
    pinned_lane: Lane | None = None,
    rule_lane: Lane | None = None,
    rule_cites: tuple[int, ...] = (),
    settings: ReadRateSettings = READ_RATE,
) -> SenderFacts:
    known = max(0, history.known_in_window)
    seen = min(max(0, history.seen_in_window), known)
    read_rate = seen / known if known >= settings.min_samples else None
    days = None
    if history.last_received is not None:
        days = max(0.0, (now - history.last_received).total_seconds() / 86400)
    lanes = {lane: int(n) for lane, n in sorted(history.lanes.items()) if n > 0}
    return SenderFacts(
        address=address,
        messages_received=sum(lanes.values()),
        replies_sent=max(0, history.replies_sent),
        human_corrections=max(0, history.human_corrections),
        lanes=MappingProxyType(lanes),
        read_rate=read_rate,
        read_samples=known,
        days_since_last=days,
        pinned_lane=pinned_lane,
        rule_lane=rule_lane,
        rule_cites=rule_cites,
    )
