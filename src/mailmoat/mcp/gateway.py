"""What each MCP tool does, for one authenticated principal.

Every call, allowed or refused, goes through `Gateway.call`: the account must be granted,
the scope held, the agent under its rate limit (calls in the last minute, counted in the
audit trail) and, for proposals, under its daily proposal cap; then one `mcp_call` entry
goes into the authority audit trail under `agent:<name>`. Proposals go through
`ActionService.propose` (source `mcp`), so recipient flags, canonical payloads and payload
hashes are exactly the ones the web page shows. Nothing here approves, executes, changes a
mode, pins a sender or reads a secret; the service's own rules keep it that way (only a
person mints a floor receipt, and the AUTO sweep approves only its own proposals).

Everything that comes from an email (subject, sender name, body, attachment names, a
model's reason) reaches the agent inside the untrusted wrapper.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, or_, select

from mailmoat.act.audit import Clock, audit, utcnow
from mailmoat.act.errors import ActError
from mailmoat.act.service import ActionService
from mailmoat.core.actions import ActionType
from mailmoat.core.itip import EventSpec, event_ics, meeting_uid
from mailmoat.core.lanes import Lane
from mailmoat.core.message import parse_message
from mailmoat.core.receipts import CALENDAR_EVENT, PayloadError
from mailmoat.core.slots import Busy, Slot
from mailmoat.core.untrusted import wrap_untrusted
from mailmoat.mcp.clients import Principal
from mailmoat.services.meeting import MeetingContext, meeting_context, own_calendars
from mailmoat.store import Store
from mailmoat.store.calendar_store import event_by_uid
from mailmoat.store.tables.act import ActionRow, AuditRow
from mailmoat.store.tables.messages import DecisionRow, MessageRow

CALL_EVENT = "mcp_call"
MAX_RESULTS = 50
MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024  # all attachments of one proposal together
MAX_BODY_CHARS = 100_000
MAX_EVENT_LENGTH = timedelta(days=14)
# A UID shown as is; any other (a UID is free text the sender chose) comes wrapped.
_PLAIN_UID = re.compile(r"^[A-Za-z0-9@._:+/=-]{1,255}$")
NEEDS = ("nothing has happened yet: a person must approve this proposal in mailmoat "
         "(web approvals or `mailmoat actions approve`) before it runs")
# Reversible mailbox actions an agent may propose, by tool.
MAILBOX_ACTIONS = (ActionType.ARCHIVE, ActionType.TRASH, ActionType.MOVE, ActionType.LABEL,
                   ActionType.MARK_READ, ActionType.MARK_UNREAD, ActionType.SNOOZE)


class Refused(Exception):
    """A call the gateway refuses; the message is safe to show the agent."""


def _wrapped(text: str) -> str:
    return wrap_untrusted(text, "email")


def _lane(value: str) -> Lane:
    try:
        return Lane(value.strip().upper())
    except ValueError:
        raise Refused(f"unknown lane {value!r}; one of "
                      f"{', '.join(lane.value for lane in Lane)}") from None


def _phishing(trace: dict[str, Any]) -> Any:
    """The decision's phishing flag when it records one (None when it does not)."""
    for where in (trace, trace.get("signals") or {}, trace.get("external") or {}):
        if isinstance(where, dict) and "phishing" in where:
            return where["phishing"]
    return None


def _trace_view(trace: dict[str, Any]) -> dict[str, Any]:
    view: dict[str, Any] = {k: trace.get(k) for k in ("lane", "reason", "auto_eligible", "branch",
                                      "policy_version", "features", "signals", "external",
                                      "source", "input_hash", "degraded") if k in trace}
    if trace.get("scorer_reason"):  # a model wrote it after reading the mail: untrusted
        view["scorer_reason"] = wrap_untrusted(str(trace["scorer_reason"]), "scorer")
    return view


def _uid_view(uid: str) -> str:
    return uid if _PLAIN_UID.match(uid) else wrap_untrusted(uid, "calendar")


def _busy_view(busy: Busy) -> dict[str, Any]:
    """One of the user's events: its summary may come from someone else's invitation."""
    return {**busy.slot.as_dict(), "uid": _uid_view(busy.uid),
            "summary": wrap_untrusted(busy.summary, "calendar")}


def meeting_view(ctx: MeetingContext) -> dict[str, Any]:
    """The meeting context for an agent: what mailmoat's own parser read as plain fields
    (kind, certainty, slot, options), what the mail itself says (the sentence understood,
    notes, links, organiser, the invitation's text fields) inside the untrusted wrapper, and
    the check against the account's calendars (conflicts, nearby events, alternatives)."""
    reading, check = ctx.reading.as_dict(), ctx.check
    said = {k: reading[k] for k in ("understood", "notes", "links", "organizer", "invite")}
    return {
        "message_id": ctx.message_id, "lane": ctx.lane, "zone": ctx.zone,
        "calendars": list(ctx.calendars),
        "request": {k: reading[k] for k in ("source", "kind", "certainty", "precision",
                                            "event_allowed", "slot", "options", "zone")},
        "from_the_mail": _wrapped(json.dumps(said, ensure_ascii=False, indent=1,
                                             default=str)),
        "checked": check.checked, "clash": check.clash, "outside_hours": check.outside_hours,
        "counterparty": check.counterparty,
        "conflicts": [_busy_view(b) for b in check.conflicts],
        "nearby": [_busy_view(b) for b in check.nearby],
        "alternatives": [a.as_dict() for a in check.alternatives],
    }


def _moment(value: str, name: str) -> datetime:
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise Refused(f"{name} must be an ISO 8601 time with a UTC offset") from None
    if moment.tzinfo is None:
        raise Refused(f"{name} needs a UTC offset (e.g. 2026-12-08T15:00:00+01:00)")
    return moment


class Gateway:
    def __init__(self, store: Store, service: ActionService | None = None,
                 clock: Clock = utcnow) -> None:
        self.store = store
        self.service = service or ActionService(store.engine, clock=clock)
        self.clock = clock

    # -- the one door ---------------------------------------------------------------------

    def call(self, who: Principal, tool: str, scope: str, account: str | None,
             run: Callable[[str], dict[str, Any]]) -> dict[str, Any]:
        """Check, run and audit one tool call. Raises Refused with a safe message."""
        now = self.clock()
        outcome, error, result = "ok", "", None
        where = account or ""
        try:
            where = self._account(who, account)
            if scope not in who.scopes:
                raise Refused(f"agent {who.name!r} lacks the {scope!r} scope")
            self._under_limits(who, scope, now)
            result = run(where)
            return result
        except Refused as exc:
            outcome, error = "refused", str(exc)
            raise
        except (PayloadError, ActError) as exc:
            outcome, error = "refused", str(exc)
            raise Refused(str(exc)) from None
        except Exception:
            outcome, error = "error", "internal error"
            raise
        finally:
            proposal = (result or {}).get("proposal_id")
            with self.store.sessions.begin() as session:
                audit(session, CALL_EVENT, who.actor, now,
                      action_id=proposal if isinstance(proposal, int) else None,
                      tool=tool, account=where[:200], outcome=outcome, via=who.via,
                      error=error[:300])

    def _account(self, who: Principal, account: str | None) -> str:
        if account is None or account == "":
            if len(who.accounts) == 1:
                return who.accounts[0]
            raise Refused("name the account: this agent may use "
                          + ", ".join(who.accounts))
        if account not in who.accounts:
            raise Refused(f"account {account!r} is not granted to agent {who.name!r}")
        return account

    def _under_limits(self, who: Principal, scope: str, now: datetime) -> None:
        with self.store.sessions() as session:
            recent = int(session.scalar(
                select(func.count()).select_from(AuditRow).where(
                    AuditRow.actor == who.actor, AuditRow.event == CALL_EVENT,
                    AuditRow.created_at >= now - timedelta(minutes=1))) or 0)
            if recent >= who.rate_per_minute:
                raise Refused(f"rate limit: {who.rate_per_minute} calls a minute; wait")
            if scope != "propose":
                return
            start = now.replace(hour=0, minute=0, second=0, microsecond=0)
            today = int(session.scalar(
                select(func.count()).select_from(ActionRow).where(
                    ActionRow.proposed_by == who.actor, ActionRow.proposed_at >= start)) or 0)
            if today >= who.daily_proposals:
                raise Refused(f"daily proposal cap of {who.daily_proposals} reached")

    # -- reads ----------------------------------------------------------------------------

    def search(self, account: str, query: str, lane: str | None, limit: int) -> dict[str, Any]:
        words = [w for w in query.split() if w][:8]
        if not words:
            raise Refused("search needs at least one word")
        select_ = (select(MessageRow.id, MessageRow.from_name, MessageRow.from_addr,
                          MessageRow.subject, MessageRow.date, MessageRow.snippet,
                          DecisionRow.lane)
                   .join(DecisionRow, DecisionRow.message_id == MessageRow.id, isouter=True)
                   .where(MessageRow.account == account))
        for word in words:
            pattern = "%" + word.replace("\\", "\\\\").replace("%", "\\%").replace(
                "_", "\\_") + "%"
            select_ = select_.where(or_(*(column.ilike(pattern, escape="\\") for column in (
                MessageRow.subject, MessageRow.from_addr, MessageRow.from_name,
                MessageRow.snippet))))
        if lane is not None:
            select_ = select_.where(DecisionRow.lane == _lane(lane).value)
        with self.store.sessions() as session:
            rows = session.execute(select_.order_by(MessageRow.id.desc())
                                   .limit(min(max(limit, 1), MAX_RESULTS))).all()
        return {"account": account, "messages": [self._summary(r) for r in rows]}

    def list_lane(self, account: str, lane: str, limit: int, offset: int) -> dict[str, Any]:
        chosen = _lane(lane)
        rows = self.store.list_messages(chosen.value, account=account,
                                        limit=min(max(limit, 1), MAX_RESULTS),
                                        offset=max(offset, 0))
        return {"account": account, "lane": chosen.value,
                "messages": [self._summary_dict(r, chosen.value) for r in rows]}

    @staticmethod
    def _summary(row: Any) -> dict[str, Any]:
        return {"id": row.id, "lane": row.lane, "date": row.date,
                "summary": _wrapped(f"From: {row.from_name} <{row.from_addr}>\n"
                                    f"Subject: {row.subject}\n\n{row.snippet}")}

    @staticmethod
    def _summary_dict(row: dict[str, Any], lane: str) -> dict[str, Any]:
        return {"id": row["id"], "lane": lane, "date": row["date"],
                "summary": _wrapped(f"From: {row['from_name']} <{row['from_addr']}>\n"
                                    f"Subject: {row['subject']}\n\n{row['snippet']}")}

    def read(self, account: str, message_id: int) -> dict[str, Any]:
        found = self.store.get_message(message_id, account=account)
        if found is None:
            raise Refused(f"no message {message_id} in account {account!r}")
        names = ", ".join(f"{a['filename']} ({a['content_type']}, {a['size']} bytes)"
                          for a in found["attachments"])
        text = (f"From: {found['from_name']} <{found['from_addr']}>\n"
                f"To: {', '.join(found['to'])}\nSubject: {found['subject']}\n"
                f"Date: {found['date']}\n" + (f"Attachments: {names}\n" if names else "")
                + f"\n{found['body_text']}")
        trace = found["trace"] or {}
        return {"id": found["id"], "account": account, "lane": found["lane"],
                "content": _wrapped(text), "trace": _trace_view(trace),
                "phishing": _phishing(trace), "stale": found["stale"]}

    def meeting(self, account: str, message_id: int) -> dict[str, Any]:
        """The meeting context of a message, checked against this account's calendars only."""
        self._message(account, message_id)
        return meeting_view(meeting_context(self.store, message_id, account, own_only=True))

    def status(self, who: Principal, proposal_id: int) -> dict[str, Any]:
        try:
            view = self.service.show(proposal_id)
        except ActError:
            view = None
        if view is None or view["account"] not in who.accounts:
            raise Refused(f"no proposal {proposal_id} in the accounts granted")
        outbox = view["outbox"] or {}
        return {"proposal_id": view["id"], "account": view["account"],
                "action": view["action"], "status": view["status"],
                "payload_sha256": view["payload_sha256"], "proposed_by": view["proposed_by"],
                "decided_by": view["decided_by"], "flags": view["flags"],
                "outbox": outbox.get("state") if outbox else None}

    # -- proposals ------------------------------------------------------------------------

    def _proposed(self, who: Principal, account: str, payload: dict[str, Any],
                  reply_to: int | None = None) -> dict[str, Any]:
        view = self.service.propose(account, payload, who.actor, "mcp",
                                    reply_to_message=reply_to)
        return {"proposal_id": view["id"], "account": account, "action": view["action"],
                "status": view["status"], "payload": view["payload"],
                "payload_sha256": view["payload_sha256"], "flags": view["flags"],
                "next": NEEDS}

    def _message(self, account: str, message_id: int) -> MessageRow:
        with self.store.sessions() as session:
            row = session.get(MessageRow, message_id)
        if row is None or row.account != account:
            raise Refused(f"no message {message_id} in account {account!r}")
        return row

    def reply(self, who: Principal, account: str, message_id: int, body: str,
              subject: str | None) -> dict[str, Any]:
        original = parse_message(self._message(account, message_id).raw)
        _body(body)
        title = subject if subject is not None else (
            original.subject if original.subject.lower().startswith("re:")
            else f"Re: {original.subject}")
        return self._proposed(who, account, {"action": "send_email", "subject": title,
                                             "body": body}, reply_to=message_id)

    def send(self, who: Principal, account: str, to: str, subject: str, body: str,
             attachments: list[dict[str, str]]) -> dict[str, Any]:
        _body(body)
        stored = self._attachments(attachments)
        return self._proposed(who, account, {"action": "send_email", "to": to,
                                             "subject": subject, "body": body,
                                             "attachments": stored})

    def _attachments(self, items: list[dict[str, str]]) -> list[dict[str, str]]:
        blobs, total = [], 0
        for item in items:
            try:
                content = base64.b64decode(item["content_base64"], validate=True)
            except (binascii.Error, ValueError):
                raise Refused(f"attachment {item['filename']!r} is not valid base64") from None
            total += len(content)
            if total > MAX_ATTACHMENT_BYTES:
                raise Refused("attachments are limited to 10 MB per proposal")
            blobs.append((item, content))
        return [{"filename": item["filename"], "content_type": item["content_type"],
                 "sha256": self.service.store_attachment(content)} for item, content in blobs]

    def forward(self, who: Principal, account: str, message_id: int, to: str,
                note: str) -> dict[str, Any]:
        self._message(account, message_id)
        _body(note)
        # The action service binds the one stored message (folder, UIDVALIDITY, UID, sha256).
        return self._proposed(who, account, {"action": "forward_external", "to": to,
                                             "message": message_id, "note": note})

    def calendar_event(self, who: Principal, account: str, *, start: str, end: str,
                       summary: str, location: str = "", calendar: str | None = None,
                       uid: str | None = None, message_id: int | None = None
                       ) -> dict[str, Any]:
        """Propose putting one event in the user's own calendar (calendar_event: no
        attendees, so no invitation goes out). `uid` updates an event already synced from
        one of this account's calendars; otherwise the UID is derived from the request (the
        message's Message-ID and the slot when a message is named, as the meeting proposals
        do), so the same proposal twice writes one event."""
        begins, ends = _moment(start, "start"), _moment(end, "end")
        if not begins < ends:
            raise Refused("end must be after start")
        slot = Slot(begins, ends)
        if slot.end - slot.start > MAX_EVENT_LENGTH:
            raise Refused("an event may last at most 14 days")
        writable = {c.name: c for c in own_calendars(self.store, account) if c.writable}
        if calendar is not None and calendar not in writable:
            raise Refused(f"no writable calendar {calendar!r} for account {account!r}")
        sequence = 0
        if uid is not None:
            ids = [c.id for name, c in writable.items() if c.id is not None
                   and calendar in (None, name)]
            found = [hit for cid in ids if (hit := event_by_uid(self.store, [cid], uid))]
            if not found:
                raise Refused("no event with that UID in this account's writable calendars "
                              "(sync the calendar first)")
            if len(found) > 1:
                raise Refused("that UID is in several calendars: name the calendar")
            cal_id, stored = found[0]
            if stored.rrule or "ATTENDEE" in stored.raw.upper():
                raise Refused("that event repeats or invites other people: change it in "
                              "your calendar program")
            calendar = next(name for name, c in writable.items() if c.id == cal_id)
            sequence = _sequence(stored.raw) + 1
        if calendar is None:
            if not writable:
                raise Refused("no writable CalDAV calendar is linked to this account")
            calendar = next(iter(writable))
        if uid is None:
            seed = f"{who.actor}\n{calendar}\n{summary}"
            if message_id is not None:
                parsed = parse_message(self._message(account, message_id).raw)
                seed = parsed.message_id or f"message-{message_id}"
            uid = meeting_uid(seed, slot)
        elif message_id is not None:
            self._message(account, message_id)
        spec = EventSpec(uid=uid, slot=slot, summary=summary, location=location,
                         sequence=sequence)
        payload = {"action": CALENDAR_EVENT, "calendar": calendar, "operation": "put",
                   "uid": uid, "ics": event_ics(spec, self.clock())}
        return self._proposed(who, account, payload, reply_to=message_id)

    def mailbox(self, who: Principal, account: str, action: ActionType, message_id: int,
                **fields: Any) -> dict[str, Any]:
        if action not in MAILBOX_ACTIONS:
            raise Refused(f"{action.value} is not an action an agent may propose")
        self._message(account, message_id)
        return self._proposed(who, account, {"action": action.value, "message": message_id,
                                             **fields})


def _sequence(raw: str) -> int:
    found = re.search(r"^SEQUENCE:(\d{1,6})\s*$", raw, re.MULTILINE)
    return int(found.group(1)) if found else 0


def _body(text: str) -> None:
    if len(text) > MAX_BODY_CHARS:
        raise Refused(f"text is limited to {MAX_BODY_CHARS} characters")
