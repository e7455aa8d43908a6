"""One sync pass for one linked calendar: ask the source for what changed since the stored
token, write it to the store in one transaction, move the token on."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from mailmoat.accounts.secrets import KeyRing
from mailmoat.calendar.caldav_source import CalDAVSource, SyncBatch
from mailmoat.calendar.freebusy import FreeBusySource
from mailmoat.calendar.ics_feed import FeedSource
from mailmoat.calendar.registry import (
    CalendarSettings,
    Credential,
    get_calendar,
    open_credential,
)
from mailmoat.store.calendar_store import calendar_row, save_events
from mailmoat.store.messages import Store


class Source(Protocol):
    def fetch(self, token: str | None) -> SyncBatch: ...


@dataclass(frozen=True)
class SyncReport:
    calendar: str
    written: int
    deleted: int
    full: bool
    token: str | None


def source_for(cal: CalendarSettings, cred: Credential | None) -> Any:
    """The reader (and, for CalDAV, writer) of a calendar, logged in with `cred`."""
    if cal.kind == "ics":
        return FeedSource(cal.url, cal.zone, cal.username, cred.secret if cred else None)
    dav = _dav(cal, cred)
    return FreeBusySource(dav) if cal.kind == "freebusy" else dav


def _dav(cal: CalendarSettings, cred: Credential | None) -> CalDAVSource:
    if cred is not None and cred.auth == "bearer":
        token = cred.secret
        return CalDAVSource(cal.url, cal.username, "", cal.zone, token=lambda: token)
    if cred is not None and cred.auth == "oauth":
        from mailmoat.accounts.oauth import TOKENS, TokenRequest

        request = TokenRequest(cred.token_endpoint, cred.client_id, cred.secret,
                               cred.client_secret or None, cred.scope or None)
        return CalDAVSource(cal.url, cal.username, "", cal.zone,
                            token=lambda: TOKENS.get(f"calendar:{cal.name}", request))
    return CalDAVSource(cal.url, cal.username, cred.secret if cred else "", cal.zone)


def open_source(store: Store, ring: KeyRing, cal: CalendarSettings) -> Any:
    return source_for(cal, open_credential(store, ring, cal.name))


def sync_calendar(store: Store, ring: KeyRing, name: str, source: Source | None = None
                  ) -> SyncReport:
    cal = get_calendar(store, name)
    row = calendar_row(store, name)
    assert row is not None and cal.id is not None
    source = source or open_source(store, ring, cal)
    token = row.sync_token if cal.kind == "caldav" else row.ctag
    batch = source.fetch(token)
    if cal.kind == "ics" and not batch.full:  # 304: nothing changed; the check is recorded
        save_events(store, cal.id, [], sync_token=None, ctag=token)
        return SyncReport(name, 0, 0, False, token)
    written, deleted = save_events(
        store, cal.id, batch.events, batch.deleted, replace_all=batch.full,
        sync_token=batch.token if cal.kind == "caldav" else None,
        ctag=batch.token if cal.kind == "ics" else row.ctag)
    return SyncReport(name, written, deleted, batch.full, batch.token)
