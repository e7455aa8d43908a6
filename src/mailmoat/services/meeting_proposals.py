"""Proposing for a MEETING mail: the reply (template text, and for an invitation the iTIP
REPLY attached) and the calendar write, both pending together in the decision queue.

  - accept an invitation: reply "accepted" with METHOD:REPLY PARTSTAT=ACCEPTED, and put the
    invitation's event (same UID) on the linked calendar;
  - a free plain-language slot: reply "works for me", and put a new event (stable UID from
    the mail and the slot) on the user's own calendar (reversible), or, when asked to invite
    the sender, an event with them as attendee (calendar_invite, a floor action);
  - a clash: reply declining with up to three alternatives; no event until one is chosen;
  - a cancellation: delete the event by UID; no reply;
  - a COUNTER to the user's own event: accept (the event moved, the updated REQUEST sent)
    or decline (a DECLINECOUNTER; the event stays).
Nothing is proposed from an unsure reading. Each action keeps its own receipt; rejecting one
leaves the other pending.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select

from mailmoat.act.auto import Drafter, DraftRequest
from mailmoat.act.errors import PolicyRefused
from mailmoat.act.service import ActionService
from mailmoat.calendar.registry import calendars_for_account
from mailmoat.core.ical import read_ics
from mailmoat.core.itip import (
    EventSpec,
    counter_text,
    event_ics,
    invites_others,
    itip_declinecounter,
    itip_reply,
    itip_request,
    meeting_uid,
    reply_text,
    when,
)
from mailmoat.core.meeting import may_auto_accept
from mailmoat.core.message import parse_message
from mailmoat.core.receipts import CALENDAR_EVENT, FloorAction
from mailmoat.core.untrusted import wrap_untrusted
from mailmoat.services.meeting import MeetingContext, meeting_context
from mailmoat.store.calendar_store import event_by_uid, events_between
from mailmoat.store.messages import Store
from mailmoat.store.tables.calendar import MeetingProposalRow
from mailmoat.store.tables.messages import DecisionRow, MessageRow


class NotProposable(ValueError):
    """Nothing can be proposed for this mail (unsure, a reply, no calendar...); says why."""


@dataclass(frozen=True)
class MeetingProposal:
    id: int
    message_id: int
    answer: str
    reply_action_id: int | None
    event_action_id: int | None

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "message_id": self.message_id, "answer": self.answer,
                "reply_action_id": self.reply_action_id,
                "event_action_id": self.event_action_id}


def _subject(subject: str, prefix: str) -> str:
    base = subject.strip()
    for lead in ("re:", "fwd:", "fw:", "invitation:", "updated invitation:"):
        if base.lower().startswith(lead):
            base = base[len(lead):].strip()
    return f"{prefix}: {base}" if base else prefix


def _writable(store: Store, account: str, name: str | None) -> str:
    cals = [c for c in calendars_for_account(store, account) if c.writable]
    if name is not None:
        if name not in {c.name for c in cals}:
            raise NotProposable(f"no writable CalDAV calendar named {name!r} for {account!r}")
        return name
    if not cals:
        raise NotProposable("no writable CalDAV calendar linked: mailmoat calendar add")
    return cals[0].name


def propose_meeting(
    store: Store,
    actions: ActionService,
    message_id: int,
    *,
    account: str = "local",
    user: str | None = None,
    proposed_by: str,
    source: str = "cli",
    answer: str = "auto",
    calendar: str | None = None,
    invite_sender: bool = False,
    locale: str = "en-US",
    drafter: Drafter | None = None,
    not_before: datetime | None = None,
) -> MeetingProposal:
    """Put the reply and the calendar write in the decision queue, linked. `user` is the
    user's own address (the attendee in an iTIP REPLY). With `not_before`, a slot that ended
    before it is not proposed for (a sweep over older mail)."""
    try:
        ring = actions.keys()  # opens the calendars' logins to ask the counterparty's free/busy
    except Exception:  # no key ring: their free/busy stays unknown (never taken as free)
        ring = None
    ctx = meeting_context(store, message_id, account, locale, ring=ring)
    reading, check = ctx.reading, ctx.check
    if reading.certainty == "unsure":
        raise NotProposable(f"unsure ({reading.understood}): nothing is proposed; read the mail")
    if not_before is not None and reading.slot is not None and reading.slot.end <= not_before:
        raise NotProposable("the proposed time has passed; nothing is proposed")
    user = user or user_address(store, account, message_id)
    if reading.kind in ("reply", "declinecounter", "refresh"):
        raise NotProposable(f"{reading.kind}: an answer to your own invitation, nothing to send")
    if answer == "auto":
        answer = "decline" if check.clash else "accept"
    if answer not in ("accept", "decline"):
        raise NotProposable(f"answer must be accept, decline or auto, not {answer!r}")
    if source == "auto":
        with store.sessions() as session:
            decision = session.get(DecisionRow, message_id)
        ok, why = may_auto_accept(check, bool(decision and decision.auto_eligible))
        if not ok or answer != "accept":
            raise PolicyRefused(f"AUTO may not accept this meeting: {why}")
    with store.sessions() as session:
        row = session.get(MessageRow, message_id)
        assert row is not None  # meeting_context found it
        raw = row.raw
        if session.scalar(select(MeetingProposalRow.id).where(
                MeetingProposalRow.message_id == message_id)) is not None:
            raise NotProposable(f"message {message_id} has proposals already")
    message = parse_message(raw)
    dtstamp = _dtstamp(message.date)
    cal_name = _writable(store, account, calendar)
    reply: dict[str, Any] | None = None
    event: dict[str, Any] | None = None
    slot = reading.slot
    assert slot is not None
    if reading.kind == "counter":
        reply, event = _counter(store, actions, account, message, ctx, answer, user, dtstamp,
                                calendar)
    elif reading.kind == "cancel":
        answer = "cancel"
        uid = reading.invite.uid if reading.invite else _stored_uid(store, ctx, account)
        if not uid:
            raise NotProposable("a cancellation for no event found in your calendar")
        event = _calendar_payload(CALENDAR_EVENT, cal_name, "delete", uid, "")
    elif reading.precision == "window":
        answer = "alternatives"
        if not check.alternatives:
            raise NotProposable("no free time inside the proposed window")
        reply = _reply(message, ctx, "decline", (), user, dtstamp, body=_window_text(ctx))
    elif reading.source == "ics" and reading.invite is not None:
        inv = reading.invite
        digest = None  # an iTIP REPLY answers a REQUEST only (a PUBLISH expects none)
        if inv.method == "request":
            digest = actions.store_attachment(itip_reply(inv, user, answer, dtstamp).encode())
        reply = _reply(message, ctx, answer, check.alternatives, user, dtstamp,
                       itip_sha256=digest)
        if answer == "accept":
            spec = EventSpec(uid=inv.uid, slot=slot, summary=inv.summary or message.subject,
                             organizer=inv.organizer.address if inv.organizer else "",
                             attendees=tuple(a.address for a in inv.attendees),
                             location=inv.location, sequence=inv.sequence)
            event = _event_payload(spec, user, cal_name, dtstamp)
    else:
        reply = _reply(message, ctx, answer, check.alternatives, user, dtstamp)
        if answer == "accept":
            uid = meeting_uid(message.message_id or f"message-{message_id}", slot)
            spec = EventSpec(uid=uid, slot=slot, summary=_subject(message.subject, "")
                             .removeprefix(": ") or "Meeting",
                             organizer=user if invite_sender else "",
                             attendees=(user, message.from_addr) if invite_sender else ())
            event = _event_payload(spec, user, cal_name, dtstamp)
    if reply is not None and drafter is not None and reading.kind != "counter":
        reply = _model_text(drafter, account, message, reply, ctx, answer)
    reply_id = event_id = None
    if reply is not None:
        reply_id = actions.propose(account, reply, proposed_by, source,
                                   reply_to_message=message_id)["id"]
    if event is not None:
        event_id = actions.propose(account, event, proposed_by, source,
                                   reply_to_message=message_id)["id"]
    with store.sessions.begin() as session:
        link = MeetingProposalRow(message_id=message_id, account=account, answer=answer,
                                  reply_action_id=reply_id, event_action_id=event_id,
                                  context=ctx.as_dict(), created_at=datetime.now(UTC))
        session.add(link)
        session.flush()
        link_id = link.id
    return MeetingProposal(link_id, message_id, answer, reply_id, event_id)


def _counter(store: Store, actions: ActionService, account: str, message: Any,
             ctx: MeetingContext, answer: str, user: str, dtstamp: datetime,
             calendar: str | None) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """A COUNTER to the user's own event. Accept: the event moved to the proposed time
    (same UID, SEQUENCE on; it names the attendees, so it is a `calendar_invite`) and the
    updated REQUEST sent to the one who countered. Decline: a DECLINECOUNTER to them, and
    the event stays as it is."""
    reading = ctx.reading
    counter, slot = reading.invite, reading.slot
    if counter is None or slot is None or not counter.uid:
        raise NotProposable("a counter-proposal without a readable event UID; read the mail")
    cals = calendars_for_account(store, account)
    found = event_by_uid(store, [c.id for c in cals if c.id is not None], counter.uid)
    if found is None:
        raise NotProposable("a counter-proposal for an event that is not in your calendar")
    cal_id, stored = found
    original = read_ics(stored.raw, ctx.zone)
    organizer = original.organizer.address if original.organizer else user
    if organizer.lower() != user.lower():
        raise NotProposable("a counter-proposal for an event you do not organise; its "
                            "organiser answers it")
    sender = message.from_addr
    if not any(a.address == sender.lower() for a in original.attendees):
        raise NotProposable(f"{sender} is not an attendee of that event; read the mail")
    summary = original.summary or _subject(message.subject, "").removeprefix(": ")
    if answer == "accept":
        spec = EventSpec(uid=counter.uid, slot=slot, summary=summary or "Meeting",
                         organizer=user, attendees=tuple(a.address for a in original.attendees),
                         location=original.location,
                         sequence=max(original.sequence, counter.sequence) + 1)
        attachment = itip_request(spec, dtstamp)
        text = counter_text("accept", slot, ctx.zone, name=message.from_name)
        filename = "invite.ics"
        home = next((c.name for c in cals if c.id == cal_id and c.writable), None)
        event = _event_payload(spec, user, calendar or home or _writable(store, account, None),
                               dtstamp)
    else:
        attachment = itip_declinecounter(counter, user, sender, dtstamp)
        text = counter_text("decline", slot, ctx.zone, original.slot, message.from_name)
        filename = "declinecounter.ics"
        event = None
    digest = actions.store_attachment(attachment.encode())
    reply = {"action": "send_email", "to": sender,
             "subject": f"{'Updated invitation' if answer == 'accept' else 'Declined'}: "
                        f"{_clean_subject(summary or message.subject)}",
             "body": text, "attachments": [{"filename": filename,
                                            "content_type": "text/calendar",
                                            "sha256": digest}]}
    return reply, event


def _clean_subject(text: str) -> str:
    return " ".join(text.split())[:200]


def user_address(store: Store, account: str, message_id: int) -> str:
    """The user's own address: the account's sender address, else the mail's first To."""
    from mailmoat.accounts.registry import AccountError, get_account

    try:
        settings = get_account(store, account)
        if settings.submission is not None and settings.submission.from_addr:
            return settings.submission.from_addr
        if "@" in settings.username:
            return settings.username
    except AccountError:
        pass
    with store.sessions() as session:
        row = session.get(MessageRow, message_id)
        to = parse_message(row.raw).to if row is not None else ()
    if not to:
        raise NotProposable("cannot tell your own address: link a mail account")
    return to[0]


def _dtstamp(date: str | None) -> datetime:
    """The mail's own Date: the same mail always gives the same event bytes."""
    if date:
        try:
            return datetime.fromisoformat(date)
        except ValueError:
            pass
    return datetime(1970, 1, 1, tzinfo=UTC)


def _stored_uid(store: Store, ctx: MeetingContext, account: str) -> str:
    """The user's event that starts exactly at the slot a cancellation names."""
    slot = ctx.reading.slot
    if slot is None:
        return ""
    cals = calendars_for_account(store, account)
    for ev in events_between(store, [c.id for c in cals if c.id], slot.start, slot.end):
        if ev.start_at == slot.start:
            return ev.uid
    return ""


def _calendar_payload(action: str, calendar: str, operation: str, uid: str,
                      ics: str) -> dict[str, Any]:
    return {"action": action, "calendar": calendar, "operation": operation, "uid": uid,
            "ics": ics}


def _event_payload(spec: EventSpec, user: str, calendar: str, dtstamp: datetime
                   ) -> dict[str, Any]:
    kind = FloorAction.CALENDAR_INVITE if invites_others(spec, user) else CALENDAR_EVENT
    return _calendar_payload(kind, calendar, "put", spec.uid, event_ics(spec, dtstamp))


def _reply(message: Any, ctx: MeetingContext, answer: str, alternatives: Any, user: str,
           dtstamp: datetime, itip_sha256: str | None = None, body: str | None = None
           ) -> dict[str, Any]:
    """The reply as a send_email payload: to the sender only (act enforces it), the template
    text, and for an invitation the iTIP REPLY as a text/calendar attachment."""
    slot = ctx.reading.slot
    assert slot is not None
    text = body or reply_text(answer, slot, ctx.zone, tuple(alternatives), message.from_name,
                              theirs=ctx.check.clash_is_theirs)
    if itip_sha256 is not None:
        subject = _subject(message.subject, "Accepted" if answer == "accept" else "Declined")
    else:
        subject = message.subject if message.subject.lower().startswith("re:") else (
            f"Re: {message.subject}".strip())
    payload: dict[str, Any] = {"action": "send_email", "to": message.from_addr,
                               "subject": subject, "body": text}
    if itip_sha256 is not None:
        payload["attachments"] = [{"filename": "reply.ics", "content_type": "text/calendar",
                                   "sha256": itip_sha256}]
    return payload


def facts_for_model(ctx: MeetingContext, answer: str) -> tuple[str, tuple[str, ...]]:
    """What the reply must say, from mailmoat's own facts (not from the mail), and the times
    that must appear in it for the draft to be used."""
    slot = ctx.reading.slot
    assert slot is not None
    alts = ctx.check.alternatives
    if answer == "accept":
        facts = f"Accept the meeting at {when(slot, ctx.zone)}."
        times: tuple[str, ...] = (_hhmm(slot.start, ctx.zone),)
    elif alts:
        who = ("the other person's calendar shows them busy" if ctx.check.clash_is_theirs
               else "the user is busy")
        facts = (f"Decline {when(slot, ctx.zone)} ({who}) and offer exactly these "
                 "times instead: " + "; ".join(when(a.slot, ctx.zone) for a in alts) + ".")
        times = tuple(_hhmm(a.slot.start, ctx.zone) for a in alts)
    else:
        facts = f"Decline the meeting at {when(slot, ctx.zone)}; offer no other time."
        times = (_hhmm(slot.start, ctx.zone),)
    return (f"{facts} Keep it short and polite. Do not invent or change any date or time.",
            times)


def _hhmm(moment: datetime, zone: str) -> str:
    from zoneinfo import ZoneInfo

    return moment.astimezone(ZoneInfo(zone)).strftime("%H:%M")


def _model_text(drafter: Drafter, account: str, message: Any, reply: dict[str, Any],
                ctx: MeetingContext, answer: str) -> dict[str, Any]:
    """The model may word the reply; the mail reaches it only inside the untrusted wrapper,
    and a draft that drops one of the times the facts name is not used (the template is)."""
    if ctx.reading.precision == "window":
        return reply
    facts, times = facts_for_model(ctx, answer)
    request = DraftRequest(account=account, sender=reply["to"], subject=message.subject,
                           original=wrap_untrusted(f"Subject: {message.subject}\n\n"
                                                   f"{message.body_text}", "email"),
                           guidelines=facts)
    draft = drafter.draft(request)
    if draft is None or not all(t in draft.body for t in times):
        return reply  # no model, or a draft not grounded in the facts: the template stands
    return {**reply, "body": draft.body}


def _window_text(ctx: MeetingContext) -> str:
    options = "\n".join(f"- {when(a.slot, ctx.zone)}" for a in ctx.check.alternatives)
    return f"Hi,\n\nI'm free at any of these times:\n\n{options}\n\nBest regards"


def proposals_for(store: Store, message_id: int) -> list[MeetingProposal]:
    with store.sessions() as session:
        rows = session.scalars(select(MeetingProposalRow).where(
            MeetingProposalRow.message_id == message_id).order_by(MeetingProposalRow.id))
        return [MeetingProposal(r.id, r.message_id, r.answer, r.reply_action_id,
                                r.event_action_id) for r in rows]


def approve_meeting(store: Store, actions: ActionService, message_id: int,
                    approved_by: str) -> list[dict[str, Any]]:
    """One approval for the meeting: every still-pending action of its proposals is approved,
    each minting its own receipt over its own bytes. A rejected one stays rejected."""
    approved = []
    for proposal in proposals_for(store, message_id):
        for action_id in (proposal.reply_action_id, proposal.event_action_id):
            if action_id is None:
                continue
            if actions.show(action_id)["status"] == "pending":
                approved.append(actions.approve(action_id, approved_by))
    if not approved:
        raise NotProposable(f"message {message_id} has no pending meeting proposals")
    return approved
