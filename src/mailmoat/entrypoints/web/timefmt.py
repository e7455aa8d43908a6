"""Timestamps as a person reads them on the pages."""

from __future__ import annotations


def when(iso: str | None) -> str:
    """A stored ISO timestamp to the minute, with "UTC" when it is UTC."""
    if not iso:
        return ""
    text = iso[:16].replace("T", " ")
    return f"{text} UTC" if iso.endswith(("+00:00", "Z")) else text
