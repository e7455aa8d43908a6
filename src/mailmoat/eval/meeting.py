"""The slot-understanding eval: hand-written meeting mails, each with the slot a person reads.

Each item becomes a real RFC 822 message (headers, optional text/calendar part), goes
through `parse_message` and `read_message` (the deterministic path, no model), and is
scored:
  - exact: the reading allows an event and its slot has the expected start and end instants
    (or, for a part-of-day proposal, the expected window with precision "window");
  - unsure items expect no event: `events_from_unsure` counts readings that would propose one
    anyway (the goal is 0);
  - a slot item read as unsure is a miss, never an event;
  - `wrong_events` counts the worst outcome: an event allowed on a slot that is not the one a
    person reads.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from mailmoat.core.meeting import UNSURE, Reading, read_message
from mailmoat.core.message import parse_message

SET_PATH = Path(__file__).with_name("sets") / "meeting-slots.json"
# Written after the reader was, and read once before any change: 14 of 16 exact, one wrong
# event ("push the 10am to 11:30am" read as 10:00-11:30) and one miss ("the 15th"). Both
# were fixed after that first reading, so it is no longer held out; it stays as a gate.
LATER_PATH = Path(__file__).with_name("sets") / "meeting-slots-later.json"
EXACT_GOAL = 0.95


def build_mail(item: dict[str, Any]) -> bytes:
    msg = EmailMessage()
    msg["From"] = item.get("from", "sam@partner.example")
    msg["To"] = "you@example.org"
    msg["Subject"] = item.get("subject", "meeting")
    msg["Date"] = item["date"]
    msg["Message-ID"] = f"<{item['id']}@eval.mailmoat.invalid>"
    msg.set_content(item.get("body", ""))
    if item.get("ics"):
        ics = "\r\n".join(item["ics"]) + "\r\n"
        method = next((ln.split(":", 1)[1] for ln in item["ics"] if ln.startswith("METHOD:")),
                      None)
        params = {"method": method} if method else {}
        msg.add_attachment(ics.encode("utf-8"), maintype="text", subtype="calendar",
                           filename="invite.ics", params=params)
    return msg.as_bytes()


def read_item(item: dict[str, Any]) -> Reading:
    parsed = parse_message(build_mail(item))
    return read_message(subject=parsed.subject, body=parsed.body_text, date_header=parsed.date,
                        calendar_parts=parsed.calendar_parts, sender=parsed.from_addr,
                        user_zone=item.get("user_zone", "Europe/Berlin"),
                        locale=item.get("locale", "en-US"))


def _same(reading: Reading, expect: dict[str, Any]) -> bool:
    if reading.slot is None:
        return False
    if expect.get("window"):
        if reading.precision != "window" or reading.certainty == UNSURE:
            return False
    elif not reading.event_allowed:
        return False
    return (reading.slot.start == datetime.fromisoformat(expect["start"])
            and reading.slot.end == datetime.fromisoformat(expect["end"]))


@dataclass
class MeetingEval:
    name: str = SET_PATH.name
    total: int = 0
    slot_items: int = 0
    exact: int = 0
    unsure_items: int = 0
    unsure_kept: int = 0
    events_from_unsure: int = 0
    wrong_events: int = 0
    misses: list[dict[str, Any]] = field(default_factory=list)
    by_category: dict[str, dict[str, int]] = field(default_factory=dict)

    @property
    def exact_rate(self) -> float | None:
        return self.exact / self.slot_items if self.slot_items else None

    def as_dict(self) -> dict[str, Any]:
        return {"set": self.name, "total": self.total, "wrong_events": self.wrong_events,
                "slot_items": self.slot_items,
                "exact": self.exact, "exact_rate": self.exact_rate,
                "unsure_items": self.unsure_items, "unsure_kept": self.unsure_kept,
                "events_from_unsure": self.events_from_unsure, "goal_exact": EXACT_GOAL,
                "goal_met": (self.exact_rate or 0) >= EXACT_GOAL and not
                self.events_from_unsure and not self.wrong_events, "by_category": self.by_category,
                "misses": self.misses, "command": "mailmoat report"}


def load_set(path: Path = SET_PATH) -> list[dict[str, Any]]:
    items = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(items, list):
        raise ValueError(f"{path} must hold a JSON list of items")
    return items


def evaluate_meetings(items: list[dict[str, Any]] | None = None,
                      name: str = SET_PATH.name) -> MeetingEval:
    items = load_set() if items is None else items
    out = MeetingEval(name=name, total=len(items))
    for item in items:
        reading = read_item(item)
        expect = item["expect"]
        cat = out.by_category.setdefault(item.get("category", "other"), {"items": 0, "ok": 0})
        cat["items"] += 1
        if expect.get("unsure"):
            out.unsure_items += 1
            ok = not reading.event_allowed and not (reading.precision == "window"
                                                    and reading.certainty != UNSURE)
            out.unsure_kept += ok
            out.events_from_unsure += reading.event_allowed
        else:
            out.slot_items += 1
            ok = _same(reading, expect)
            out.exact += ok
            out.wrong_events += reading.event_allowed and not ok
        cat["ok"] += ok
        if not ok:
            out.misses.append({"id": item["id"], "expected": expect,
                               "read": reading.as_dict()["slot"], "certainty":
                               reading.certainty, "understood": reading.understood})
    return out


def to_markdown(data: dict[str, Any]) -> list[str]:
    rate = data["exact_rate"]
    lines = ["", f"## Meeting slots, deterministic path (no model): {data['set']}", "",
             f"{data['total']} mails: {data['exact']} of {data['slot_items']} slots exact "
             f"({'—' if rate is None else f'{rate:.1%}'}, goal {data['goal_exact']:.0%}); "
             f"{data['unsure_kept']} of {data['unsure_items']} unsure mails kept unsure; "
             f"events proposed from unsure: {data['events_from_unsure']} (goal 0); events on "
             f"a wrong slot: {data['wrong_events']}. "
             f"(`{data['command']}`)", "", "| category | items | right |", "|---|---|---|"]
    for name, row in sorted(data["by_category"].items()):
        lines.append(f"| {name} | {row['items']} | {row['ok']} |")
    for miss in data["misses"][:20]:
        lines.append(f"- miss `{miss['id']}`: {miss['certainty']}, {miss['understood'][:120]}")
    return lines
