"""Labelled mail streams we wrote for the learning curve, generated from templates.

One simulated person's mailbox over 60 days. Their preferences differ from what the static
local scorer does in ways a person would teach by correcting: a newsletter and a changelog
they read (the static path files them as noise), CI mail they do not want pushed, alerts
and a boss's notes they do, recruiter mail they would rather never see (learning may not
hide it: only a pin could). Deterministic for a given seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from mailmoat.core.lanes import Lane
from mailmoat.core.message import Message, message_from_fields


@dataclass(frozen=True, slots=True)
class StreamItem:
    id: str
    at: datetime
    message: Message
    expected: Lane


TOPICS = ["pricing", "the Q3 plan", "hiring", "the launch", "onboarding", "the roadmap",
          "churn", "the API", "security review", "the board deck"]
ITEMS = ["sneakers", "headphones", "coffee beans", "a standing desk", "luggage", "a blender"]
ROLES = ["staff engineer", "founding engineer", "engineering manager", "CTO", "tech lead"]
DEVICES = ["Chrome on Windows", "Safari on iPhone", "Firefox on Linux", "the Android app"]

# (sender, subject template, body template, unsubscribe header?, the person's lane, weight);
# "{k}" in a sender picks one of several sources (many CI systems, monitors, newsletters):
# there sender rules learn slowly and the learned scorer has to generalise from words.
SENDERS: list[tuple[str, str, str, bool, Lane, int]] = [
    ("Dana Boss <dana@acme-corp.example>", "Thought on {topic}",
     "Some notes on {topic} for when we talk.", False, Lane.PUSH, 4),
    ("Deep Dive {k} <weekly@deepdive{k}.example>", "This week: {topic}",
     "This week's essay covers {topic}. Read online. Unsubscribe.", True, Lane.QUEUE, 5),
    ("Tool Changelog <changelog@tool.example>", "What's new in Tool {n}.{m}",
     "Introducing new features around {topic}. Manage preferences.", True, Lane.QUEUE, 3),
    ("CI <ci@builds{k}.example>", "Build {n} failed on main",
     "The build is failing: test_{topic} broken. View logs.", False, Lane.QUEUE, 6),
    ("Monitor <alerts@monitor{k}.example>", "[FIRING] disk {n}% on db-{m}",
     "Alert firing for db-{m}: disk usage {n}%.", False, Lane.PUSH, 3),
    ("MegaStore <deals@megastore.example>", "{n}% off {item} — today only",
     "Shop now and save on {item}. Unsubscribe.", True, Lane.SILENT, 6),
    ("SaaS Vendor <marketing@saasvendor.example>", "Webinar: scaling {topic}",
     "Join our free webinar on {topic}. Register now. Unsubscribe.", True, Lane.SILENT, 3),
    ("PayCo <receipts@payco.example>", "Your receipt for ${n}.00",
     "Payment received. Receipt number {m}{n}.", False, Lane.INFO, 4),
    ("Accounts <no-reply@accounts.example>", "New sign-in from {device}",
     "We noticed a new sign-in from {device}. If this was you, no action is needed.",
     False, Lane.INFO, 2),
    ("Mom <mom.family@gmail.com>", "Sunday?",
     "Are you coming on Sunday? Let me know today please.", False, Lane.PUSH, 2),
    ("Big Client <help@bigclient.example>", "URGENT: {topic} is down",
     "Our {topic} integration is failing in production, please respond ASAP.",
     False, Lane.PUSH, 2),
    ("Sam Peer <sam@acme-corp.example>", "Meeting about {topic} on Thursday at 3pm?",
     "Are you free Thursday at 3pm to go over {topic}?", False, Lane.MEETING, 3),
    ("Lee Peer <lee@acme-corp.example>", "Question about {topic}",
     "Could you take a look at {topic} when you have time?", False, Lane.QUEUE, 3),
]
SOURCES = 6  # values of {k}
RECRUITERS = [f"{name}.talent{n}@gmail.com" for n in range(8) for name in ("alex", "jo")]


def _fill(template: str, rng: random.Random) -> str:
    return template.format(
        topic=rng.choice(TOPICS), item=rng.choice(ITEMS), device=rng.choice(DEVICES),
        n=rng.randint(10, 90), m=rng.randint(1, 9), role=rng.choice(ROLES),
    )


def preference_stream(size: int = 300, seed: int = 0) -> list[StreamItem]:
    rng = random.Random(seed)
    start = datetime(2026, 9, 1, tzinfo=UTC)
    weights = [w for *_, w in SENDERS] + [4]
    out: list[StreamItem] = []
    for n in range(size):
        at = start + timedelta(minutes=int(60 * 24 * 60 * n / size) + rng.randint(0, 30))
        pick = rng.choices(range(len(SENDERS) + 1), weights=weights)[0]
        if pick == len(SENDERS):
            sender = rng.choice(RECRUITERS)
            subject = _fill("Opportunity: {role} role", rng)
            body = _fill("Came across your profile, would you be open to a {role} role?", rng)
            unsub, lane = False, Lane.SILENT
        else:
            sender_t, subject_t, body_t, unsub, lane, _ = SENDERS[pick]
            sender = sender_t.replace("{k}", str(rng.randrange(SOURCES)))
            subject, body = _fill(subject_t, rng), _fill(body_t, rng)
        message = message_from_fields(
            sender=sender, subject=subject, body=body,
            list_unsubscribe="<https://example.invalid/u>" if unsub else "",
        )
        out.append(StreamItem(f"pref-{n:03d}", at, message, lane))
    return out
