"""Sync bookkeeping in the database: folder state, message locations, server actions and
the lane each message's server actions were planned for."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from mailmoat.core.lane_actions import LaneAction, PlannedAction
from mailmoat.core.mailbox_sync import FolderState
from mailmoat.store.id_sets import among, id_chunks
from mailmoat.store.messages import Store
from mailmoat.store.tables.accounts import (
    AppliedLaneRow,
    FolderStateRow,
    LocationRow,
    ServerActionRow,
)
from mailmoat.store.tables.messages import DecisionRow, MessageRow, table_of

SEEN = "\\Seen"


@dataclass(frozen=True, slots=True)
class Location:
    folder: str
    uidvalidity: int
    uid: int
    message_id: int
    flags: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PendingServerAction:
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
    applied_action: LaneAction


@dataclass(frozen=True, slots=True)
class Unplanned:
    """A stored message with a location and a lane but no lane actions planned yet."""

    message_id: int
    lane: str
    folder: str
    uidvalidity: int
    uid: int
    subject: str
    sender: str


@dataclass(frozen=True, slots=True)
class Plan:
    message_id: int
    lane: str
    actions: tuple[PlannedAction, ...]
    epoch: str  # why these actions: the same epoch and action twice is one action
    applied: LaneAction  # the lane's configuration these actions carry out
    marked_read: bool | None = None


def _now() -> datetime:
    return datetime.now(UTC)


# Locations are read by the thousand (every pending action's message): plain rows, not ORM
# objects, which cost several times more to build.
_LOCATION_COLUMNS = (LocationRow.folder, LocationRow.uidvalidity, LocationRow.uid,
                     LocationRow.message_id, LocationRow.flags)


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

    def known_uids(self, folder: str, uidvalidity: int) -> set[int]:
        """The UIDs stored for a folder (a sync asks for every one after each pass)."""
        with self.store.sessions() as session:
            return set(session.scalars(select(LocationRow.uid).where(
                LocationRow.account_id == self.account_id, LocationRow.folder == folder,
                LocationRow.uidvalidity == uidvalidity)))

    def current_locations(self, message_ids: Iterable[int]) -> dict[int, Location]:
        """Where each message sits now (under its folder's current UIDVALIDITY)."""
        out: dict[int, Location] = {}
        with self.store.sessions() as session:
            for runs in id_chunks(message_ids):
                rows = session.execute(
                    select(*_LOCATION_COLUMNS)
                    .join(FolderStateRow, (FolderStateRow.account_id == LocationRow.account_id)
                          & (FolderStateRow.folder == LocationRow.folder)
                          & (FolderStateRow.uidvalidity == LocationRow.uidvalidity))
                    .where(LocationRow.account_id == self.account_id,
                           among(LocationRow.message_id, runs))
                    .order_by(LocationRow.id))
                # The newest location wins. Unpacked, not named access on each row: a pass
                # reads every pending action's location (10,000 after a first sync).
                for folder, uidvalidity, uid, message_id, flags in rows:
                    out[message_id] = Location(folder, uidvalidity, uid, message_id,
                                               tuple(flags or ()))
        return out

    def record_locations(self, found: Iterable[Location]) -> None:
        """Store where messages sit and keep messages.seen in step. Idempotent."""
        items = list(found)
        try:
            self._record_locations(items)
        except IntegrityError:  # another worker stored some meanwhile: the row-by-row path
            for item in items:
                with contextlib.suppress(IntegrityError):
                    self._record_locations([item])

    def _record_locations(self, items: list[Location]) -> None:
        with self.store.sessions.begin() as session:
            known: set[tuple[str, int, int]] = set()
            for folder, uidvalidity in {(i.folder, i.uidvalidity) for i in items}:
                uids = [i.uid for i in items if i.folder == folder and i.uidvalidity == uidvalidity]
                for runs in id_chunks(uids):
                    known.update((folder, uidvalidity, u) for u in session.scalars(
                        select(LocationRow.uid).where(
                            LocationRow.account_id == self.account_id,
                            LocationRow.folder == folder, LocationRow.uidvalidity == uidvalidity,
                            among(LocationRow.uid, runs))))
            rows: list[dict[str, object]] = []
            for loc in items:
                key = (loc.folder, loc.uidvalidity, loc.uid)
                if key not in known:
                    known.add(key)
                    rows.append({"account_id": self.account_id, "folder": loc.folder,
                                 "uidvalidity": loc.uidvalidity, "uid": loc.uid,
                                 "message_id": loc.message_id, "flags": list(loc.flags)})
            if rows:
                session.execute(insert(table_of(LocationRow)), rows)
            messages = MessageRow.__table__.c
            for seen in (True, False):
                ids = [i.message_id for i in items if (SEEN in i.flags) is seen]
                for runs in id_chunks(ids):
                    session.execute(update(table_of(MessageRow)).where(
                        among(messages.id, runs), messages.seen.is_not(seen)).values(seen=seen))

    def update_flags(self, folder: str, uidvalidity: int,
                     flags: dict[int, tuple[str, ...]]) -> int:
        changed = 0
        with self.store.sessions.begin() as session:
            for runs in id_chunks(flags):
                rows = session.scalars(select(LocationRow).where(
                    LocationRow.account_id == self.account_id, LocationRow.folder == folder,
                    LocationRow.uidvalidity == uidvalidity, among(LocationRow.uid, runs)))
                for row in rows:
                    new = sorted(flags[row.uid])
                    if sorted(row.flags or ()) != new:
                        row.flags = new
                        self._set_seen(session, row.message_id, SEEN in new)
                        changed += 1
        return changed

    def set_seen(self, locations: list[Location], seen: bool) -> None:
        """After mailmoat itself marked messages (un)read: the stored flags follow at once."""
        with self.store.sessions.begin() as session:
            for loc in locations:
                row = session.scalar(select(LocationRow).where(
                    LocationRow.account_id == self.account_id, LocationRow.folder == loc.folder,
                    LocationRow.uidvalidity == loc.uidvalidity, LocationRow.uid == loc.uid))
                if row is not None:
                    flags = set(row.flags or ()) - {SEEN}
                    row.flags = sorted(flags | {SEEN}) if seen else sorted(flags)
                self._set_seen(session, loc.message_id, seen)

    def forget(self, folder: str, uidvalidity: int, uids: Iterable[int]) -> None:
        gone = list(uids)
        if not gone:
            return
        with self.store.sessions.begin() as session:
            for runs in id_chunks(gone):
                session.execute(delete(LocationRow).where(
                    LocationRow.account_id == self.account_id, LocationRow.folder == folder,
                    LocationRow.uidvalidity == uidvalidity, among(LocationRow.uid, runs)))

    @staticmethod
    def _set_seen(session: Session, message_id: int, seen: bool) -> None:
        session.execute(update(MessageRow).where(MessageRow.id == message_id,
                                                 MessageRow.seen.is_not(seen)).values(seen=seen))

    # -- server actions -------------------------------------------------------------------

    def plan_many(self, plans: list[Plan]) -> int:
        """Record planned actions, each under its epoch; the same plan twice adds nothing."""
        if not plans:
            return 0
        try:
            return self._plan_many(plans)
        except IntegrityError:  # another worker planned some of these meanwhile: once more
            return self._plan_many(plans)

    def _plan_many(self, plans: list[Plan]) -> int:
        keyed = [(p, a, f"{self.account_id}:{p.message_id}:{p.epoch}:{a.kind}:{a.argument}"[:300])
                 for p in plans for a in p.actions]
        actions_table = ServerActionRow.__table__
        messages = id_chunks(p.message_id for p in plans)
        with self.store.sessions.begin() as session:
            # A key names its message, so the keys planned already are among the keys of
            # these messages (found by id runs, not by sending every key back).
            existing: set[str] = set()
            for runs in messages:
                existing.update(session.scalars(select(actions_table.c.key).where(
                    among(actions_table.c.message_id, runs))))
            now = _now()
            actions: list[dict[str, object]] = []
            for plan, action, key in keyed:
                if key in existing:
                    continue
                existing.add(key)
                actions.append({
                    "key": key, "account_id": self.account_id, "message_id": plan.message_id,
                    "lane": plan.lane, "kind": action.kind.value, "argument": action.argument,
                    "status": "pending", "detail": "", "created_at": now})
            if actions:  # one executemany, not an ORM object per row (a backfill plans 10,000s)
                session.execute(insert(table_of(ServerActionRow)), actions)
            applied: dict[int, AppliedLaneRow] = {}
            for runs in messages:
                applied.update((r.message_id, r) for r in session.scalars(
                    select(AppliedLaneRow).where(AppliedLaneRow.account_id == self.account_id,
                                                 among(AppliedLaneRow.message_id, runs))))
            fresh: dict[int, dict[str, object]] = {}
            for plan in plans:
                lane = {"lane": plan.lane, "keyword": plan.applied.keyword,
                        "folder": plan.applied.folder, "mark_read": plan.applied.mark_read}
                row = applied.get(plan.message_id)
                if row is not None:
                    if plan.marked_read is not None:
                        row.marked_read_by_us = plan.marked_read
                    for name, value in lane.items():
                        setattr(row, name, value)
                elif plan.message_id in fresh:  # planned twice in this batch: the last wins
                    if plan.marked_read is not None:
                        lane["marked_read_by_us"] = plan.marked_read
                    fresh[plan.message_id].update(lane)
                else:
                    fresh[plan.message_id] = {
                        "account_id": self.account_id, "message_id": plan.message_id,
                        "marked_read_by_us": bool(plan.marked_read), **lane}
            if fresh:
                session.execute(insert(table_of(AppliedLaneRow)), list(fresh.values()))
        return len(actions)

    def pending_located(self) -> list[tuple[PendingServerAction, Location | None]]:
        """Pending actions, oldest first, each with where its message sits now (its newest
        location under the folder's current UIDVALIDITY), None while that is unknown.
        One query: looking the locations up afterwards would send every pending message's
        id back to the database (10,000 of them after a first sync). Plain outer joins,
        which each database walks by index; a location whose folder state does not match
        (an old UIDVALIDITY) comes back without one and does not count."""
        # Table columns, not mapped ones: the ORM's row loading cost more than the query.
        act, loc, state = (ServerActionRow.__table__.c, LocationRow.__table__.c,
                           FolderStateRow.__table__.c)
        out: dict[int, tuple[PendingServerAction, Location | None]] = {}
        with self.store.sessions() as session:
            rows = session.execute(
                select(act.id, act.message_id, act.lane, act.kind, act.argument, loc.folder,
                       loc.uidvalidity, loc.uid, loc.flags, state.uidvalidity)
                .select_from(ServerActionRow.__table__)
                .outerjoin(LocationRow.__table__, (loc.message_id == act.message_id)
                           & (loc.account_id == act.account_id))
                .outerjoin(FolderStateRow.__table__, (state.account_id == loc.account_id)
                           & (state.folder == loc.folder) & (state.uidvalidity == loc.uidvalidity))
                .where(act.account_id == self.account_id, act.status == "pending")
                .order_by(act.id, loc.id)).all()  # fetchall: iterating fetches row by row
            for (action_id, message_id, lane, kind, argument, folder, validity, uid, flags,
                 current) in rows:
                found = (Location(folder, validity, uid, message_id, tuple(flags or ()))
                         if current is not None else None)
                known = out.get(action_id)
                # A message in two places comes twice, newest location last: it wins.
                if known is None or found is not None:
                    out[action_id] = (PendingServerAction(action_id, message_id, lane, kind,
                                                    argument), found)
        return list(out.values())

    def has_pending(self, message_id: int) -> bool:
        with self.store.sessions() as session:
            return session.scalar(select(ServerActionRow.id).where(
                ServerActionRow.account_id == self.account_id,
                ServerActionRow.message_id == message_id,
                ServerActionRow.status == "pending").limit(1)) is not None

    def finish_many(self, outcomes: list[tuple[int, str, str]]) -> None:
        # Outcomes mostly share their status and detail ("done", or one skip reason for
        # the whole run): one UPDATE per distinct outcome, not one per action, naming the
        # ids as runs (actions planned together have consecutive ids).
        same: dict[tuple[str, str], list[int]] = {}
        for action_id, status, detail in outcomes:
            same.setdefault((status, detail[:2000]), []).append(action_id)
        # On the table, not the mapped class: an ORM update would read every updated id
        # back to refresh objects this session never loaded.
        actions = table_of(ServerActionRow)
        with self.store.sessions.begin() as session:
            now = _now()
            for (status, detail), ids in same.items():
                for runs in id_chunks(ids):
                    session.execute(update(actions).where(among(actions.c.id, runs))
                                    .values(status=status, detail=detail, done_at=now))

    def set_marked_read_many(self, values: dict[int, bool]) -> None:
        with self.store.sessions.begin() as session:
            for runs in id_chunks(values):
                for row in session.scalars(select(AppliedLaneRow).where(
                        AppliedLaneRow.account_id == self.account_id,
                        among(AppliedLaneRow.message_id, runs))):
                    row.marked_read_by_us = values[row.message_id]

    def applied_lane(self, message_id: int) -> str | None:
        with self.store.sessions() as session:
            row = session.get(AppliedLaneRow, (self.account_id, message_id))
            return row.lane if row else None

    def unplanned(self, account: str) -> list[Unplanned]:
        """Located, decided messages of this account with no lane actions planned for them
        (no applied-lane row: every plan writes one, even an empty one), at their newest
        location. The user's own mail has no decision and is never among them. Asked on
        every pass, so the common answer (none) is one anti-join over the account's
        locations and the applied-lane primary key."""
        loc, applied = LocationRow.__table__.c, AppliedLaneRow.__table__.c
        decision, message = DecisionRow.__table__.c, MessageRow.__table__.c
        planned = select(applied.message_id).where(applied.account_id == loc.account_id,
                                                   applied.message_id == loc.message_id)
        with self.store.sessions() as session:
            where: dict[int, tuple[str, int, int]] = {}
            for message_id, folder, uidvalidity, uid in session.execute(
                    select(loc.message_id, loc.folder, loc.uidvalidity, loc.uid)
                    .where(loc.account_id == self.account_id, ~planned.exists())
                    .order_by(loc.id)):
                where[message_id] = (folder, uidvalidity, uid)  # the newest location wins
            if not where:
                return []
            out: list[Unplanned] = []
            for runs in id_chunks(where):
                for message_id, lane, subject, sender in session.execute(
                        select(decision.message_id, decision.lane, message.subject,
                               message.from_addr)
                        .join(MessageRow.__table__, message.id == decision.message_id)
                        .where(decision.account == account,
                               among(decision.message_id, runs))):
                    folder, uidvalidity, uid = where[message_id]
                    out.append(Unplanned(message_id, lane, folder, uidvalidity, uid,
                                         subject or "", sender or ""))
        return sorted(out, key=lambda u: u.message_id)

    def drift(self, account: str) -> list[LaneDrift]:
        """Messages whose decision moved away from the lane their server actions carry."""
        with self.store.sessions() as session:
            rows = session.execute(
                select(AppliedLaneRow.message_id, AppliedLaneRow.lane, DecisionRow.lane,
                       AppliedLaneRow.marked_read_by_us, AppliedLaneRow.keyword,
                       AppliedLaneRow.folder, AppliedLaneRow.mark_read)
                .join(DecisionRow, DecisionRow.message_id == AppliedLaneRow.message_id)
                .where(AppliedLaneRow.account_id == self.account_id,
                       DecisionRow.account == account, AppliedLaneRow.lane != DecisionRow.lane))
            return [LaneDrift(m, a, c, bool(r), LaneAction(k, f, bool(mr)))
                    for m, a, c, r, k, f, mr in rows]

    def actions(self, message_id: int) -> list[dict[str, str]]:
        with self.store.sessions() as session:
            rows = session.scalars(select(ServerActionRow).where(
                ServerActionRow.account_id == self.account_id,
                ServerActionRow.message_id == message_id).order_by(ServerActionRow.id))
            return [{"lane": r.lane, "kind": r.kind, "argument": r.argument,
                     "status": r.status, "detail": r.detail} for r in rows]
