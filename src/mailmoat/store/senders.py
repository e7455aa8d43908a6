"""What a person chose for a sender on one account: remote images allowed, notifications
muted. (Pins are learn/'s, in its ledger.)"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from mailmoat.store.db import now
from mailmoat.store.messages import Store
from mailmoat.store.tables.web import SenderPrefRow


@dataclass(frozen=True, slots=True)
class SenderPrefs:
    pinned_lane: str | None = None
    allow_images: bool = False
    muted: bool = False


class Senders:
    def __init__(self, store: Store) -> None:
        self.sessions = store.sessions

    def prefs(self, account: str, sender: str) -> SenderPrefs:
        with self.sessions() as s:
            row = s.get(SenderPrefRow, (account, sender.lower()))
            if row is None:
                return SenderPrefs()
            return SenderPrefs(row.pinned_lane, row.allow_images, row.muted)

    def set_prefs(self, account: str, sender: str, actor: str, **changes: Any) -> None:
        with self.sessions.begin() as s:
            row = s.get(SenderPrefRow, (account, sender.lower()))
            if row is None:
                row = SenderPrefRow(account=account, sender=sender.lower(), pinned_lane=None,
                                    allow_images=False, muted=False)
                s.add(row)
            for key, value in changes.items():
                setattr(row, key, value)
            row.updated_by, row.updated_at = actor, now()

    def muted(self, account: str) -> frozenset[str]:
        with self.sessions() as s:
            return frozenset(s.scalars(select(SenderPrefRow.sender).where(
                SenderPrefRow.account == account, SenderPrefRow.muted.is_(True))))
