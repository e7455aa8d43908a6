"""Sync bookkeeping in the database: folder state, message locations, server actions and
the lane each message's server actions were planned for."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from mailmoat.core.lane_actions import PlannedAction
from mailmoat.core.mailbox_sync import FolderState
from mailmoat.store.accounts_models import (
    AppliedLaneRow,
    FolderStateRow,
    LocationRow,
    ServerActionRow,
)
from mailmoat.store.models import DecisionRow, MessageRow
from mailmoat.store.repository import Store

SEEN = "\\Seen"


@dataclass(frozen=True, slots=True)
class Location:
    folder: str
    uidvalidity: int
    uid: int
    message_id: int
    flags: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PendingAction:
    id: int
    message_id: int
    lane: str
    kind: str
    argument: str


@dataclass(frozen=True, slots=True)
class LaneDrift:
    message_id: int
    applied: str
    current: str
    marked_read_by_us: bool


def _now() -> datetime:
    return datetime.now(UTC)


class SyncBook:
    def __init__(self, store: Store, account_id: int) -> None:
        self.store = store
        self.account_id = account_id

    # -- folder state ---------------------------------------------------------------------

    def folder_state(self, folder: str) -> FolderState | None:
        with self.store.sessions() as session:
            row = session.get(FolderStateRow, (self.account_id, folder))
            if row is None:
                return None
            return FolderState(row.uidvalidity, row.high_uid, row.backfill_done,
                               row.highest_modseq)

    def save_state(self, folder: str, state: FolderState) -> None:
        with self.store.sessions.begin() as session:
            session.merge(FolderStateRow(
                account_id=self.account_id, folder=folder, uidvalidity=state.uidvalidity,
                high_uid=state.high_uid, backfill_done=state.backfill_done,
                highest_modseq=state.highest_modseq, updated_at=_now(),
            ))

    def reset_folder(self, folder: str, state: FolderState) -> None:
        """UIDVALIDITY changed: every stored UID of the folder is meaningless now."""
        with self.store.sessions.begin() as session:
            session.execute(delete(LocationRow).where(
                LocationRow.account_id == self.account_id, LocationRow.folder == folder))
        self.save_state(folder, state)

    # -- locations ------------------------------------------------------------------------

    def locations(self, folder: str, uidvalidity: int) -> dict[int, Location]:
        with self.store.sessions() as session:
            rows = session.scalars(select(LocationRow).where(
                LocationRow.account_id == self.account_id, LocationRow.folder == folder,
                LocationRow.uidvalidity == uidvalidity))
            return {r.uid: Location(r.folder, r.uidvalidity, r.uid, r.message_id,
                                    tuple(r.flags or ())) for r in rows}

    def locations_of(self, message_id: int) -> list[Location]:
        with self.store.sessions() as session:
            rows = session.execute(
                select(LocationRow)
                .join(FolderStateRow, (FolderStateRow.account_id == LocationRow.account_id)
                      & (FolderStateRow.folder == LocationRow.folder)
                      & (FolderStateRow.uidvalidity == LocationRow.uidvalidity))
                .where(LocationRow.account_id == self.account_id,
                       LocationRow.message_id == message_id)
                .order_by(LocationRow.id.desc())
            ).scalars()
            return [Location(r.folder, r.uidvalidity, r.uid, r.message_id, tuple(r.flags or ()))
                    for r in rows]

    def record_locations(self, found: Iterable[Location]) -> None:
        """Store where messages sit and keep messages.seen in step. Idempotent."""
        items = list(found)
        with self.store.sessions.begin() as session:
            for loc in items:
                exists = session.scalar(select(LocationRow.id).where(
                    LocationRow.account_id == self.account_id, LocationRow.folder == loc.folder,
                    LocationRow.uidvalidity == loc.uidvalidity, LocationRow.uid == loc.uid))
                if exists is None:
                    try:
                        with session.begin_nested():
                            session.add(LocationRow(
                                account_id=self.account_id, folder=loc.folder,
                                uidvalidity=loc.uidvalidity, uid=loc.uid,
                                message_id=loc.message_id, flags=list(loc.flags)))
                    except IntegrityError:  # another worker stored it meanwhile
                        pass
                self._set_seen(session, loc.message_id, SEEN in loc.flags)

    def update_flags(self, folder: str, uidvalidity: int, flags: dict[int, tuple[str, ...]]) -> int:
        changed = 0
        with self.store.sessions.begin() as session:
            rows = session.scalars(select(LocationRow).where(
                LocationRow.account_id == self.account_id, LocationRow.folder == folder,
                LocationRow.uidvalidity == uidvalidity, LocationRow.uid.in_(list(flags))))
            for row in rows:
                new = sorted(flags[row.uid])
                if sorted(row.flags or ()) != new:
                    row.flags = new
                    self._set_seen(session, row.message_id, SEEN in new)
                    changed += 1
        return changed

    def forget(self, folder: str, uidvalidity: int, uids: Iterable[int]) -> None:
        gone = list(uids)
        if not gone:
            return
        with self.store.sessions.begin() as session:
            session.execute(delete(LocationRow).where(
                LocationRow.account_id == self.account_id, LocationRow.folder == folder,
                LocationRow.uidvalidity == uidvalidity, LocationRow.uid.in_(gone)))

    @staticmethod
    def _set_seen(session: Session, message_id: int, seen: bool) -> None:
        session.execute(update(MessageRow).where(MessageRow.id == message_id,
                                                 MessageRow.seen.is_not(seen)).values(seen=seen))

    # -- server actions -------------------------------------------------------------------

    def plan(self, message_id: int, lane: str, actions: list[PlannedAction], epoch: str,
             marked_read: bool | None = None) -> int:
        """Record planned actions under `epoch`; the same plan twice adds nothing."""
        added = 0
        with self.store.sessions.begin() as session:
            for action in actions:
                key = f"{self.account_id}:{message_id}:{epoch}:{action.kind}:{action.argument}"
                if session.scalar(select(ServerActionRow.id).where(ServerActionRow.key == key)):
                    continue
                try:
                    with session.begin_nested():
                        session.add(ServerActionRow(
                            key=key[:300], account_id=self.account_id, message_id=message_id,
                            lane=lane, kind=action.kind.value, argument=action.argument,
                            status="pending", detail="", created_at=_now()))
                        added += 1
                except IntegrityError:
                    pass
            row = session.get(AppliedLaneRow, (self.account_id, message_id))
            if row is None:
                session.add(AppliedLaneRow(account_id=self.account_id, message_id=message_id,
                                           lane=lane, marked_read_by_us=bool(marked_read)))
            else:
                row.lane = lane
                if marked_read is not None:
                    row.marked_read_by_us = marked_read
        return added

    def pending(self) -> list[PendingAction]:
        with self.store.sessions() as session:
            rows = session.scalars(select(ServerActionRow).where(
                ServerActionRow.account_id == self.account_id,
                ServerActionRow.status == "pending").order_by(ServerActionRow.id))
            return [PendingAction(r.id, r.message_id, r.lane, r.kind, r.argument) for r in rows]

    def has_pending(self, message_id: int) -> bool:
        with self.store.sessions() as session:
            return session.scalar(select(ServerActionRow.id).where(
                ServerActionRow.account_id == self.account_id,
                ServerActionRow.message_id == message_id,
                ServerActionRow.status == "pending").limit(1)) is not None

    def finish(self, action_id: int, status: str, detail: str = "") -> None:
        with self.store.sessions.begin() as session:
            row = session.get(ServerActionRow, action_id)
            if row is not None:
                row.status, row.detail, row.done_at = status, detail[:2000], _now()

    def set_marked_read(self, message_id: int, value: bool) -> None:
        with self.store.sessions.begin() as session:
            row = session.get(AppliedLaneRow, (self.account_id, message_id))
            if row is not None:
                row.marked_read_by_us = value

    def applied_lane(self, message_id: int) -> str | None:
        with self.store.sessions() as session:
            row = session.get(AppliedLaneRow, (self.account_id, message_id))
            return row.lane if row else None

    def drift(self, account: str) -> list[LaneDrift]:
        """Messages whose decision moved away from the lane their server actions carry."""
        with self.store.sessions() as session:
            rows = session.execute(
                select(AppliedLaneRow.message_id, AppliedLaneRow.lane, DecisionRow.lane,
                       AppliedLaneRow.marked_read_by_us)
                .join(DecisionRow, DecisionRow.message_id == AppliedLaneRow.message_id)
                .where(AppliedLaneRow.account_id == self.account_id,
                       DecisionRow.account == account, AppliedLaneRow.lane != DecisionRow.lane))
            return [LaneDrift(m, a, c, bool(r)) for m, a, c, r in rows]

    def actions(self, message_id: int) -> list[dict[str, str]]:
        with self.store.sessions() as session:
            rows = session.scalars(select(ServerActionRow).where(
                ServerActionRow.account_id == self.account_id,
                ServerActionRow.message_id == message_id).order_by(ServerActionRow.id))
            return [{"lane": r.lane, "kind": r.kind, "argument": r.argument,
                     "status": r.status, "detail": r.detail} for r in rows]
