"""One sync pass over one account: new mail, backfill, flags, lane actions.

sync -> parse -> decide -> store (message and trace) -> plan lane actions -> notify -> apply.
A pass can stop anywhere (crash, dropped connection) and the next pass picks up exactly
what is missing: see `core.mailbox_sync` for why that holds. Storing a batch, recording
where its mail sits and planning its lane actions are separate commits; a stop between them
leaves stored, located mail with no plan, and every pass plans what such mail lacks
(`_repair_unplanned`) before it applies actions. Stored mail without a decision that is
not the user's own (stored as own mail under a rule that has since changed) is decided by
the next pass (`_decide_late`), then planned and notified like any other.

The user's own mail (a Sent folder: SPECIAL-USE \\Sent, the account's configured Sent
folder, a Sent folder's usual name; or mail From the account's own address outside the
inbox) is stored for sender history but never judged: no scorer, no lane, no lane actions,
no notification, nothing for the AUTO sweep.

`MAILMOAT_SYNC_CRASH_AT=after_locations` makes the process SIGKILL itself right after a
batch's locations are committed and before its lane actions are planned: the deterministic
crash the repair test uses. It can only kill this process.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, timedelta
from typing import cast

from imapclient import IMAPClient

from mailmoat.accounts.registry import AccountSettings
from mailmoat.core.evidence import junk_marks
from mailmoat.core.facts import SENT_ORIGIN, is_inbox
from mailmoat.core.lane_actions import (
    ActionKind,
    LaneAction,
    LaneActions,
    correction_from_move,
    expected_folder,
    plan_lane_change,
)
from mailmoat.core.lanes import Lane
from mailmoat.core.mailbox_sync import (
    FolderStart,
    FolderState,
    backfill_order,
    batches,
    folder_start,
    new_uids,
    start_state,
    vanished_uids,
)
from mailmoat.learn.service import Learning, LearningError
from mailmoat.mail.imap import ServerFeatures
from mailmoat.mail.ingress import Arrival, NoNotifications, NotificationHook, notify_safely
from mailmoat.mail.parse_pool import ParsePool, default_workers
from mailmoat.mail.server_actions import ActionRunner
from mailmoat.store.mailbox_state import Location, Plan, SyncBook
from mailmoat.store.messages import Incoming, Prepared, Store

log = logging.getLogger(__name__)

BATCH = 100
FLAG_CHUNK = 1000  # UIDs per FLAGS fetch: keeps the command line short
# A pull of POOL_MIN UIDs or more is "large": prepared in worker processes (a worker costs
# ~0.5 s to start) and stored GROUP_BATCHES fetched batches per transaction, or fewer once
# they hold GROUP_BYTES. A smaller pull (IDLE arrivals) stores batch by batch, in-process.
POOL_MIN = 500
GROUP_BATCHES = 5
GROUP_BYTES = 16 * 2**20
USER_MOVE = "imap:user-move"
CRASH_ENV = "MAILMOAT_SYNC_CRASH_AT"
CRASH_POINTS = frozenset({"after_locations"})
Progress = Callable[[str, int, int], None]  # (folder, done, total)
Fetched = dict[int, dict[bytes, object]]


@dataclass
class PassReport:
    fetched: int = 0
    created: int = 0
    already_known: int = 0
    resynced: list[str] = field(default_factory=list)
    flag_changes: int = 0
    corrections: int = 0
    actions_planned: int = 0
    actions_done: int = 0
    skipped_folders: list[str] = field(default_factory=list)
    own: int = 0  # the user's own mail stored for sender history, not judged
    repaired: int = 0  # located mail found without planned lane actions, planned now
    decided_late: int = 0  # stored mail found without a decision, decided now


@dataclass(frozen=True, slots=True)
class _Batch:
    uids: list[int]  # in the order asked for, those the server answered
    raws: list[bytes]
    flags: list[tuple[str, ...]]


@dataclass
class _Group:
    """Fetched batches stored together, each being prepared meanwhile."""

    asked: list[list[int]] = field(default_factory=list)
    batches: list[_Batch] = field(default_factory=list)
    work: list[Future[list[Prepared]]] = field(default_factory=list)
    size: int = 0

    def add(self, asked: list[int], batch: _Batch, work: Future[list[Prepared]]) -> None:
        self.asked.append(asked)
        self.batches.append(batch)
        self.work.append(work)
        self.size += sum(map(len, batch.raws))


def _prepared(parsing: Future[list[Prepared]]) -> list[Prepared] | None:
    """The worker's work, or None (the store does it in-process) if the worker died."""
    try:
        return parsing.result()
    except BrokenProcessPool:
        log.warning("a parse worker died; parsing this batch in-process")
        return None


def _body_key(item: dict[bytes, object]) -> bytes | None:
    for key, value in item.items():
        if key.startswith(b"BODY[") and isinstance(value, bytes):
            return value
    return None


def _flags(item: dict[bytes, object]) -> tuple[str, ...]:
    raw = cast(Iterable[object], item.get(b"FLAGS", ()))  # imapclient: a tuple of bytes
    out = []
    for flag in raw:
        text = flag.decode("utf-8", "replace") if isinstance(flag, bytes) else str(flag)
        if text != "\\Recent":  # a session flag, different for every connection
            out.append(text)
    return tuple(sorted(out))


class MailboxSync:
    def __init__(
        self,
        store: Store,
        account: AccountSettings,
        hook: NotificationHook | None = None,
        batch: int = BATCH,
        today: Callable[[], date] = lambda: datetime.now(UTC).date(),
        flag_interval: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
        parse_workers: int | None = None,
    ) -> None:
        if account.id is None:
            raise ValueError("the account must be stored before it is synced")
        self.store = store
        self.account = account
        self.book = SyncBook(store, account.id)
        self.hook = hook or NoNotifications()
        self.batch = batch
        self.today = today
        self.config: LaneActions = account.lane_actions
        self.flag_interval = flag_interval
        self.clock = clock
        self._last_sweep: dict[str, float] = {}
        # UIDNEXT per folder when this syncer's last pass selected it: the IDLE watcher
        # compares it with its own, to notice mail delivered during the pass.
        self.uidnext_seen: dict[str, int] = {}
        self.parse_workers = default_workers() if parse_workers is None else parse_workers
        self.own_addresses = own_addresses(account)
        self._sent_folders: frozenset[str] | None = None  # asked once per syncer
        crash = os.environ.get(CRASH_ENV, "")
        if crash and crash not in CRASH_POINTS:
            raise ValueError(f"{CRASH_ENV} must be one of {sorted(CRASH_POINTS)}")
        self._crash_at = crash

    # -- the pass -------------------------------------------------------------------------

    def run_pass(self, client: IMAPClient, progress: Progress | None = None) -> PassReport:
        report = PassReport()
        features = ServerFeatures.of(client)
        self.config = self.account.lane_actions.with_delimiter(hierarchy_delimiter(client))
        if features.qresync:
            client.enable("QRESYNC")
        elif features.condstore:
            client.enable("CONDSTORE")
        if self._sent_folders is None:
            self._sent_folders = sent_folders(client, self.account)
        folders = list(dict.fromkeys([*self.account.folders, *self.config.lane_folders()]))
        for folder in folders:
            if folder not in self.account.folders and not client.folder_exists(folder):
                report.skipped_folders.append(folder)  # a lane folder not created yet
                continue
            self._sync_folder(client, folder, features, report, progress)
        self._decide_late(report)
        self._repair_unplanned(report)
        self._plan_lane_changes(report)
        report.actions_done = ActionRunner(client, self.book, features).run_pending()
        return report

    def _sync_folder(self, client: IMAPClient, folder: str, features: ServerFeatures,
                     report: PassReport, progress: Progress | None) -> None:
        info = client.select_folder(folder)
        uidvalidity = int(info[b"UIDVALIDITY"])
        uidnext = int(info.get(b"UIDNEXT", 0)) or (max(client.search(["ALL"]) or [0]) + 1)
        self.uidnext_seen[folder] = uidnext
        stored = self.book.folder_state(folder)
        start = folder_start(stored, uidvalidity)
        if start is FolderStart.CONTINUE and stored is not None:
            state = stored
        else:
            state = start_state(uidvalidity, uidnext)
            if start is FolderStart.RESYNC:
                log.warning("%s/%s: UIDVALIDITY changed; resyncing", self.account.name, folder)
                report.resynced.append(folder)
                self.book.reset_folder(folder, state)
            else:
                self.book.save_state(folder, state)
        # New mail first: it is what a person is waiting for. A state made just now from
        # this SELECT's UIDNEXT has nothing above it yet, so its SEARCH (a pass over the
        # whole folder on some servers) is skipped; mail delivered since is above
        # `uidnext_seen`, which the IDLE watcher checks, and the next pass fetches it.
        arrived = (new_uids(client.search(["UID", f"{state.high_uid + 1}:*"]), state.high_uid)
                   if start is FolderStart.CONTINUE else [])
        fresh: set[int] = set()

        def advance(chunk: list[int]) -> None:
            nonlocal state
            state = replace(state, high_uid=max(chunk))
            self.book.save_state(folder, state)

        self._pull(client, folder, uidvalidity, arrived, report, fresh, advance, incremental=True)
        if not state.backfill_done:
            state = self._backfill(client, folder, state, report, fresh, progress)
        self._sync_flags(client, folder, state, features, info, report, fresh)

    def _backfill(self, client: IMAPClient, folder: str, state: FolderState,
                  report: PassReport, fresh: set[int], progress: Progress | None) -> FolderState:
        if state.high_uid > 0:
            criteria: list[object] = ["UID", f"1:{state.high_uid}"]
            if self.account.backfill_days > 0:
                criteria += ["SINCE", self.today() - timedelta(days=self.account.backfill_days)]
            on_server = client.search(criteria)
            known = self.book.known_uids(folder, state.uidvalidity)
            todo = backfill_order(on_server, known, state.high_uid)
        else:
            todo = []
        total = len(todo)
        done = 0

        def advance(chunk: list[int]) -> None:
            nonlocal done
            done += len(chunk)
            if progress:
                progress(folder, done, total)

        self._pull(client, folder, state.uidvalidity, todo, report, fresh, advance,
                   incremental=False)
        state = replace(state, backfill_done=True)
        self.book.save_state(folder, state)
        return state

    # -- fetch, decide, store -------------------------------------------------------------

    def _fetch(self, client: IMAPClient, uids: list[int]) -> _Batch:
        # BODY.PEEK never sets \Seen; the partial fetch bounds what one message can cost.
        fetched: Fetched = client.fetch(
            uids, ["FLAGS", f"BODY.PEEK[]<0.{self.account.max_body_bytes}>"])
        order = [u for u in uids if u in fetched]
        raws = [_body_key(fetched[u]) or b"" for u in order]
        return _Batch(order, raws, [_flags(fetched[u]) for u in order])

    def _pull(self, client: IMAPClient, folder: str, uidvalidity: int, uids: list[int],
              report: PassReport, fresh: set[int], advance: Callable[[list[int]], None],
              incremental: bool) -> None:
        """Fetch `uids` in batches and store them in order, calling `advance` after each
        stored group of batches.

        A fetch thread downloads the next group while this thread stores the last one; on
        a large pull each batch is also prepared (parsed, perceived) in a worker process
        meanwhile. A group closes at GROUP_BATCHES batches or GROUP_BYTES, so at most two
        groups are in memory. A UID counts only once `advance` ran for its group, so a
        failure anywhere leaves the rest for the next pass, exactly as without the
        pipeline."""
        if not uids:
            return
        large = len(uids) >= POOL_MIN
        workers, per_group = (self.parse_workers, GROUP_BATCHES) if large else (0, 1)
        todo = iter(batches(uids, self.batch))

        def store(group: _Group) -> None:
            prepared = [_prepared(work) for work in group.work]
            joined = _Batch([u for b in group.batches for u in b.uids],
                            [r for b in group.batches for r in b.raws],
                            [f for b in group.batches for f in b.flags])
            ready = (None if any(p is None for p in prepared)
                     else [item for p in prepared for item in p or ()])
            self._ingest(joined, folder, uidvalidity, report, incremental, ready)
            fresh.update(joined.uids)
            advance([u for chunk in group.asked for u in chunk])

        with ParsePool(workers) as pool, ThreadPoolExecutor(1, "mailmoat-fetch") as fetcher:

            def fetch_group() -> _Group:
                # Runs on the fetch thread, the only user of `client` until the pull ends.
                group = _Group()
                for chunk in todo:
                    batch = self._fetch(client, chunk)
                    group.add(chunk, batch, pool.submit(
                        [(raw, junk_marks(f, folder))
                         for raw, f in zip(batch.raws, batch.flags, strict=True)]))
                    if len(group.asked) >= per_group or group.size >= GROUP_BYTES:
                        break
                return group

            coming = fetcher.submit(fetch_group)
            while (group := coming.result()).asked:
                coming = fetcher.submit(fetch_group)  # the next group downloads meanwhile
                store(group)

    def _ingest(self, batch: _Batch, folder: str, uidvalidity: int, report: PassReport,
                incremental: bool, prepared: list[Prepared] | None = None) -> None:
        order, raws, flags = batch.uids, batch.raws, batch.flags
        report.fetched += len(order)
        origin = SENT_ORIGIN if folder in (self._sent_folders or ()) else "imap"
        results = self.store.ingest_many(
            [Incoming(raw, origin, folder, junk_marks(f, folder),
                      own_addresses=self.own_addresses)
             for raw, f in zip(raws, flags, strict=True)], self.account.name, prepared)
        self.book.record_locations(
            Location(folder, uidvalidity, uid, r.message_id, f)
            for uid, r, f in zip(order, results, flags, strict=True))
        if self._crash_at == "after_locations":
            os.kill(os.getpid(), signal.SIGKILL)
        plans: list[Plan] = []
        arrivals: list[Arrival] = []
        for uid, result in zip(order, results, strict=True):
            if result.own:  # the user's own mail: stored, never judged or marked
                report.own += result.created
                report.already_known += not result.created
                continue
            lane = Lane(result.lane)
            epoch = f"loc:{folder}:{uidvalidity}:{uid}"
            if result.created:
                report.created += 1
                plans.append(self._planned(result.message_id, None, lane, epoch))
                arrivals.append(Arrival(self.account.name, result.message_id, lane.value,
                                        folder, result.subject, result.sender))
                continue
            report.already_known += 1
            if (incremental and not self.book.has_pending(result.message_id)
                    and self._correction(result.message_id, lane, folder, report)):
                continue
            if not incremental:
                # Found again by a backfill (after a UIDVALIDITY change, say): the server
                # may have lost our marks, so plan them for this location; planning is
                # idempotent per location and each action checks before it changes.
                plans.append(self._planned(result.message_id, None, lane, epoch))
        report.actions_planned += self.book.plan_many(plans)
        for arrival in arrivals:
            notify_safely(self.hook, arrival)

    def _planned(self, message_id: int, old: Lane | None, new: Lane, epoch: str,
                 move: bool = True, marked_read_by_us: bool = False,
                 applied: LaneAction | None = None) -> Plan:
        actions = plan_lane_change(self.config, old, new, applied=applied,
                                   marked_read_by_us=marked_read_by_us)
        if not move:
            actions = [a for a in actions if a.kind is not ActionKind.MOVE]
        return Plan(message_id, new.value, tuple(actions), epoch, self.config.for_lane(new))

    def _plan(self, message_id: int, old: Lane | None, new: Lane, epoch: str,
              report: PassReport, move: bool = True, marked_read_by_us: bool = False,
              applied: LaneAction | None = None) -> None:
        report.actions_planned += self.book.plan_many(
            [self._planned(message_id, old, new, epoch, move, marked_read_by_us, applied)])

    def _correction(self, message_id: int, lane: Lane, folder: str,
                    report: PassReport) -> bool:
        """The person moved this message in their own client: record it, do not fight it.
        It is a lane change by a person like any other, so it goes into the corrections
        ledger (rules and the learned scorer learn from it)."""
        if self.book.applied_lane(message_id) is None:
            return False
        corrected = correction_from_move(self.config, lane, folder)
        if corrected is None:
            return False
        learning = Learning(self.store, account=self.account.name)
        with contextlib.suppress(LearningError):  # the decision already says that lane
            learning.correct(message_id, corrected, USER_MOVE, note=f"moved to {folder}")
        final = learning.lane(message_id)
        self._plan(message_id, lane, final, f"user-move:{folder}:{lane}->{final}", report,
                   move=expected_folder(self.config, final) != folder)
        report.corrections += 1
        log.info("%s: message %s moved to %s by the user: %s -> %s",
                 self.account.name, message_id, folder, lane, final)
        return True

    def _decide_late(self, report: PassReport) -> None:
        """Decide this account's stored mail that has no decision and is not the user's own
        (Store.undecided): mail an earlier pass stored as own mail under a rule that no
        longer says so (an inbox configured as the Sent folder, issue 20). It runs before
        `_repair_unplanned`, which then plans its lane actions and sends its arrival
        notification in this same pass."""
        found = self.store.undecided(self.account.name, self.own_addresses)
        for start in range(0, len(found), self.batch):
            report.decided_late += len(
                self.store.decide_late(self.account.name, found[start:start + self.batch],
                                       self.own_addresses))
        if report.decided_late:
            log.warning("%s: %d stored messages had no decision; decided now",
                        self.account.name, report.decided_late)

    def _repair_unplanned(self, report: PassReport) -> None:
        """Plan lane actions for located mail that has none: a pass stopped after recording
        where a batch sits and before planning its actions (SIGKILL, power loss). Planned
        under the same epoch as the first attempt would have been, so a plan that did
        commit is never doubled; its arrival goes to the hook, whose notifier sends each
        message at most once."""
        found = self.book.unplanned(self.account.name)
        if not found:
            return
        plans = [self._planned(u.message_id, None, Lane(u.lane),
                               f"loc:{u.folder}:{u.uidvalidity}:{u.uid}") for u in found]
        report.actions_planned += self.book.plan_many(plans)
        report.repaired += len(found)
        log.warning("%s: %d stored messages had no lane actions planned (an interrupted "
                    "pass); planned now", self.account.name, len(found))
        for u in found:
            notify_safely(self.hook, Arrival(self.account.name, u.message_id, u.lane,
                                             u.folder, u.subject, u.sender))

    def _plan_lane_changes(self, report: PassReport) -> None:
        """Decisions changed in mailmoat (a person, a re-judge): reverse the old server
        actions and apply the new lane's."""
        for drift in self.book.drift(self.account.name):
            self._plan(drift.message_id, Lane(drift.applied), Lane(drift.current),
                       f"change:{drift.applied}->{drift.current}:{self._ledger_size(drift.message_id)}",
                       report, marked_read_by_us=drift.marked_read_by_us,
                       applied=drift.applied_action)

    def _ledger_size(self, message_id: int) -> int:
        return len(self.store.ledger(message_id))

    # -- flags and vanished messages ------------------------------------------------------

    def _sync_flags(self, client: IMAPClient, folder: str, state: FolderState,
                    features: ServerFeatures, info: dict[bytes, object],
                    report: PassReport, fresh: set[int]) -> None:
        # Without CONDSTORE a sweep asks for every message's flags: on a long-running
        # sync (IDLE wakes often) at most one sweep per folder per `flag_interval`.
        now = self.clock()
        last = self._last_sweep.get(folder)
        if not features.condstore and last is not None and now - last < self.flag_interval:
            return
        self._last_sweep[folder] = now
        known = self.book.known_uids(folder, state.uidvalidity)
        if not known:
            return
        modseq = info.get(b"HIGHESTMODSEQ")
        use_modseq = features.condstore and state.highest_modseq is not None and modseq is not None
        # QRESYNC: the same FETCH also names the UIDs expunged since (VANISHED (EARLIER)).
        qresync = use_modseq and features.qresync
        modifiers = ([f"CHANGEDSINCE {state.highest_modseq}", *(["VANISHED"] if qresync else [])]
                     if use_modseq else None)
        changed: dict[int, dict[bytes, object]] = {}
        vanished: list[bytes] = []
        _untagged(client, "VANISHED")  # left from earlier commands, maybe another folder
        # Messages fetched in this pass came with their flags a moment ago.
        for chunk in batches(sorted(known - fresh), FLAG_CHUNK):
            changed.update(client.fetch(chunk, ["FLAGS"], modifiers=modifiers))
            if qresync:
                vanished += _untagged(client, "VANISHED")
        flags = {uid: _flags(item) for uid, item in changed.items() if uid in known}
        report.flag_changes += self.book.update_flags(folder, state.uidvalidity, flags)
        # Gone from this folder: expunged, or moved by the person (found again elsewhere).
        self.book.forget(folder, state.uidvalidity,
                         sorted(self._gone(client, known, changed, fresh, use_modseq,
                                           vanished if qresync else None)))
        if modseq is not None:
            # the ignore below: imapclient's answer is untyped (object); MODSEQ is an integer
            self.book.save_state(folder, replace(state, highest_modseq=int(modseq)))  # type: ignore[call-overload]

    @staticmethod
    def _gone(client: IMAPClient, known: set[int], changed: Fetched,
              fresh: set[int], use_modseq: bool, vanished: list[bytes] | None) -> set[int]:
        if vanished is not None:
            try:
                return vanished_uids(vanished, known)
            except ValueError:
                log.warning("unreadable VANISHED response; listing the folder instead")
        if use_modseq:  # CHANGEDSINCE answers only for changes: ask what is still there
            return known - set(client.search(["ALL"]))
        # Without CHANGEDSINCE every present message answers, so absence means gone.
        return known - set(changed) - fresh


def own_addresses(account: AccountSettings) -> frozenset[str]:
    """The addresses the account's person writes from: its sending address, and its login
    name when that is an address."""
    found = {account.username}
    if account.submission is not None and account.submission.from_addr:
        found.add(account.submission.from_addr)
    return frozenset(a.strip().lower() for a in found if "@" in a)


def sent_folders(client: IMAPClient, account: AccountSettings) -> frozenset[str]:
    """Folders holding the user's own sent mail: those the server marks \\Sent (RFC 6154
    SPECIAL-USE) and the account's configured Sent folder, never the inbox (core.facts.is_inbox:
    a server that files sent copies in INBOX leaves its inbox an inbox). Folders named like a
    Sent folder are recognised by the store itself (core.facts.is_sent)."""
    found = set()
    if account.submission is not None and account.submission.sent_folder:
        found.add(account.submission.sent_folder)
    for flags, _delimiter, name in client.list_folders():
        if any(_text(f).casefold() == "\\sent" for f in flags):
            found.add(_text(name))
    return frozenset(f for f in found if not is_inbox(f))


def _text(value: object) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def hierarchy_delimiter(client: IMAPClient) -> str | None:
    """The server's folder hierarchy delimiter (`LIST "" ""`), None for a flat server."""
    for _flags, delimiter, _name in client.list_folders("", ""):
        if delimiter:
            return delimiter.decode() if isinstance(delimiter, bytes) else str(delimiter)
    return None


def _untagged(client: IMAPClient, name: str) -> list[bytes]:
    """Take the untagged responses `name` that imaplib collected. imapclient has no API for
    VANISHED; its own commands read other responses from the same imaplib dict."""
    imap = getattr(client, "_imap", None)
    if imap is None:  # not an imaplib-backed client
        return []
    found: list[bytes] = imap.untagged_responses.pop(name, [])
    return found
