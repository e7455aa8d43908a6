"""A readable diff between versions of a pending action's payload, for the approvals page.

act/ keeps the replaced version in each "edited" audit entry; this turns that trail into one
unified diff per edit over what a person reads in a draft: recipients, subject, body.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mailmoat.entrypoints.web.timefmt import when

# The fields a person judges a draft by, in reading order; the rest (ids, hashes of
# attachments) is in the exact payload shown above the diff.
_HEADERS = (("to", "To"), ("cc", "Cc"), ("bcc", "Bcc"), ("subject", "Subject"),
            ("note", "Note"), ("folder", "Folder"), ("message_id", "Message"))


@dataclass(frozen=True, slots=True)
class Edit:
    revision: int  # the revision this edit produced
    actor: str
    at: str
    voided_approval: bool
    before: dict[str, Any]


def readable_lines(payload: dict[str, Any]) -> list[str]:
    """The draft as a person reads it: header lines, a blank line, the body."""
    lines = []
    for key, label in _HEADERS:
        value = payload.get(key)
        if value:
            shown = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
            lines.append(f"{label}: {shown}")
    for item in payload.get("attachments") or []:
        if isinstance(item, dict):
            lines.append(f"Attachment: {item.get('filename', '')} ({item.get('sha256', '')[:12]})")
    body = payload.get("body")
    if isinstance(body, str):
        lines.append("")
        lines.extend(body.splitlines())
    return lines


def edits_from_audit(trail: Sequence[dict[str, Any]]) -> list[Edit]:
    """The edits act/ recorded with the version they replaced (older entries lack it)."""
    out = []
    for entry in trail:
        detail = entry.get("detail") or {}
        before = detail.get("previous_payload")
        if entry.get("event") == "edited" and isinstance(before, dict):
            out.append(Edit(int(detail.get("revision", 0)), str(entry.get("actor", "")),
                            str(entry.get("created_at", "")),
                            bool(detail.get("voided_approval")), before))
    return out


def draft_diff(edits: Sequence[Edit], current: dict[str, Any]) -> str:
    """One unified diff per edit, oldest first; empty when the draft was never edited."""
    chunks: list[str] = []
    afters = [e.before for e in edits[1:]] + [current]
    for edit, after in zip(edits, afters, strict=False):
        voided = "; this voided an earlier approval" if edit.voided_approval else ""
        diff = difflib.unified_diff(
            readable_lines(edit.before), readable_lines(after),
            fromfile=f"revision {edit.revision - 1}",
            tofile=f"revision {edit.revision} (edited by {edit.actor} at {when(edit.at)}{voided})",
            lineterm="", n=3,
        )
        text = "\n".join(diff)
        chunks.append(text or f"revision {edit.revision}: no visible change "
                              "(only fields outside the draft changed)")
    return "\n\n".join(chunks)
