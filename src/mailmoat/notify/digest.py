"""The daily digest: pure. What arrived in a span and what waits for approval, as one short
plain-text note with links; whether it is due now. No clock, no I/O: the service
(services/digest.py) reads the store, asks these functions, and delivers.

What it may say about mail is fixed here, whatever the caller hands in:
- SILENT mail appears only as a count (and a link to review the lane): never a sender or
  a subject. Clear noise stays unseen, as the lane promises.
- No message body: a listed mail is its sender and its subject, cut to `SUBJECT_CHARS`
  with control and format characters (line breaks, bidi overrides) removed, so a hostile
  subject cannot forge lines or links in the note.
- Nothing to say (no approval waiting, no new mail): no digest at all (quiet by default;
  it is also off until the person sets an hour).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from mailmoat.core.text import snippet, strip_invisible
from mailmoat.notify.rules import Window

SUBJECT_CHARS = 80
SENDER_CHARS = 60
LIST_LIMIT = 10
LANE_ORDER = ("PUSH", "MEETING", "QUEUE", "INFO", "SILENT")
LISTED_LANES = ("INFO",)  # "filed": calm records a person may want to glance at


@dataclass(frozen=True, slots=True)
class Filed:
    message_id: int
    lane: str
    sender: str
    subject: str


@dataclass(frozen=True, slots=True)
class Waiting:
    action_id: int
    action: str
    to: str
    subject: str


@dataclass(frozen=True, slots=True)
class DigestInput:
    account: str
    hours: int  # the span the counts cover, for the wording
    lane_counts: Mapping[str, int]  # new mail per lane in the span
    filed: Sequence[Filed]  # newest first; SILENT entries are dropped, whatever is passed
    waiting: Sequence[Waiting]  # actions waiting for the person's approval


@dataclass(frozen=True, slots=True)
class Digest:
    title: str
    body: str
    url: str  # where the note's own link points (the approvals page, else the home page)


def one_line(text: str | None, limit: int) -> str:
    """Display-safe single line: no control or format characters, whitespace collapsed,
    at most `limit` characters (an ellipsis marks a cut)."""
    clean = "".join(ch if unicodedata.category(ch)[0] != "C" else " "
                    for ch in strip_invisible(text or ""))
    short = snippet(clean, limit + 1)
    return short if len(short) <= limit else short[: limit - 1].rstrip() + "…"


def build_digest(data: DigestInput, base_url: str) -> Digest | None:
    """The note, or None when there is nothing to say."""
    base = base_url.rstrip("/")
    counts = {lane: n for lane, n in data.lane_counts.items() if n > 0}
    if not counts and not data.waiting:
        return None
    lines: list[str] = []
    if data.waiting:
        lines.append(f"Waiting for your approval ({len(data.waiting)}):")
        for w in data.waiting[:LIST_LIMIT]:
            to = f" to {one_line(w.to, SENDER_CHARS)}" if w.to else ""
            subject = f": {one_line(w.subject, SUBJECT_CHARS)}" if w.subject else ""
            lines.append(f"- {w.action}{to}{subject}  {base}/actions/{w.action_id}")
        _more(lines, len(data.waiting))
        lines.append("")
    if counts:
        shown = ", ".join(f"{lane} {counts[lane]}" for lane in LANE_ORDER if lane in counts)
        lines.append(f"New in the last {data.hours} h: {shown}  {base}/")
    filed = [f for f in data.filed if f.lane in LISTED_LANES]
    if filed:
        lines.append("")
        lines.append(f"Filed ({counts.get('INFO', len(filed))}):")
        for f in filed[:LIST_LIMIT]:
            lines.append(f"- {one_line(f.sender, SENDER_CHARS)}: "
                         f"{one_line(f.subject, SUBJECT_CHARS) or '(no subject)'}  "
                         f"{base}/message/{f.message_id}")
        _more(lines, counts.get("INFO", len(filed)))
    if counts.get("SILENT"):
        lines.append("")
        lines.append(f"Silenced: {counts['SILENT']} (never shown; review them at "
                     f"{base}/lane/SILENT)")
    parts = []
    if data.waiting:
        parts.append(f"{len(data.waiting)} to approve")
    if counts:
        parts.append(f"{sum(counts.values())} new")
    title = f"mailmoat daily ({one_line(data.account, SENDER_CHARS)}): {', '.join(parts)}"
    url = f"{base}/actions" if data.waiting else f"{base}/"
    return Digest(title, "\n".join(lines).strip(), url)


def _more(lines: list[str], total: int) -> None:
    if total > LIST_LIMIT:
        lines.append(f"- … and {total - LIST_LIMIT} more")


def daily_digest_due(local_now: datetime, hour: int | None,
                     quiet_hours: Sequence[Window] = ()) -> bool:
    """Due from the chosen local hour on, unless quiet hours hold it back (it then goes when
    they end). `hour` None: the person has not asked for a digest. Once a day is the
    caller's to keep (one claim per account and local date)."""
    if hour is None or local_now.hour < hour:
        return False
    return not any(w.contains(local_now) for w in quiet_hours)
