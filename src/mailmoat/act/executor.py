"""The one guarded executor. Every floor action — send_email, forward_external,
delete_permanent — runs here and nowhere else, whatever proposed it (CLI, API, web, the AUTO
sweep, a job queue). A test scans the source tree for any other path to SMTP or EXPUNGE.

For each outbox row:

1. Claim it: a single UPDATE on the row picked by `SELECT ... FOR UPDATE SKIP LOCKED` (on
   PostgreSQL several executors run at once; on SQLite the UPDATE itself is the lock). A claim
   is a lease: a worker that dies leaves the row to be picked up when the lease runs out.
2. A row found in `sending` was mid-flight when its worker died: reconcile by our copy in
   the Sent folder before anything else (core.outbox.recover_unknown).
3. Guard: no receipt -> NoReceipt; the receipt must verify against the stored payload
   (schema, action type, sha256), the action must still be approved with that very receipt,
   and the bytes rendered from the payload must equal the stored bytes. Any mismatch is
   terminal: dead-lettered and audited, never retried.
4. Mark `sending` (durably) with the exact bytes, then hand them over. Transient failures
   requeue with backoff and replay the same stored bytes; no model is consulted, ever.
   Unless the server files sent mail itself, the Sent copy is staged (APPEND, \\Draft)
   before submission, flagged just before DATA and cleared after the server's 250, so the
   copy's flags tell a later reconciliation how far the send got (core.outbox.SentCopy).
5. Record `done`.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

from sqlalchemy import Engine, and_, case, or_, select, update
from sqlalchemy.orm import sessionmaker

from mailmoat.accounts.secrets import KeyRing, load_key_ring
from mailmoat.act.audit import audit, utcnow
from mailmoat.act.errors import NoReceipt
from mailmoat.core.autonomy import Mode, policy_identity
from mailmoat.core.message import parse_message
from mailmoat.core.outbox import (
    BACKOFF_BASE_SECONDS,
    MAX_ATTEMPTS,
    OUTCOME_UNKNOWN,
    Pending,
    Recovery,
    SentCopy,
    backoff_seconds,
    recover_unknown,
    sent_copy_state,
    why_waiting,
)
from mailmoat.core.receipts import (
    CALENDAR_ACTIONS,
    CALENDAR_EVENT,
    RECEIPT_KEY_PURPOSE,
    ActionMismatch,
    FloorAction,
    PayloadError,
    PayloadMismatch,
    Receipt,
    ReceiptError,
    normalize_recipient,
    verify,
    verify_mac,
)
from mailmoat.mail.smtp import (
    AttachmentMissing,
    OutcomeUnknown,
    PermanentError,
    TransientError,
    TransportError,
    message_id_for,
    render_forward,
    render_send,
)
from mailmoat.store.tables.act import AccountModeRow, ActionRow, AttachmentBlobRow, OutboxRow
from mailmoat.store.tables.messages import MessageRow

CrashHook = Callable[[str], None]
DEFAULT_LEASE_SECONDS = 120.0


class SentCopies(Protocol):
    """Our copy of a message in the Sent folder (mail.smtp.SentFolder)."""

    def flags(self, message_id: str) -> frozenset[str] | None: ...

    def stage(self, raw: bytes, message_id: str) -> None: ...

    def mark_submitting(self, message_id: str) -> None: ...

    def confirm(self, message_id: str) -> None: ...

    def discard(self, message_id: str) -> None: ...


class FloorTransport(Protocol):
    """What the executor needs from one account's mail servers (mail.smtp.MailTransport)."""

    @property
    def from_addr(self) -> str: ...

    @property
    def server_files_sent(self) -> bool: ...

    def submit(self, raw: bytes, recipient: str,
               before_data: Callable[[], None] | None = None) -> str: ...

    def sent_folder(self) -> contextlib.AbstractContextManager[SentCopies]: ...

    def fetch_exact(self, folder: str, uidvalidity: int, uid: int) -> bytes | None: ...

    def expunge(self, folder: str, uidvalidity: int, uid: int, sha256: str) -> int: ...


class CalendarWriter(Protocol):
    """One calendar's writes (calendar.caldav_source.CalDAVSource): by UID, so a replay
    replaces the same object instead of adding a second one. Errors carry `transient`."""

    def put(self, uid: str, ics: str) -> str: ...

    def delete(self, uid: str) -> bool: ...


@dataclass(frozen=True, slots=True)
class Outcome:
    outbox_id: int
    action_id: int
    state: str  # done | dead | queued (retry later) | sending (outcome unknown) | cancelled
    detail: str


def _no_crash(_point: str) -> None:
    return None


class Executor:
    def __init__(
        self,
        engine: Engine,
        transports: Mapping[str, FloorTransport],
        worker: str = "executor",
        clock: Callable[[], datetime] = utcnow,
        lease_seconds: float = DEFAULT_LEASE_SECONDS,
        crash_hook: CrashHook = _no_crash,
        max_attempts: int = MAX_ATTEMPTS,
        backoff_base: float = BACKOFF_BASE_SECONDS,
        keys: Callable[[], KeyRing] = load_key_ring,
        calendars: Mapping[str, CalendarWriter] | None = None,
    ) -> None:
        self.sessions = sessionmaker(engine, expire_on_commit=False)
        self.transports = transports
        self.calendars = calendars or {}
        self.worker = worker
        self.clock = clock
        self.lease = timedelta(seconds=lease_seconds)
        self.crash = crash_hook
        self.max_attempts = max_attempts
        self.backoff_base = backoff_base
        self.keys = keys  # the key ring whose subkey made the receipts' MACs

    # -- claiming -------------------------------------------------------------------------

    def claim(self) -> tuple[int, str] | None:
        """Take one due row; returns (outbox id, state after the claim) or None."""
        if not self.transports:
            return None
        now = self.clock()
        due = or_(
            and_(OutboxRow.state == "queued", OutboxRow.next_attempt_at <= now),
            and_(OutboxRow.state.in_(("claimed", "sending")), OutboxRow.lease_until < now),
        )
        pick = (
            select(OutboxRow.id)
            .where(OutboxRow.account.in_(list(self.transports)), due)
            .order_by(OutboxRow.next_attempt_at, OutboxRow.id)
            .limit(1)
            .with_for_update(skip_locked=True)
            .scalar_subquery()
        )
        with self.sessions.begin() as session:
            row = session.execute(
                update(OutboxRow)
                .where(OutboxRow.id == pick, due)
                .values(
                    # A row left in `sending` stays there: its outcome must be reconciled.
                    state=_keep_sending(),
                    claimed_by=self.worker,
                    lease_until=now + self.lease,
                    attempts=OutboxRow.attempts + 1,
                )
                .returning(OutboxRow.id, OutboxRow.state)
                .execution_options(synchronize_session=False)
            ).first()
        return None if row is None else (int(row[0]), str(row[1]))

    def run_once(self) -> Outcome | None:
        claimed = self.claim()
        if claimed is None:
            return None
        outbox_id, state = claimed
        self.crash("after_claim")
        return self._run(outbox_id, recovering=state == "sending")

    def run_until_idle(self, limit: int = 1000) -> list[Outcome]:
        outcomes: list[Outcome] = []
        for _ in range(limit):
            outcome = self.run_once()
            if outcome is None:
                break
            outcomes.append(outcome)
        return outcomes

    def waiting(self) -> list[tuple[Pending, str]]:
        """Every unfinished outbox row that will not run on the next pass, with why
        (core.outbox.why_waiting): no SMTP for its account, a retry not yet due, a claim held
        by another worker."""
        now = self.clock()
        with self.sessions() as session:
            rows = session.scalars(
                select(OutboxRow).where(OutboxRow.state.in_(("queued", "claimed", "sending")))
                .order_by(OutboxRow.id)).all()
        found = []
        for row in rows:
            pending = Pending(row.id, row.action_id, row.account, row.action, row.state,
                              row.attempts, row.next_attempt_at, row.lease_until,
                              row.claimed_by, row.last_error)
            why = why_waiting(pending, now, self.transports.keys())
            if why is not None:
                found.append((pending, why))
        return found

    # -- one row --------------------------------------------------------------------------

    def _run(self, outbox_id: int, recovering: bool) -> Outcome:
        with self.sessions() as session:
            row = session.get(OutboxRow, outbox_id)
            assert row is not None  # we hold its claim
            action = session.get(ActionRow, row.action_id)
            mode_row = session.get(AccountModeRow, row.account)
        if row.action in CALENDAR_ACTIONS:
            return self._run_calendar(row, action)
        transport = self.transports[row.account]
        if recovering:
            outcome = self._reconcile(row, transport)
            if outcome is not None:
                return outcome
        if _unattended(row) and (mode_row is None or mode_row.mode != Mode.AUTO.value):
            return self._finish(row, "cancelled", "AUTO is off: unattended work withdrawn")
        try:
            raw, message_id = self._guard(row, action, transport)
        except (ReceiptError, AttachmentMissing, ValueError, KeyError, TypeError) as exc:
            # A malformed row (a field missing, a date that does not parse) is as terminal
            # as a mismatch: nothing in it can be trusted to run.
            return self._finish(row, "dead", f"refused: {type(exc).__name__}: {exc}",
                                event="refused")
        except TransientError as exc:  # fetching the original to forward
            return self._retry(row, str(exc))
        except PermanentError as exc:
            return self._finish(row, "dead", str(exc))
        staged = raw is not None and not transport.server_files_sent
        marked = self._mark_sending(row, raw, message_id, staged)
        if marked == "auto_off":
            return self._finish(row, "cancelled", "AUTO is off: unattended work withdrawn")
        if marked == "lost":
            return Outcome(row.id, row.action_id, "lost-claim", "another worker took the row")
        try:
            if raw is None:
                self.crash("before_send")
                detail = self._delete(row, transport, recovering)
            elif staged:
                detail = self._send_staged(row, raw, transport)
            else:
                self.crash("before_send")
                detail = self._submit(row, raw, transport)
                self.crash("after_send")
        except TransientError as exc:
            return self._retry(row, str(exc))
        except PermanentError as exc:
            return self._finish(row, "dead", str(exc))
        except OutcomeUnknown as exc:
            return self._unknown(row, str(exc))
        self.crash("after_append")
        return self._finish(row, "done", detail)

    def _run_calendar(self, row: OutboxRow, action: ActionRow | None) -> Outcome:
        """A calendar write: the same guard as mail (receipt over the exact bytes), then a
        PUT or DELETE by UID. Found mid-flight after a crash it simply runs again: writing
        the same bytes to the same UID, or deleting a UID that is gone, changes nothing."""
        try:
            self._verified(row, action)
            if _unattended(row) and row.action != CALENDAR_EVENT:
                # Unattended work may put an event in the user's own calendar (reversible),
                # never one that invites other people.
                raise ActionMismatch("unattended receipts cover replies and own-calendar "
                                     "events only")
            ics = str(row.payload["ics"])
            if row.raw is not None and row.raw != ics.encode("utf-8"):
                raise PayloadMismatch("the stored bytes are not the approved payload")
        except (ReceiptError, ValueError, KeyError, TypeError) as exc:
            return self._finish(row, "dead", f"refused: {type(exc).__name__}: {exc}",
                                event="refused")
        if _unattended(row):
            with self.sessions() as session:
                mode_row = session.get(AccountModeRow, row.account)
            if mode_row is None or mode_row.mode != Mode.AUTO.value:
                return self._finish(row, "cancelled", "AUTO is off: unattended work withdrawn")
        writer = self.calendars.get(str(row.payload["calendar"]))
        if writer is None:
            return self._retry(row, f"calendar {row.payload['calendar']!r} is not reachable "
                                    "from this executor")
        marked = self._mark_sending(row, ics.encode("utf-8"), "", False)
        if marked == "auto_off":
            return self._finish(row, "cancelled", "AUTO is off: unattended work withdrawn")
        if marked == "lost":
            return Outcome(row.id, row.action_id, "lost-claim", "another worker took the row")
        uid = str(row.payload["uid"])
        try:
            self.crash("before_send")
            if row.payload["operation"] == "put":
                detail = f"calendar {row.payload['calendar']}: wrote {uid} ({writer.put(uid, ics)})"
            else:
                gone = writer.delete(uid)
                detail = f"calendar {row.payload['calendar']}: " + (
                    f"deleted {uid}" if gone else f"{uid} was already gone")
            self.crash("after_send")
        except Exception as exc:  # the writer's own error type; `transient` says what to do
            if getattr(exc, "transient", False):
                return self._retry(row, str(exc)[:500])
            return self._finish(row, "dead", str(exc)[:500])
        return self._finish(row, "done", detail)

    def _verified(self, row: OutboxRow, action: ActionRow | None) -> Receipt:
        if not row.receipt:
            raise NoReceipt("no receipt: a floor action needs an approval")
        try:
            receipt = Receipt(**row.receipt)
        except TypeError:
            raise PayloadError("the stored receipt is malformed") from None
        if action is None or action.status != "approved" or action.receipt != row.receipt:
            raise NoReceipt("the approval was withdrawn or voided after this row was queued")
        if row.action != receipt.action or row.payload.get("action") != row.action:
            raise ActionMismatch(f"row runs {row.action}, receipt approves {receipt.action}")
        # A MAC, not a bare hash: whoever can rewrite the database can recompute a payload's
        # hash, not the MAC over it (the key stays outside the database).
        verify_mac(receipt, row.action_id, self.keys().subkeys(RECEIPT_KEY_PURPOSE))
        verify(receipt, row.payload)
        verify(receipt, action.payload)  # what the approver was shown is what runs
        return receipt

    def _reconcile(self, row: OutboxRow, transport: FloorTransport) -> Outcome | None:
        """A row its worker left in `sending`: find out whether it went out. None: rerun."""
        if row.action == FloorAction.DELETE_PERMANENT:
            return None  # a rerun re-checks the one UID; gone means the dead worker did it
        try:
            with transport.sent_folder() as sent:
                copy = sent_copy_state(sent.flags(row.message_id))
        except TransientError as exc:
            return self._unknown(row, f"cannot reconcile yet: {exc}")
        except PermanentError as exc:  # never guess: a person decides
            return self._finish(row, "dead", f"outcome unknown, cannot reconcile: {exc}")
        verdict = recover_unknown(copy, transport.server_files_sent, row.staged)
        self._audit(row, "reconciled", sent_copy=copy.value, verdict=verdict.value)
        if verdict is Recovery.DONE:
            return self._finish(row, "done", "reconciled: our Message-ID is in the Sent folder")
        if verdict is Recovery.HOLD:
            # Before asking a person: is the message anywhere on the server but in our own
            # staged copy (the server's Sent copy, or delivered back to this account)?
            finder = getattr(transport, "find_delivered", None)
            try:
                where = finder(row.message_id) if finder is not None else None
            except TransientError as exc:
                return self._unknown(row, f"cannot reconcile yet: {exc}")
            except PermanentError:
                where = None
            if where is not None:
                self._audit(row, "reconciled", found_in=where, verdict="done")
                if copy is SentCopy.SUBMITTING:
                    with contextlib.suppress(TransportError), transport.sent_folder() as sent:
                        sent.confirm(row.message_id)
                return self._finish(row, "done", f"reconciled: our Message-ID is on the "
                                                  f"server in {where!r}")
            why = ("DATA began and no answer was recorded" if copy is SentCopy.SUBMITTING
                   else "not in Sent")
            return self._finish(row, "dead", f"{OUTCOME_UNKNOWN}: {why}; not found on the "
                                             "server; a person decides")
        return None

    def _guard(self, row: OutboxRow, action: ActionRow | None,
               transport: FloorTransport) -> tuple[bytes | None, str]:
        """Raise unless the stored bytes are exactly what a valid receipt approved."""
        receipt = self._verified(row, action)
        assert action is not None  # _verified refuses a missing action
        if _unattended(row):
            self._guard_unattended(row, action)
        message_id = row.message_id or message_id_for(row.idempotency_key, transport.from_addr)
        raw = self._render(row, receipt, transport, message_id)
        if row.raw is not None and raw != row.raw:
            raise PayloadMismatch("the stored bytes are not the approved payload")
        return raw, message_id if raw is not None else ""

    def _guard_unattended(self, row: OutboxRow, action: ActionRow) -> None:
        """A receipt under a policy identity covers one thing: a reply to the original sender."""
        if row.action != FloorAction.SEND_EMAIL or action.reply_to_message is None:
            raise ActionMismatch("unattended receipts cover replies only")
        with self.sessions() as session:
            original = session.get(MessageRow, action.reply_to_message)
        sender = parse_message(original.raw).from_addr if original is not None else ""
        if not sender or normalize_recipient(sender) != row.payload.get("to"):
            raise PayloadMismatch("an unattended reply may go only to the original sender")

    def _render(self, row: OutboxRow, receipt: Receipt, transport: FloorTransport,
                message_id: str) -> bytes | None:
        payload = row.payload
        if row.action == FloorAction.DELETE_PERMANENT:
            return None
        date = datetime.fromisoformat(receipt.approved_at)
        if row.action == FloorAction.SEND_EMAIL:
            return render_send(payload, transport.from_addr, message_id, date,
                               self._attachments(payload), auto_replied=_unattended(row))
        original = transport.fetch_exact(payload["folder"], payload["uidvalidity"],
                                         payload["uid"])
        if original is None:
            raise PermanentError("the message to forward is no longer on the server")
        if hashlib.sha256(original).hexdigest() != payload["sha256"]:
            raise PayloadMismatch("the message at that UID is not the approved one: its "
                                  "bytes changed")
        return render_forward(payload, transport.from_addr, message_id, date, original)

    def _attachments(self, payload: dict[str, Any]) -> dict[str, bytes]:
        wanted = [a["sha256"] for a in payload.get("attachments") or []]
        if not wanted:
            return {}
        with self.sessions() as session:
            rows = session.scalars(
                select(AttachmentBlobRow).where(AttachmentBlobRow.sha256.in_(wanted))
            )
            return {r.sha256: bytes(r.content) for r in rows}

    def _delete(self, row: OutboxRow, transport: FloorTransport, recovering: bool) -> str:
        p = row.payload
        removed = transport.expunge(p["folder"], p["uidvalidity"], p["uid"], p["sha256"])
        if removed == 1:
            return f"expunged 1 message ({p['folder']} UID {p['uid']})"
        if recovering:  # the worker that died had already removed it
            return "already expunged by an earlier attempt"
        raise PermanentError("the approved message is no longer on the server; nothing "
                             "was deleted")

    def _submit(self, row: OutboxRow, raw: bytes, transport: FloorTransport,
                before_data: Callable[[], None] | None = None) -> str:
        answer = transport.submit(raw, row.payload["to"], before_data)
        return f"accepted: {answer[:200]}"

    def _send_staged(self, row: OutboxRow, raw: bytes, transport: FloorTransport) -> str:
        """Stage the Sent copy, flag it just before DATA, clear it after the server's 250:
        whatever instant a crash hits, the copy says whether DATA can have begun."""
        with transport.sent_folder() as sent:
            sent.stage(raw, row.message_id)
            self.crash("before_send")

            def before_data() -> None:
                sent.mark_submitting(row.message_id)
                self.crash("before_data")

            try:
                detail = self._submit(row, raw, transport, before_data)
            except PermanentError:  # refused for good: no never-sent copy left in Sent
                with contextlib.suppress(TransportError):
                    sent.discard(row.message_id)
                raise
            self.crash("after_send")
            try:
                sent.confirm(row.message_id)
            except TransportError as exc:  # the mail went out; only the copy's flags lag
                self._audit(row, "sent_copy_failed", error=str(exc))
        return detail

    # -- state changes --------------------------------------------------------------------

    def _mine(self, row: OutboxRow) -> Any:
        return and_(OutboxRow.id == row.id, OutboxRow.claimed_by == self.worker,
                    OutboxRow.state.in_(("claimed", "sending")))

    def _mark_sending(self, row: OutboxRow, raw: bytes | None, message_id: str,
                      staged: bool) -> str:
        """Durably record the exact bytes and that they are about to leave.

        For unattended work the account's mode is read in the same transaction, under the
        lock `set_mode` takes: either the switch to SUGGEST comes first and this row is
        cancelled, or the row is already on its way and the switch can no longer stop it.
        """
        with self.sessions.begin() as session:
            if _unattended(row):
                mode = session.get(AccountModeRow, row.account, with_for_update=True)
                if mode is None or mode.mode != Mode.AUTO.value:
                    return "auto_off"
            result = session.execute(
                update(OutboxRow).where(self._mine(row))
                # The lease restarts here so it covers the whole hand-over.
                .values(state="sending", raw=raw, message_id=message_id, staged=staged,
                        lease_until=self.clock() + self.lease)
                .execution_options(synchronize_session=False)
            )
            # the ignore below: an UPDATE yields a CursorResult; Result's stubs lack rowcount
            ok = bool(result.rowcount)  # type: ignore[attr-defined]
        row.raw, row.message_id, row.staged = raw, message_id, staged
        return "ok" if ok else "lost"

    def _retry(self, row: OutboxRow, error: str) -> Outcome:
        if row.attempts >= self.max_attempts:
            return self._finish(row, "dead", f"gave up after {row.attempts} attempts: {error}")
        now = self.clock()
        delay = timedelta(seconds=backoff_seconds(row.attempts, self.backoff_base))
        with self.sessions.begin() as session:
            session.execute(
                update(OutboxRow).where(self._mine(row))
                .values(state="queued", next_attempt_at=now + delay, lease_until=None,
                        claimed_by=None, last_error=error)
                .execution_options(synchronize_session=False)
            )
            audit(session, "retry_scheduled", self.worker, now, action_id=row.action_id,
                  outbox_id=row.id, error=error, attempts=row.attempts,
                  delay_seconds=delay.total_seconds())
        return Outcome(row.id, row.action_id, "queued", error)

    def _unknown(self, row: OutboxRow, error: str) -> Outcome:
        """Leave the row in `sending` with an expired lease: the next claim reconciles it."""
        now = self.clock()
        with self.sessions.begin() as session:
            session.execute(
                update(OutboxRow).where(self._mine(row))
                .values(state="sending", lease_until=now, last_error=error)
                .execution_options(synchronize_session=False)
            )
            audit(session, "outcome_unknown", self.worker, now, action_id=row.action_id,
                  outbox_id=row.id, error=error)
        return Outcome(row.id, row.action_id, "sending", error)

    def _finish(self, row: OutboxRow, state: str, detail: str, event: str | None = None) -> Outcome:
        now = self.clock()
        action_status = {"done": "done", "dead": "failed", "cancelled": "cancelled"}[state]
        with self.sessions.begin() as session:
            session.execute(
                update(OutboxRow).where(self._mine(row))
                .values(state=state, finished_at=now, lease_until=None,
                        last_error="" if state == "done" else detail)
                .execution_options(synchronize_session=False)
            )
            session.execute(update(ActionRow).where(ActionRow.id == row.action_id)
                            .values(status=action_status))
            audit(session, event or {"done": "executed", "dead": "dead_letter",
                                     "cancelled": "cancelled"}[state],
                  self.worker, now, action_id=row.action_id, outbox_id=row.id, detail=detail,
                  idempotency_key=row.idempotency_key, message_id=row.message_id)
        return Outcome(row.id, row.action_id, state, detail)

    def _audit(self, row: OutboxRow, event: str, **detail: Any) -> None:
        with self.sessions.begin() as session:
            audit(session, event, self.worker, self.clock(), action_id=row.action_id,
                  outbox_id=row.id, **detail)


def _unattended(row: OutboxRow) -> bool:
    return str((row.receipt or {}).get("approved_by", "")) == policy_identity(row.account)


def _keep_sending() -> Any:
    return case((OutboxRow.state == "sending", "sending"), else_="claimed")

