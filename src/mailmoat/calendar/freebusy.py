"""A free/busy-only calendar: only the busy times of a CalDAV collection are read and stored,
never titles or details (a colleague's or a work calendar shared as free/busy, or one you do
not want copied). The CalDAV free-busy REPORT (RFC 4791 7.10) is asked first; a server that
has none (it answers something other than a VFREEBUSY) is read as events, reduced here to
busy periods (recurrences expanded, free and cancelled events left out) before anything is
stored. The slot check then counts those periods as the user's busy time.

Only the next HORIZON_DAYS are read (from a day ago): a slot beyond them is checked against
nothing from this calendar.
"""

from __future__ import annotations

import time as clock
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from mailmoat.calendar.caldav_source import CalDAVSource, SyncBatch
from mailmoat.calendar.events import busy_view
from mailmoat.core.ical import read_freebusy
from mailmoat.core.slots import Slot
from mailmoat.store.calendar_store import StoredEvent

HORIZON_DAYS = 60
BUSY_SUMMARY = "busy"  # what a free/busy block shows: no title is ever read
REPORT = "free-busy report"
FALLBACK = "events reduced to busy times (the server has no free-busy report)"


def _window(now: float) -> Slot:
    start = datetime.fromtimestamp(now, UTC).replace(minute=0, second=0, microsecond=0)
    return Slot(start - timedelta(days=1), start + timedelta(days=HORIZON_DAYS))


def _blocks(busy: list[Slot]) -> list[StoredEvent]:
    seen: dict[str, StoredEvent] = {}
    for s in busy:
        href = f"busy:{s.start.astimezone(UTC).isoformat()}/{s.end.astimezone(UTC).isoformat()}"
        seen.setdefault(href, StoredEvent(href=href, summary=BUSY_SUMMARY, start_at=s.start,
                                          end_at=s.end, all_day=s.all_day))
    return list(seen.values())


class FreeBusySource:
    """Reads busy periods through a CalDAVSource (its login, bearer token or OAuth)."""

    def __init__(self, dav: CalDAVSource, now: Callable[[], float] = clock.time) -> None:
        self.dav = dav
        self.now = now
        self.how = ""  # after fetch: REPORT or FALLBACK

    def __repr__(self) -> str:
        return f"FreeBusySource({self.dav.url!r})"

    def connect(self) -> Any:
        return self.dav.connect()

    def _report(self, window: Slot) -> str | None:
        calendar = self.connect()
        try:
            answer = calendar.freebusy_request(window.start, window.end)
        except Exception:  # refused (403, 404, 501...): the server has no such report
            return None
        data = getattr(answer, "data", None)
        if isinstance(data, bytes):
            data = data.decode("utf-8", "replace")
        return data if isinstance(data, str) else None

    def fetch(self, token: str | None) -> SyncBatch:
        """Every busy period in the window (the whole of it replaces what was stored)."""
        window = _window(self.now())
        text = self._report(window)
        busy, problem = read_freebusy(text) if text is not None else ([], "no report")
        if not problem:
            self.how = REPORT
            return SyncBatch(events=_blocks(busy), full=True)
        events = self.dav.fetch(None).events
        view = busy_view(events, window)
        self.how = FALLBACK
        return SyncBatch(events=_blocks([b.slot for b in view.between(window.start,
                                                                       window.end)]),
                         full=True)
