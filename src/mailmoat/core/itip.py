"""Building the bytes a meeting proposal would run: the event (VCALENDAR for a CalDAV PUT),
the iTIP REPLY to an invitation, and the template reply text. Pure and deterministic: the
same inputs give the same bytes (DTSTAMP is passed in, never read from a clock), so a
receipt minted over them can be checked again at execution.

Which calendar write is a floor action is decided here, from the event itself:
  - an event that names attendees other than the user, with the user as organiser, makes a
    CalDAV server send invitations: `calendar_invite`, a floor action (a receipt);
  - anything else lands only in the user's own calendar: `calendar_event`, reversible.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from mailmoat.core.ical import Invite
from mailmoat.core.slots import Alternative, Slot

PARTSTATS = {"accept": "ACCEPTED", "decline": "DECLINED", "tentative": "TENTATIVE"}
PRODID = "-//mailmoat//meeting//EN"


@dataclass(frozen=True, slots=True)
class EventSpec:
    uid: str
    slot: Slot
    summary: str
    organizer: str = ""  # address; empty: the user's own event
    attendees: tuple[str, ...] = ()
    location: str = ""
    sequence: int = 0
    status: str = "CONFIRMED"


def meeting_uid(message_id: str, slot: Slot) -> str:
    """A stable UID for an event proposed from a plain-language mail: the same mail and slot
    always give the same UID, so a retried write replaces instead of duplicating."""
    digest = hashlib.sha256(f"{message_id}\n{slot.start.isoformat()}\n"
                            f"{slot.end.isoformat()}".encode()).hexdigest()[:32]
    return f"mailmoat-{digest}@mailmoat.invalid"


def _clean(text: str, limit: int = 300) -> str:
    return " ".join(text.split())[:limit]


def _vevent(spec: EventSpec, dtstamp: datetime) -> object:
    import icalendar

    event = icalendar.Event()
    event.add("uid", spec.uid)
    event.add("dtstamp", dtstamp.astimezone(UTC))
    if spec.slot.all_day:
        event.add("dtstart", spec.slot.start.date())
        event.add("dtend", spec.slot.end.date())
    else:
        event.add("dtstart", spec.slot.start.astimezone(UTC))
        event.add("dtend", spec.slot.end.astimezone(UTC))
    event.add("summary", _clean(spec.summary) or "Meeting")
    event.add("sequence", spec.sequence)
    event.add("status", spec.status)
    if spec.location:
        event.add("location", _clean(spec.location, 500))
    if spec.organizer:
        event.add("organizer", f"mailto:{spec.organizer}")
    for address in spec.attendees:
        event.add("attendee", f"mailto:{address}")
    return event


def _vcalendar(method: str = "") -> Any:
    """An empty VCALENDAR with mailmoat's PRODID (and METHOD for an iTIP message)."""
    import icalendar

    cal = icalendar.Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    if method:
        cal.add("method", method)
    return cal


def _answer_event(invite: Invite, dtstamp: datetime) -> Any:
    """The VEVENT of an answer about `invite`: its UID, SEQUENCE (and RECURRENCE-ID) only."""
    import icalendar

    event = icalendar.Event()
    event.add("uid", invite.uid)
    event.add("dtstamp", dtstamp.astimezone(UTC))
    event.add("sequence", invite.sequence)
    if invite.recurrence_id and invite.slot is not None:
        event.add("recurrence-id", invite.slot.start.astimezone(UTC))
    return event


def event_ics(spec: EventSpec, dtstamp: datetime) -> str:
    """The VCALENDAR to PUT on the user's calendar (no METHOD: it is a stored object)."""
    cal = _vcalendar()
    cal.add_component(_vevent(spec, dtstamp))
    return str(cal.to_ical().decode("utf-8"))


def invites_others(spec: EventSpec, user: str) -> bool:
    """True when writing this event would invite someone: the user organises it and it
    names anyone else."""
    me = user.lower()
    others = [a for a in spec.attendees if a.lower() != me]
    return bool(others) and (not spec.organizer or spec.organizer.lower() == me)


def itip_reply(invite: Invite, attendee: str, answer: str, dtstamp: datetime) -> str:
    """METHOD:REPLY for an invitation: this attendee's PARTSTAT, the invitation's UID,
    SEQUENCE and times, nothing else from it (its text is untrusted and not echoed)."""
    import icalendar

    if invite.slot is None or not invite.uid:
        raise ValueError("an iTIP REPLY needs the invitation's UID and slot")
    partstat = PARTSTATS[answer]
    cal = _vcalendar("REPLY")
    event = _answer_event(invite, dtstamp)
    if invite.slot.all_day:
        event.add("dtstart", invite.slot.start.date())
        event.add("dtend", invite.slot.end.date())
    else:
        event.add("dtstart", invite.slot.start.astimezone(UTC))
        event.add("dtend", invite.slot.end.astimezone(UTC))
    if invite.organizer:
        event.add("organizer", f"mailto:{invite.organizer.address}")
    person = icalendar.vCalAddress(f"mailto:{attendee}")
    person.params["PARTSTAT"] = partstat
    event.add("attendee", person)
    cal.add_component(event)
    return cal.to_ical().decode("utf-8")


def itip_request(spec: EventSpec, dtstamp: datetime) -> str:
    """METHOD:REQUEST for an event the user organises: the updated invitation sent when a
    counter-proposal is accepted (the new times, SEQUENCE moved on)."""
    cal = _vcalendar("REQUEST")
    cal.add_component(_vevent(spec, dtstamp))
    return str(cal.to_ical().decode("utf-8"))


def itip_declinecounter(counter: Invite, organizer: str, attendee: str,
                        dtstamp: datetime) -> str:
    """METHOD:DECLINECOUNTER (RFC 5546 3.2.8) to the attendee who countered: the UID and
    SEQUENCE of the user's event, the organiser and that attendee, nothing else from the
    counter (its text is untrusted and not echoed)."""
    if not counter.uid:
        raise ValueError("a DECLINECOUNTER needs the event's UID")
    cal = _vcalendar("DECLINECOUNTER")
    event = _answer_event(counter, dtstamp)
    event.add("organizer", f"mailto:{organizer}")
    event.add("attendee", f"mailto:{attendee}")
    cal.add_component(event)
    return cal.to_ical().decode("utf-8")


def counter_text(answer: str, proposed: Slot, zone: str, original: Slot | None = None,
                 name: str = "") -> str:
    """The template answer to a counter-proposal: the new time accepted (the invitation is
    updated), or declined (the original time stands)."""
    hello = f"Hi {_clean(name, 60).split(' ')[0]}," if name.strip() else "Hi,"
    if answer == "accept":
        body = (f"{when(proposed, zone)} works for me. I've moved the meeting; the updated "
                "invitation is attached.")
    else:
        keep = f" Let's keep {when(original, zone)}." if original is not None else ""
        body = f"I'm afraid {when(proposed, zone)} doesn't work for me.{keep}"
    return f"{hello}\n\n{body}\n\nBest regards"


def when(slot: Slot, zone: str) -> str:
    tz = ZoneInfo(zone)
    start, end = slot.start.astimezone(tz), slot.end.astimezone(tz)
    if slot.all_day:
        return f"{start:%a %d %b %Y} (all day)"
    return f"{start:%a %d %b %Y, %H:%M}-{end:%H:%M} ({zone})"


def reply_text(answer: str, slot: Slot, zone: str, alternatives: tuple[Alternative, ...] = (),
               name: str = "", theirs: bool = False) -> str:
    """The template reply: accept, decline, or decline with the alternatives offered.
    `theirs`: the clash is in the other person's free/busy, not in the user's calendar."""
    hello = f"Hi {_clean(name, 60).split(' ')[0]}," if name.strip() else "Hi,"
    at = when(slot, zone)
    if answer == "accept":
        body = f"{at} works for me. See you then."
    elif alternatives:
        options = "\n".join(f"- {when(a.slot, zone)}" for a in alternatives)
        why = ("your calendar shows you busy then" if theirs
               else "I already have something then")
        body = (f"I can't make {at}, {why}. Would one of these work instead?\n\n{options}")
    else:
        body = f"I'm afraid I can't make {at}."
    return f"{hello}\n\n{body}\n\nBest regards"
