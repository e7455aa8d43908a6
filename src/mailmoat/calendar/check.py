"""`calendar test`: reach the calendar one step at a time and say which step fails."""

from __future__ import annotations

import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from mailmoat.calendar.caldav_source import CalDAVError
from mailmoat.calendar.freebusy import HORIZON_DAYS
from mailmoat.calendar.ics_feed import FeedError
from mailmoat.calendar.registry import CalendarSettings, Credential
from mailmoat.calendar.sync import source_for


@dataclass(frozen=True)
class Step:
    name: str  # dns | tcp | auth | calendar | read
    ok: bool
    detail: str


def check(cal: CalendarSettings, cred: Credential | str | None) -> list[Step]:
    """Every step up to the first failure. Never includes the secret. A str is a password."""
    if isinstance(cred, str):
        cred = Credential("password", cred)
    parts = urlsplit(cal.url)
    host = parts.hostname or ""
    port = parts.port or (443 if parts.scheme == "https" else 80)
    steps: list[Step] = []
    try:
        addresses = {str(a[4][0]) for a in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)}
    except OSError as exc:
        return [Step("dns", False, f"{host}: {exc.strerror or exc}")]
    steps.append(Step("dns", True, f"{host} -> {', '.join(sorted(addresses))}"))
    try:
        with socket.create_connection((host, port), timeout=10):
            pass
    except OSError as exc:
        return [*steps, Step("tcp", False, f"{host}:{port}: {exc.strerror or exc}")]
    steps.append(Step("tcp", True, f"{host}:{port} accepts connections"))
    if cal.kind == "ics":
        feed = source_for(cal, cred)
        try:
            batch = feed.fetch(None)
        except FeedError as exc:
            return [*steps, Step(exc.stage, False, str(exc))]
        note = f"; {feed.note}" if feed.note else ""
        return [*steps, Step("read", True, f"{len(batch.events)} events in the feed "
                             f"(read-only){note}")]
    source = source_for(cal, cred)
    try:
        source.connect()
    except CalDAVError as exc:
        return [*steps, Step(exc.stage, False, str(exc))]
    how = (f"logged in as {cal.username}" if cred is None or cred.auth == "password"
           else f"accepted the {'OAuth access' if cred.auth == 'oauth' else 'bearer'} token")
    steps.append(Step("auth", True, how))
    steps.append(Step("calendar", True, f"calendar collection at {cal.url}"))
    try:
        batch = source.fetch(None)
    except CalDAVError as exc:
        return [*steps, Step(exc.stage, False, str(exc))]
    if cal.kind == "freebusy":
        return [*steps, Step("read", True, f"{len(batch.events)} busy periods in the next "
                             f"{HORIZON_DAYS} days, by {source.how}")]
    how = "sync-token" if batch.token else "full listing (no sync-token)"
    return [*steps, Step("read", True, f"{len(batch.events)} events; incremental sync by {how}")]
