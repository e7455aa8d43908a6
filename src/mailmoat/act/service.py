"""Pending actions and approvals: the one service every entry point (CLI, API, web, the AUTO
sweep, later MCP) uses to propose, show, edit, approve and reject.

Approving a floor action mints its receipt over the canonical payload and puts one row in
the outbox, keyed by the receipt. Nothing here sends anything: only the guarded executor
(act/executor.py) turns an outbox row into mail.
"""

from __future__ import annotations

import builtins
import hashlib
from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from mailmoat.accounts.secrets import KeyRing, load_key_ring
from mailmoat.act.audit import Clock, audit, utcnow
from mailmoat.act.errors import InvalidState, NotFound, PolicyRefused, StaleApproval
from mailmoat.act.modes import AccountModes
from mailmoat.act.recording import HumanActs, is_person, message_of
from mailmoat.act.triage import TriageList
from mailmoat.core.actions import REVERSIBLE, ActionType, is_floor, server_steps
from mailmoat.core.autonomy import Mode, policy_identity
from mailmoat.core.message import parse_message
from mailmoat.core.outbox import OUTCOME_UNKNOWN, WITHDRAWABLE, idempotency_key
from mailmoat.core.receipts import (
    BOUND_ACTIONS,
    CALENDAR_ACTIONS,
    IDENTITY_FIELDS,
    RECEIPT_KEY_PURPOSE,
    FloorAction,
    PayloadError,
    canonical_payload,
    mint,
    normalize_recipient,
    payload_hash,
    sign,
    unicode_domain,
)
from mailmoat.core.recipients import check_recipient
from mailmoat.core.rules import CorrectionKind
from mailmoat.learn.ledger import record_act
from mailmoat.store.tables.accounts import AccountRow, FolderStateRow, LocationRow
from mailmoat.store.tables.act import (
    AccountModeRow,
    ActionRow,
    AttachmentBlobRow,
    AuditRow,
    OutboxRow,
)
from mailmoat.store.tables.messages import MessageRow

# "sync": proposals made after a sync pass (meeting replies); approved only by a person.
SOURCES = frozenset({"cli", "api", "web", "auto", "mcp", "sync"})
KeySource = Callable[[], KeyRing]


def _reversible_payload(payload: dict[str, Any]) -> dict[str, Any]:
    action = payload.get("action")
    try:
        kind = ActionType(str(action))
    except ValueError:
        raise PayloadError(f"unknown action: {action!r}") from None
    if kind not in REVERSIBLE:
        raise PayloadError(f"not a reversible action: {action!r}")
    message = payload.get("message")
    if isinstance(message, bool) or not isinstance(message, int):
        raise PayloadError("a reversible action names the stored message id it acts on")
    server_steps(payload)  # a payload that could not run on the server is refused now
    return dict(payload)


class ActionService(AccountModes, TriageList):
    """Proposals and approvals; account modes and the triage list come from the mixins."""

    def __init__(self, engine: Engine, clock: Clock = utcnow,
                 record_human_act: HumanActs = record_act,
                 keys: KeySource = load_key_ring) -> None:
        self.engine = engine
        self.sessions = sessionmaker(engine, expire_on_commit=False)
        self.clock = clock
        self.record_human_act = record_human_act
        # The key ring that seals account secrets also makes receipt MACs; it is read when
        # an approval needs it, never stored in the database.
        self.keys = keys

    # -- proposals ------------------------------------------------------------------------

    def store_attachment(self, content: bytes) -> str:
        digest = hashlib.sha256(content).hexdigest()
        with self.sessions.begin() as session:
            if session.get(AttachmentBlobRow, digest) is None:
                session.add(AttachmentBlobRow(sha256=digest, content=content))
        return digest

    def propose(
        self,
        account: str,
        payload: dict[str, Any],
        proposed_by: str,
        source: str,
        reply_to_message: int | None = None,
    ) -> dict[str, Any]:
        """Store a proposal holding the exact payload that would run. Raises PayloadError."""
        if source not in SOURCES:
            raise PayloadError(f"unknown source {source!r}")
        if not proposed_by.strip():
            raise PayloadError("a proposal needs a proposer")
        now = self.clock()
        written = _written_to(payload)
        with self.sessions.begin() as session:
            payload = self._checked(session, account, payload, reply_to_message)
            row = ActionRow(
                account=account, action=payload["action"], payload=payload, status="pending",
                source=source, proposed_by=proposed_by, proposed_at=now,
                reply_to_message=reply_to_message, receipt=None, revision=1, note="",
            )
            session.add(row)
            session.flush()
            audit(session, "proposed", proposed_by, now, action_id=row.id, source=source,
                  payload_sha256=_hash_of(payload), to_as_written=written)
            return self._view(session, row)

    def _checked(self, session: Session, account: str, payload: dict[str, Any],
                 reply_to_message: int | None) -> dict[str, Any]:
        if not isinstance(payload, dict):
            raise PayloadError("payload must be an object")
        if payload.get("action") in CALENDAR_ACTIONS:
            return self._calendar_payload(session, account, payload)
        if not is_floor(str(payload.get("action"))):
            checked = _reversible_payload(payload)
            target = session.get(MessageRow, checked["message"])
            if target is None or target.account != account:
                raise PayloadError(f"no message {checked['message']} in account {account!r}")
            return checked
        payload = {**payload, "account": account}
        original = None
        if reply_to_message is not None:
            original = session.get(MessageRow, reply_to_message)
            if original is None or original.account != account:
                raise PayloadError(f"no message {reply_to_message} in account {account!r}")
            if payload.get("action") == "send_email":
                payload = self._as_reply(payload, original)
        if payload.get("action") in (FloorAction.DELETE_PERMANENT, FloorAction.FORWARD_EXTERNAL):
            payload = self._one_message(session, account, payload)
        canonical = canonical_payload(payload)
        for item in canonical.get("attachments") or []:
            if not isinstance(item, dict) or set(item) != {"filename", "content_type", "sha256"}:
                raise PayloadError("attachments are {filename, content_type, sha256}")
            if session.get(AttachmentBlobRow, item["sha256"]) is None:
                raise PayloadError(f"attachment {item['filename']!r} was not uploaded")
        return canonical

    @staticmethod
    def _one_message(session: Session, account: str, payload: dict[str, Any]) -> dict[str, Any]:
        """A forward or delete names exactly one stored message by its server identity
        (folder, UIDVALIDITY, UID) and the sha256 of its bytes. Proposers name the stored
        message (`message`: its id); a payload naming the identity itself must match a
        stored message of this account. Nothing is ever chosen by Message-ID."""
        payload = dict(payload)
        stored_id = payload.pop("message", None)
        query = (
            select(LocationRow, MessageRow)
            .join(MessageRow, MessageRow.id == LocationRow.message_id)
            .join(AccountRow, AccountRow.id == LocationRow.account_id)
            .join(FolderStateRow, (FolderStateRow.account_id == LocationRow.account_id)
                  & (FolderStateRow.folder == LocationRow.folder)
                  & (FolderStateRow.uidvalidity == LocationRow.uidvalidity))
            .where(AccountRow.name == account, MessageRow.account == account)
        )
        if stored_id is not None:
            if isinstance(stored_id, bool) or not isinstance(stored_id, int):
                raise PayloadError("'message' is the stored message's id (an integer)")
            query = query.where(MessageRow.id == stored_id)
        elif all(payload.get(name) not in (None, "") for name in IDENTITY_FIELDS):
            query = query.where(LocationRow.folder == payload["folder"],
                                LocationRow.uidvalidity == payload["uidvalidity"],
                                LocationRow.uid == payload["uid"])
        else:
            raise PayloadError(f"{payload.get('action')} names one stored message: give "
                               "'message' (its id); a Message-ID is not unique")
        found = session.execute(query.order_by(LocationRow.id).limit(2)).all()
        if not found:
            raise PayloadError("no such message on this account's server (it must be synced)")
        if len(found) > 1:
            raise PayloadError("that message sits in several folders; name the copy to act on "
                               "by its folder, UIDVALIDITY and UID")
        location, message = found[0]
        digest = hashlib.sha256(message.raw).hexdigest()
        if payload.get("sha256") not in (None, "", digest):
            raise PayloadError("sha256 does not match the stored message's bytes")
        return {**payload, "folder": location.folder, "uidvalidity": int(location.uidvalidity),
                "uid": int(location.uid), "sha256": digest,
                "message_id": parse_message(message.raw).message_id or ""}

    @staticmethod
    def _calendar_payload(session: Session, account: str,
                          payload: dict[str, Any]) -> dict[str, Any]:
        """A calendar write: canonical, on a calendar that exists and may be written."""
        from mailmoat.store.tables.calendar import CalendarRow

        canonical = canonical_payload({**payload, "account": account})
        cal = session.scalar(select(CalendarRow).where(CalendarRow.name == canonical["calendar"]))
        if cal is None:
            raise PayloadError(f"no calendar named {canonical['calendar']!r}")
        if cal.kind != "caldav":
            raise PayloadError(f"calendar {cal.name!r} is a read-only feed")
        if cal.account not in (None, account):
            raise PayloadError(f"calendar {cal.name!r} belongs to account {cal.account!r}")
        return canonical

    @staticmethod
    def _as_reply(payload: dict[str, Any], original: MessageRow) -> dict[str, Any]:
        """A reply addresses one party: the original sender, never anyone the text names."""
        parsed = parse_message(original.raw)
        sender = normalize_recipient(parsed.from_addr) if parsed.from_addr else ""
        to = payload.get("to") or sender
        if not sender or normalize_recipient(str(to)) != sender:
            raise PayloadError("a reply goes only to the original sender")
        refs = list(payload.get("references") or [*parsed.references, parsed.message_id])
        return {
            **payload,
            "to": to,
            "in_reply_to": payload.get("in_reply_to") or parsed.message_id,
            "references": [r for r in refs if r],
        }

    def edit(self, action_id: int, payload: dict[str, Any], edited_by: str) -> dict[str, Any]:
        """Replace the payload. An approved action loses its receipt: approve it again."""
        now = self.clock()
        with self.sessions.begin() as session:
            row = self._row(session, action_id, lock=True)
            if row.status not in ("pending", "approved"):
                raise InvalidState(f"action {action_id} is {row.status}; it cannot be edited")
            fresh = self._checked(session, row.account, payload, row.reply_to_message)
            if fresh["action"] != row.action:
                raise PayloadError("an edit cannot change the action type; propose anew")
            voided = row.status == "approved"
            if voided:
                self._withdraw(session, row, now, edited_by, "receipt voided by edit")
            previous = row.payload
            row.payload = fresh
            row.status = "pending"
            row.receipt = None
            row.decided_by = row.decided_at = None
            row.revision += 1
            # The version replaced, kept in the audit entry so an approver can see what the
            # edit changed (the approvals page diffs consecutive versions).
            audit(session, "edited", edited_by, now, action_id=row.id,
                  payload_sha256=_hash_of(fresh), revision=row.revision,
                  to_as_written=_written_to(payload),
                  previous_payload=previous, voided_approval=voided)
            return self._view(session, row)

    # -- decisions ------------------------------------------------------------------------

    def approve(self, action_id: int, approved_by: str,
                expected_sha256: str | None = None) -> dict[str, Any]:
        """Mint the receipt over the stored payload and enqueue it for the executor.

        `expected_sha256` is the hash the approver was shown: if the payload changed since,
        the approval is refused rather than bound to bytes nobody looked at.
        """
        if approved_by.startswith("auto:"):
            raise PolicyRefused("policy identities approve only through approve_unattended")
        now = self.clock()
        with self.sessions.begin() as session:
            row = self._row(session, action_id, lock=True)
            if expected_sha256 is not None and expected_sha256 != _hash_of(row.payload):
                raise StaleApproval("the payload changed since it was shown; review it again")
            return self._approve(session, row, approved_by, now)

    def approve_unattended(self, action_id: int, account: str) -> dict[str, Any]:
        """Approve under the policy identity `auto:<account>`, in one transaction with the
        AUTO checks: the mode and the daily cap are read under the lock `set_mode` takes, so
        neither a switch to SUGGEST nor a concurrent sweep can slip past them."""
        now = self.clock()
        with self.sessions.begin() as session:
            mode = session.get(AccountModeRow, account, with_for_update=True)
            if mode is None or mode.mode != Mode.AUTO.value:
                raise PolicyRefused("account is in SUGGEST mode")
            row = self._row(session, action_id, lock=True)
            if row.account != account or row.source != "auto":
                raise PolicyRefused("only the AUTO sweep's own proposals are approved unattended")
            if (is_floor(row.action)
                    and self._unattended_count(session, account, now) >= mode.daily_cap):
                raise PolicyRefused(f"daily cap of {mode.daily_cap} unattended replies reached")
            return self._approve(session, row, policy_identity(account), now)

    def _approve(self, session: Session, row: ActionRow, approved_by: str,
                 now: datetime) -> dict[str, Any]:
        if row.status != "pending":
            raise InvalidState(f"action {row.id} is {row.status}, not pending")
        self._learn(session, row, CorrectionKind.APPROVAL, approved_by, "", now)
        if row.action not in BOUND_ACTIONS:
            row.status, row.decided_by, row.decided_at = "approved", approved_by, now
            audit(session, "approved", approved_by, now, action_id=row.id)
            return self._view(session, row)
        key_id, key = self.keys().primary_subkey(RECEIPT_KEY_PURPOSE)
        receipt = sign(mint(row.payload, approved_by, now.isoformat()), row.id, key, key_id)
        row.receipt = receipt.as_dict()
        row.status, row.decided_by, row.decided_at = "approved", approved_by, now
        idem_key = idempotency_key(receipt, row.id)
        session.add(OutboxRow(
            action_id=row.id, idempotency_key=idem_key, account=row.account, action=row.action,
            payload=row.payload, receipt=receipt.as_dict(), message_id="", raw=None,
            state="queued", attempts=0, next_attempt_at=now, last_error="", created_at=now,
        ))
        audit(session, "approved", approved_by, now, action_id=row.id,
              payload_sha256=receipt.payload_sha256, idempotency_key=idem_key)
        try:
            session.flush()
        except IntegrityError:
            raise InvalidState(f"action {row.id} is already enqueued") from None
        return self._view(session, row)

    def mark_done(self, action_id: int, by: str) -> None:
        """Record that an approved reversible action was applied (floor actions: executor)."""
        self.finish_reversible(action_id, by, ok=True)

    def finish_reversible(self, action_id: int, by: str, ok: bool, detail: str = "") -> None:
        """An approved reversible action was applied (done) or could not be (failed)."""
        now = self.clock()
        with self.sessions.begin() as session:
            row = self._row(session, action_id, lock=True)
            if row.action in BOUND_ACTIONS or row.status != "approved":
                raise InvalidState(f"action {action_id} is not an approved reversible action")
            row.status = "done" if ok else "failed"
            if detail:
                row.note = detail[:2000]
            audit(session, "applied" if ok else "apply_failed", by, now, action_id=row.id,
                  detail=detail)

    # -- sends whose outcome is unknown ---------------------------------------------------

    def unresolved(self, account: str) -> list[dict[str, Any]]:
        """Sends that may or may not have gone out and that the executor could not find on
        the server: a person says whether the message arrived (or sends it again)."""
        with self.sessions() as session:
            rows = session.execute(
                select(ActionRow, OutboxRow).join(OutboxRow, OutboxRow.action_id == ActionRow.id)
                .where(ActionRow.account == account, ActionRow.status == "failed",
                       OutboxRow.state == "dead",
                       OutboxRow.last_error.startswith(OUTCOME_UNKNOWN))
                .order_by(OutboxRow.id.desc())
            ).all()
            return [{**self._summary(session, action), "outbox_id": out.id,
                     "message_id": out.message_id, "reason": out.last_error,
                     "finished_at": out.finished_at.isoformat() if out.finished_at else None}
                    for action, out in rows]

    def resolve_unknown(self, action_id: int, by: str, sent: bool) -> dict[str, Any]:
        """A person settles a send whose outcome is unknown: it arrived (`sent`: recorded
        done, never sent again) or it did not (the same stored bytes, with the same
        Message-ID, are queued once more under the original receipt)."""
        if not is_person(by):
            raise PolicyRefused("only a person settles an unknown outcome")
        now = self.clock()
        with self.sessions.begin() as session:
            row = self._row(session, action_id, lock=True)
            out = self._outbox(session, action_id)
            if (row.status != "failed" or out is None or out.state != "dead"
                    or not out.last_error.startswith(OUTCOME_UNKNOWN)):
                raise InvalidState(f"action {action_id} has no send of unknown outcome")
            if sent:
                out.state, out.finished_at = "done", now
                out.last_error = f"a person ({by}) confirmed it arrived"
                row.status = "done"
            else:
                out.state, out.next_attempt_at, out.finished_at = "queued", now, None
                out.claimed_by, out.lease_until, out.attempts = None, None, 0
                out.last_error = f"a person ({by}) found it did not arrive: sending again"
                row.status = "approved"
            audit(session, "resolved_sent" if sent else "resolved_resend", by, now,
                  action_id=row.id, outbox_id=out.id, message_id=out.message_id)
            return self._view(session, row)

    def reject(self, action_id: int, rejected_by: str, note: str = "") -> dict[str, Any]:
        now = self.clock()
        with self.sessions.begin() as session:
            row = self._row(session, action_id, lock=True)
            if row.status not in ("pending", "approved"):
                raise InvalidState(f"action {action_id} is {row.status}; it cannot be rejected")
            if row.status == "approved":
                self._withdraw(session, row, now, rejected_by, "rejected after approval")
            row.status, row.decided_by, row.decided_at, row.note = (
                "rejected", rejected_by, now, note
            )
            audit(session, "rejected", rejected_by, now, action_id=row.id, note=note)
            self._learn(session, row, CorrectionKind.REJECTION, rejected_by, note, now)
            return self._view(session, row)

    def _learn(self, session: Session, row: ActionRow, kind: CorrectionKind, actor: str,
               note: str, now: datetime) -> None:
        """A person's decision about an action on a stored message teaches learning."""
        message = message_of(row)
        if message is not None and is_person(actor):
            self.record_human_act(session, row.account, message, kind, actor,
                                  note or f"{row.action} #{row.id}", now)

    def _withdraw(self, session: Session, row: ActionRow, now: datetime, actor: str,
                  why: str) -> None:
        """Cancel the outbox row of an approved action, if it has not started to run."""
        result = session.execute(
            update(OutboxRow)
            .where(OutboxRow.action_id == row.id, OutboxRow.state.in_(WITHDRAWABLE))
            .values(state="cancelled", finished_at=now, last_error=why)
        )
        running = session.scalar(
            select(func.count()).select_from(OutboxRow).where(
                OutboxRow.action_id == row.id,
                OutboxRow.state.in_(("claimed", "sending", "done")),
            )
        )
        if running:
            raise InvalidState(f"action {row.id} is already running or done; too late")
        # the ignore below: an UPDATE yields a CursorResult; Result's stubs lack rowcount
        if result.rowcount:  # type: ignore[attr-defined]
            audit(session, "withdrawn", actor, now, action_id=row.id, reason=why)

    # -- reads ----------------------------------------------------------------------------

    def _row(self, session: Session, action_id: int, lock: bool = False) -> ActionRow:
        query = select(ActionRow).where(ActionRow.id == action_id)
        if lock:
            query = query.with_for_update()
        row = session.scalar(query)
        if row is None:
            raise NotFound(f"no action {action_id}")
        return row

    def list(self, account: str | None = None, status: str | None = None,
             limit: int = 100) -> list[dict[str, Any]]:
        with self.sessions() as session:
            query = select(ActionRow).order_by(ActionRow.id.desc()).limit(limit)
            if account is not None:
                query = query.where(ActionRow.account == account)
            if status is not None:
                query = query.where(ActionRow.status == status)
            return [self._summary(session, r) for r in session.scalars(query)]

    def for_message(self, message_id: int,
                    status: str | None = "pending") -> builtins.list[dict[str, Any]]:
        """Actions proposed in reply to one message (default: those still pending)."""
        with self.sessions() as session:
            query = select(ActionRow).where(ActionRow.reply_to_message == message_id)
            if status is not None:
                query = query.where(ActionRow.status == status)
            return [self._summary(session, r)
                    for r in session.scalars(query.order_by(ActionRow.id.desc()))]

    def show(self, action_id: int) -> dict[str, Any]:
        with self.sessions() as session:
            return self._view(session, self._row(session, action_id))

    def _outbox(self, session: Session, action_id: int) -> OutboxRow | None:
        return session.scalar(
            select(OutboxRow).where(OutboxRow.action_id == action_id)
            .order_by(OutboxRow.id.desc()).limit(1)
        )

    def _summary(self, session: Session, row: ActionRow) -> dict[str, Any]:
        out = self._outbox(session, row.id)
        return {
            "id": row.id, "account": row.account, "action": row.action, "status": row.status,
            "source": row.source, "proposed_by": row.proposed_by,
            "proposed_at": row.proposed_at.isoformat(),
            "to": row.payload.get("to", ""), "subject": row.payload.get("subject", ""),
            "outbox": out.state if out else None,
        }

    def _view(self, session: Session, row: ActionRow) -> dict[str, Any]:
        """Everything an approver must see: the exact bytes, their hash, flags, context."""
        out = self._outbox(session, row.id)
        view = self._summary(session, row)
        view.update({
            "payload": row.payload,
            "payload_sha256": _hash_of(row.payload),
            "revision": row.revision,
            "receipt": row.receipt,
            "decided_by": row.decided_by,
            "decided_at": row.decided_at.isoformat() if row.decided_at else None,
            "note": row.note,
            "flags": self._flags(session, row),
            "replying_to": self._replying_to(session, row.reply_to_message),
            "target": self._target(session, row),
            "outbox": None if out is None else {
                "state": out.state, "attempts": out.attempts, "message_id": out.message_id,
                "last_error": out.last_error, "idempotency_key": out.idempotency_key,
            },
        })
        return view

    def _flags(self, session: Session, row: ActionRow) -> dict[str, Any] | None:
        to = row.payload.get("to")
        if not to:
            return None
        senders = session.scalars(
            select(MessageRow.from_addr).where(MessageRow.account == row.account)
            .distinct().limit(5000)
        )
        known = frozenset(a.rpartition("@")[2].lower() for a in senders if "@" in a)
        shown_name, said = "", None
        if row.reply_to_message is not None:  # what the approver recognises the sender by
            original = session.get(MessageRow, row.reply_to_message)
            shown_name = original.from_name if original is not None else ""
            said = parse_message(original.raw).from_addr if original is not None else None
        else:  # the address as the proposer wrote it, before encoding
            detail = session.scalar(
                select(AuditRow.detail).where(AuditRow.action_id == row.id,
                                              AuditRow.event.in_(("proposed", "edited")))
                .order_by(AuditRow.id.desc()).limit(1)
            ) or {}
            said = detail.get("to_as_written") if isinstance(detail, dict) else None
        flags = check_recipient(_unicode_address(to), display_name=shown_name,
                                known_domains=known, said=said or None)
        return {
            "address": flags.address, "mixed_script": flags.mixed_script,
            "non_ascii_domain": flags.non_ascii_domain, "lookalike_of": flags.lookalike_of,
            "display_name_mismatch": flags.display_name_mismatch,
            "rewritten_from": flags.rewritten_from, "any": flags.any,
            # No mail in this account ever came from the recipient's domain.
            "outside_domain": bool(known) and flags.address.rpartition("@")[2] not in known,
        }

    @staticmethod
    def _target(session: Session, row: ActionRow) -> dict[str, Any] | None:
        """For a forward or delete: the one message it acts on, as the approver knows it
        (sender, subject, date, snippet) and where it sits on the server."""
        payload = row.payload
        if row.action not in (FloorAction.FORWARD_EXTERNAL, FloorAction.DELETE_PERMANENT):
            return None
        found = session.execute(
            select(MessageRow).join(LocationRow, LocationRow.message_id == MessageRow.id)
            .join(AccountRow, AccountRow.id == LocationRow.account_id)
            .where(AccountRow.name == row.account, LocationRow.folder == payload["folder"],
                   LocationRow.uidvalidity == payload["uidvalidity"],
                   LocationRow.uid == payload["uid"]).limit(1)
        ).scalar()
        where = {"folder": payload["folder"], "uidvalidity": payload["uidvalidity"],
                 "uid": payload["uid"], "sha256": payload["sha256"]}
        if found is None or hashlib.sha256(found.raw).hexdigest() != payload["sha256"]:
            return {**where, "missing": True}
        parsed = parse_message(found.raw)
        return {**where, "id": found.id, "from": parsed.sender_display,
                "subject": parsed.subject, "date": parsed.date,
                "message_id": parsed.message_id, "snippet": parsed.snippet,
                "size": len(found.raw)}

    @staticmethod
    def _replying_to(session: Session, message_id: int | None) -> dict[str, Any] | None:
        if message_id is None:
            return None
        original = session.get(MessageRow, message_id)
        if original is None:
            return {"id": message_id, "missing": True}
        parsed = parse_message(original.raw)
        return {
            "id": original.id, "from": parsed.sender_display, "subject": parsed.subject,
            "date": parsed.date, "message_id": parsed.message_id, "snippet": parsed.snippet,
        }

    def audit_trail(self, action_id: int) -> builtins.list[dict[str, Any]]:
        with self.sessions() as session:
            rows = session.scalars(select(AuditRow).where(AuditRow.action_id == action_id)
                                   .order_by(AuditRow.id))
            return [{"event": r.event, "actor": r.actor, "detail": r.detail,
                     "created_at": r.created_at.isoformat()} for r in rows]


def _unicode_address(address: str) -> str:
    """The stored address has an IDNA domain; the look-alike checks read the Unicode form."""
    local, _, domain = address.rpartition("@")
    return f"{local}@{unicode_domain(domain)}"


def _written_to(payload: Any) -> str | None:
    """The recipient exactly as the proposer wrote it (the approval view compares)."""
    to = payload.get("to") if isinstance(payload, dict) else None
    return to[:500] if isinstance(to, str) else None


def _hash_of(payload: dict[str, Any]) -> str:
    if str(payload.get("action")) in BOUND_ACTIONS:
        return payload_hash(payload)
    from mailmoat.core.hashing import sha256_hex

    return sha256_hex(payload)
