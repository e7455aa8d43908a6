"""The notification log (what was sent, held, snoozed "later" or digested, once per message
and kind), the fresh mail that may notify, and the browsers' Web Push subscriptions."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from mailmoat.store.db import aware, now
from mailmoat.store.messages import Store
from mailmoat.store.tables.messages import DecisionRow, MessageRow
from mailmoat.store.tables.web import NotificationRow, PushSubscriptionRow


class Notifications:
    def __init__(self, store: Store) -> None:
        self.sessions = store.sessions

    def log(self, account: str, message_id: int, kind: str, detail: str = "",
            due_at: datetime | None = None) -> bool:
        """False when this (message, kind) was logged before: the database keeps it once."""
        try:
            with self.sessions.begin() as s:
                s.add(NotificationRow(account=account, message_id=message_id, kind=kind,
                                      detail=detail[:2000], due_at=due_at, created_at=now()))
        except IntegrityError:
            return False
        return True

    def entries(self, account: str, kinds: Sequence[str] | None = None,
             since: datetime | None = None) -> list[dict[str, Any]]:
        with self.sessions() as s:
            query = select(NotificationRow).where(NotificationRow.account == account)
            if kinds is not None:
                query = query.where(NotificationRow.kind.in_(list(kinds)))
            if since is not None:
                query = query.where(NotificationRow.created_at > since)
            return [{"message_id": r.message_id, "kind": r.kind, "detail": r.detail,
                     "due_at": aware(r.due_at) if r.due_at else None,
                     "created_at": aware(r.created_at)}
                    for r in s.scalars(query.order_by(NotificationRow.id))]

    def forget(self, account: str, message_id: int, kind: str) -> None:
        with self.sessions.begin() as s:
            s.execute(delete(NotificationRow).where(
                NotificationRow.account == account, NotificationRow.message_id == message_id,
                NotificationRow.kind == kind))

    def fresh_candidates(self, account: str, since: datetime) -> list[dict[str, Any]]:
        """PUSH and MEETING messages stored after `since`, oldest first."""
        with self.sessions() as s:
            rows = s.execute(
                select(MessageRow.id, MessageRow.from_addr, MessageRow.from_name,
                       MessageRow.subject, MessageRow.created_at, MessageRow.date,
                       MessageRow.seen, DecisionRow.lane)
                .join(DecisionRow, DecisionRow.message_id == MessageRow.id)
                .where(MessageRow.account == account, MessageRow.created_at > since,
                       DecisionRow.lane.in_(["PUSH", "MEETING"]))
                .order_by(MessageRow.id))
            return [{"id": r.id, "from_addr": r.from_addr, "from_name": r.from_name,
                     "subject": r.subject, "created_at": aware(r.created_at), "date": r.date,
                     "seen": r.seen, "lane": r.lane} for r in rows]


class PushSubscriptions:
    def __init__(self, store: Store) -> None:
        self.sessions = store.sessions

    def add(self, user_id: int, account: str, endpoint: str, p256dh: str, auth: str) -> None:
        with self.sessions.begin() as s:
            s.execute(delete(PushSubscriptionRow).where(PushSubscriptionRow.endpoint == endpoint))
            s.add(PushSubscriptionRow(user_id=user_id, account=account, endpoint=endpoint,
                                      p256dh=p256dh, auth=auth, created_at=now()))

    def subscriptions(self, account: str) -> list[dict[str, Any]]:
        with self.sessions() as s:
            return [{"endpoint": r.endpoint, "keys": {"p256dh": r.p256dh, "auth": r.auth}}
                    for r in s.scalars(select(PushSubscriptionRow)
                                       .where(PushSubscriptionRow.account == account))]

    def forget(self, endpoints: Sequence[str]) -> None:
        """Subscriptions the push service reported gone (404/410)."""
        if endpoints:
            with self.sessions.begin() as s:
                s.execute(delete(PushSubscriptionRow).where(
                    PushSubscriptionRow.endpoint.in_(list(endpoints))))
