"""Apply approved reversible actions (archive, move, label, mark read/unread, trash, snooze,
change lane) on the IMAP server, through the sync's own action runner.

Each approved action becomes server-action rows keyed `<account>:<message>:act:<id>:...`,
so planning it twice (a crash, two workers) adds nothing, and every step is recorded with
its outcome next to the sync's own lane actions. `mail.server_actions.ActionRunner` carries
them out; each of its steps is idempotent. The action is `done` once all its rows are done,
`failed` when one failed or was skipped (say, a label on a server that keeps no keywords),
and stays approved while a row waits for the message's location (next pass).

change_lane is a human correction (learn/'s ledger, so learning sees it); its server side
is the lane reversal the sync plans for every lane change. A snooze adds a keyword; once
its time has passed, a later pass removes it again.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import select

from mailmoat.accounts.oauth import TokenError
from mailmoat.accounts.registry import AccountSettings
from mailmoat.accounts.secrets import KeyRing, SecretKeyError
from mailmoat.act.audit import utcnow
from mailmoat.act.service import ActionService
from mailmoat.core.actions import (
    REVERSIBLE,
    ActionType,
    SpecialFolders,
    change_lane_to,
    server_steps,
    snooze_until,
    wake_steps,
)
from mailmoat.core.lane_actions import PlannedAction, plan_lane_change
from mailmoat.core.lanes import Lane
from mailmoat.core.receipts import PayloadError
from mailmoat.learn.service import Learning, LearningError
from mailmoat.mail.imap import ServerFeatures, special_folders
from mailmoat.mail.runner import CONNECTION_ERRORS, close, open_client
from mailmoat.mail.server_actions import ActionRunner
from mailmoat.store import Store
from mailmoat.store.mailbox_state import Plan, SyncBook
from mailmoat.store.tables.accounts import ServerActionRow
from mailmoat.store.tables.act import ActionRow
from mailmoat.store.tables.messages import DecisionRow

log = logging.getLogger(__name__)
_OPEN_ERRORS: tuple[type[BaseException], ...] = (*CONNECTION_ERRORS, TokenError, SecretKeyError)

# calendar_event is reversible but the executor writes it (exactly once, by UID), not IMAP.
_REVERSIBLE = [a.value for a in REVERSIBLE if a is not ActionType.CALENDAR_EVENT]
Opener = Callable[[Store, KeyRing, AccountSettings], Any]


def _epoch(action_id: int, wake: bool = False) -> str:
    return f"act:{action_id}" + (":wake" if wake else "")


class ReversibleApplier:
    def __init__(self, store: Store, ring: KeyRing, clock: Callable[[], datetime] = utcnow,
                 opener: Opener = open_client) -> None:
        self.store = store
        self.ring = ring
        self.clock = clock
        self.opener = opener
        self.service = ActionService(store.engine, clock)

    def run(self, account: AccountSettings) -> dict[int, str]:
        """Plan and apply this account's approved reversible actions and due wake-ups.
        Returns {action id: done | failed} for the actions finished in this pass."""
        if account.id is None:
            return {}
        todo = self._approved(account.name)
        wakes = self._due_snoozes(account)
        if not todo and not wakes:
            return {}
        book = SyncBook(self.store, account.id)
        refused: dict[int, str] = {}
        later: list[ActionRow] = []  # they need the server's folders: planned once connected
        for action in todo:
            try:
                if action.action == ActionType.CHANGE_LANE.value:
                    self._plan(book, account, action, SpecialFolders())  # recorded at once
                else:
                    server_steps(action.payload)
                    later.append(action)
            except PayloadError as exc:  # stored before validation existed, or altered
                refused[action.id] = f"cannot run: {exc}"
        try:
            client = self.opener(self.store, self.ring, account)
        except _OPEN_ERRORS as exc:
            log.warning("%s: reversible actions wait: %s", account.name, type(exc).__name__)
            return self._finish(account, todo, refused, runner_ok=False)
        try:
            # Planned once connected: archive and trash go where this server keeps them.
            folders = special_folders(client)
            for action in later:
                self._plan(book, account, action, folders)
            for action in wakes:
                self._insert(book, action, _epoch(action.id, wake=True), wake_steps())
            ActionRunner(client, book, ServerFeatures.of(client)).run_pending()
        except CONNECTION_ERRORS as exc:  # the rows stay pending for the next pass
            log.warning("%s: reversible actions wait: %s", account.name, type(exc).__name__)
        finally:
            close(client)
        return self._finish(account, todo, refused, runner_ok=True)

    # -- what to do -----------------------------------------------------------------------

    def _approved(self, account: str) -> list[ActionRow]:
        # AUTO's own lane actions are applied by the sweep (act/auto.py) as it approves them.
        with self.service.sessions() as session:
            return list(session.scalars(
                select(ActionRow).where(ActionRow.account == account,
                                        ActionRow.status == "approved",
                                        ActionRow.action.in_(_REVERSIBLE),
                                        ActionRow.source != "auto")
                .order_by(ActionRow.id)))

    def _due_snoozes(self, account: AccountSettings) -> list[ActionRow]:
        now = self.clock()
        with self.service.sessions() as session:
            snoozed = list(session.scalars(
                select(ActionRow).where(ActionRow.account == account.name,
                                        ActionRow.status == "done",
                                        ActionRow.action == ActionType.SNOOZE.value)))
        due = [a for a in snoozed if snooze_until(a.payload) <= now]
        return [a for a in due if not self._rows(account, a, wake=True)]

    def _plan(self, book: SyncBook, account: AccountSettings, action: ActionRow,
              folders: SpecialFolders) -> None:
        message = int(action.payload["message"])
        steps = server_steps(action.payload, folders)
        if action.action == ActionType.CHANGE_LANE.value:
            self._change_lane(book, account, action, message, change_lane_to(action.payload))
        elif steps:
            self._insert(book, action, _epoch(action.id), steps)

    def _change_lane(self, book: SyncBook, account: AccountSettings, action: ActionRow,
                     message: int, lane: Lane) -> None:
        actor = action.decided_by or action.proposed_by
        # LearningError: an earlier pass recorded it and did not finish, or it is there.
        with contextlib.suppress(LearningError):
            Learning(self.store, account.name).correct(message, lane, actor,
                                                       note=f"action {action.id}")
        for drift in book.drift(account.name):
            if drift.message_id != message:
                continue
            new = Lane(drift.current)
            steps = plan_lane_change(account.lane_actions, Lane(drift.applied), new,
                                     applied=drift.applied_action,
                                     marked_read_by_us=drift.marked_read_by_us)
            book.plan_many([Plan(message, new.value, tuple(steps), _epoch(action.id),
                                 account.lane_actions.for_lane(new))])

    def _insert(self, book: SyncBook, action: ActionRow, epoch: str,
                steps: tuple[PlannedAction, ...]) -> None:
        """Rows for one action's steps, keyed as the sync keys its own. Not through
        `SyncBook.plan_many`: that also moves the message's applied lane, and archiving or
        labelling a message does not change its lane."""
        message = int(action.payload["message"])
        keys = [(s, f"{book.account_id}:{message}:{epoch}:{s.kind}:{s.argument}"[:300])
                for s in steps]
        now = self.clock()
        with self.store.sessions.begin() as session:
            lane = session.scalar(select(DecisionRow.lane)
                                  .where(DecisionRow.message_id == message)) or ""
            known = set(session.scalars(select(ServerActionRow.key).where(
                ServerActionRow.key.in_([k for _, k in keys]))))
            for step, key in keys:
                if key not in known:
                    session.add(ServerActionRow(
                        key=key, account_id=book.account_id, message_id=message, lane=lane,
                        kind=step.kind.value, argument=step.argument, status="pending",
                        detail="", created_at=now))

    # -- how it went ----------------------------------------------------------------------

    def _rows(self, account: AccountSettings, action: ActionRow,
              wake: bool = False) -> list[tuple[str, str]]:
        prefix = f"{account.id}:{int(action.payload['message'])}:{_epoch(action.id, wake)}:"
        with self.store.sessions() as session:
            return [(s, d) for s, d in session.execute(
                select(ServerActionRow.status, ServerActionRow.detail)
                .where(ServerActionRow.key.startswith(prefix, autoescape=True)))]

    def _finish(self, account: AccountSettings, todo: list[ActionRow],
                refused: dict[int, str], runner_ok: bool) -> dict[int, str]:
        finished: dict[int, str] = {}
        for action in todo:
            if action.id in refused:
                outcome: tuple[bool, str] | None = (False, refused[action.id])
            else:
                outcome = _verdict(self._rows(account, action), action, runner_ok,
                                   self._located(account, action))
            if outcome is None:
                continue
            ok, detail = outcome
            self.service.finish_reversible(action.id, f"executor:{account.name}", ok, detail)
            finished[action.id] = "done" if ok else "failed"
        return finished

    def _located(self, account: AccountSettings, action: ActionRow) -> bool:
        assert account.id is not None
        message = int(action.payload["message"])
        return bool(SyncBook(self.store, account.id).current_locations([message]))


def _verdict(rows: list[tuple[str, str]], action: ActionRow, runner_ok: bool,
             located: bool) -> tuple[bool, str] | None:
    """(ok, detail) once the action's rows are settled; None while one still waits."""
    failed = [d or s for s, d in rows if s in ("failed", "skipped")]
    if failed:
        return False, "; ".join(failed)[:2000]
    if any(s == "pending" for s, _ in rows):
        if runner_ok and not located:
            # Not in any folder sync watches (archived, moved away): nothing can reach it.
            return False, "the message is not in a folder mailmoat syncs"
        return None
    if not runner_ok and action.action != ActionType.CHANGE_LANE.value:
        return None
    return True, "; ".join(d for _, d in rows if d)[:2000]
