"""A CalDAV collection: incremental reads (RFC 6578 sync-token, full listing as fallback),
and writes by UID that are idempotent: a write goes to the object that already holds that UID
(found by a calendar-query), else to <collection>/<uid>.ics, so a retried write replaces,
never duplicates.

Uses the `caldav` library over `requests` (never niquests/urllib3-future; see
docs/calendar.md)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from mailmoat.calendar.events import stored_event
from mailmoat.store.calendar_store import StoredEvent

TIMEOUT = 20
# Asked about in a free/busy request: a plain address, nothing that could add a line to it.
_PLAIN_ADDRESS = re.compile(r"[\w.+'-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}", re.ASCII)


class CalDAVError(RuntimeError):
    """Reaching or using the CalDAV server failed; `stage` says where (connect, auth,
    calendar, read, write). Never carries the password."""

    def __init__(self, stage: str, message: str, transient: bool = False) -> None:
        super().__init__(f"{stage}: {message}")
        self.stage = stage
        self.transient = transient  # worth retrying later (network, 5xx); else a person looks


@dataclass
class SyncBatch:
    events: list[StoredEvent] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    token: str | None = None
    full: bool = True  # True: `events` is the whole calendar (replace what is stored)


def _href(url: Any) -> str:
    return unquote(urlsplit(str(url)).path)


def resource_href(collection_url: str, uid: str) -> str:
    """Where the event with this UID lives: one resource per UID. A UID with characters a
    path should not carry is hashed (still one resource per UID)."""
    base = collection_url if collection_url.endswith("/") else collection_url + "/"
    safe = uid if uid and all(c.isalnum() or c in "-_.@" for c in uid) and len(uid) < 200 \
        else hashlib.sha256(uid.encode()).hexdigest()
    return base + quote(safe, safe="@") + ".ics"


def _bearer_auth(token: Callable[[], str]) -> Any:
    """requests auth that sends `Authorization: Bearer <token()>`, asked per request (an
    OAuth access token is renewed before it expires)."""
    import requests

    class BearerAuth(requests.auth.AuthBase):
        def __call__(self, request: Any) -> Any:
            request.headers["Authorization"] = f"Bearer {token()}"
            return request

    return BearerAuth()


class CalDAVSource:
    def __init__(self, url: str, username: str, password: str, zone: str = "UTC",
                 token: Callable[[], str] | None = None) -> None:
        """`token`: log in with a bearer token (asked for per request) instead of the
        user name and password."""
        self.url, self.username, self.zone = url, username, zone
        self._password = password
        self._token = token
        self._client: Any = None
        self._calendar: Any = None

    def _redact(self, text: str) -> str:
        return text.replace(self._password, "***") if self._password else text

    def __repr__(self) -> str:  # never the password
        return f"CalDAVSource({self.url!r}, user={self.username!r})"

    def connect(self) -> Any:
        if self._calendar is not None:
            return self._calendar
        import caldav
        from caldav.lib import error as dav_error

        host = urlsplit(self.url).hostname or ""
        try:
            login: dict[str, Any] = ({"auth": _bearer_auth(self._token)} if self._token
                                     else {"username": self.username,
                                           "password": self._password})
            self._client = caldav.DAVClient(  # type: ignore[operator]  # lazy export: `object`
                self.url, timeout=TIMEOUT,
                require_tls=host not in ("127.0.0.1", "::1", "localhost"),
                enable_rfc6764=False, **login)
            calendar = self._client.calendar(url=self.url)
            calendar.get_display_name()  # a PROPFIND: proves reachability and the login
        except dav_error.AuthorizationError as exc:
            who = "the bearer token" if self._token else f"user {self.username!r}"
            raise CalDAVError("auth", f"the server refused {who} "
                              f"({getattr(exc, 'reason', '') or 'unauthorised'})") from None
        except dav_error.NotFoundError:
            raise CalDAVError("calendar", f"no calendar collection at {self.url}") from None
        except Exception as exc:
            if type(exc).__name__ == "TokenError":  # the OAuth token endpoint refused
                raise CalDAVError("auth", str(exc)[:200]) from None
            raise CalDAVError("connect", f"{type(exc).__name__}: {self._redact(str(exc))[:200]}",
                              transient=True) from None
        self._calendar = calendar
        return calendar

    def fetch(self, sync_token: str | None) -> SyncBatch:
        """Changes since `sync_token` (everything when None or when the server forgot it)."""
        calendar = self.connect()
        try:
            collection = calendar.get_objects_by_sync_token(sync_token=sync_token,
                                                           load_objects=True)
        except Exception as exc:
            raise CalDAVError("read", f"{type(exc).__name__}: {str(exc)[:200]}") from None
        deleted = {_href(u) for u in collection.deleted_urls}
        events = []
        for obj in collection:
            href = _href(obj.url)
            if href in deleted or not obj.data:
                continue
            etag = str((getattr(obj, "props", {}) or {}).get("{DAV:}getetag", ""))
            events.append(stored_event(href, etag, str(obj.data), self.zone))
        token = str(collection.sync_token) if collection.sync_token else None
        return SyncBatch(events=events, deleted=sorted(deleted), token=token,
                         full=sync_token is None)

    def _url_for(self, uid: str) -> str:
        """Where the event with this UID lives: the object another client stored under any
        name, else <collection>/<UID>.ics (so a second write replaces, never duplicates)."""
        calendar = self.connect()
        try:
            found = calendar.get_object_by_uid(uid)
        except Exception as exc:  # NotFoundError, or a server without calendar-query
            if type(exc).__name__ not in ("NotFoundError", "ReportError", "DAVError"):
                raise CalDAVError("read", f"{type(exc).__name__}: {str(exc)[:200]}",
                                  transient=True) from None
            return resource_href(str(calendar.url), uid)
        return str(found.url)

    def put(self, uid: str, ics: str) -> str:
        """Create or replace the event with this UID; returns its href."""
        self.connect()
        url = self._url_for(uid)
        try:
            response = self._client.put(url, ics, {"Content-Type": "text/calendar; charset=utf-8"})
        except Exception as exc:
            raise CalDAVError("write", f"{type(exc).__name__}: {str(exc)[:200]}",
                              transient=True) from None
        if response.status not in (200, 201, 204):
            raise CalDAVError("write", f"the server answered {response.status} to the PUT",
                              transient=response.status >= 500)
        return _href(url)

    def delete(self, uid: str) -> bool:
        """Remove the event with this UID; False when it was not there (already done)."""
        self.connect()
        url = self._url_for(uid)
        try:
            response = self._client.delete(url)
        except Exception as exc:
            if "404" in str(exc) or type(exc).__name__ == "NotFoundError":
                return False
            raise CalDAVError("write", f"{type(exc).__name__}: {str(exc)[:200]}",
                              transient=True) from None
        if response.status == 404:
            return False
        if response.status not in (200, 204):
            raise CalDAVError("write", f"the server answered {response.status} to the DELETE",
                              transient=response.status >= 500)
        return True

    def ask_freebusy(self, address: str, start: Any, end: Any) -> tuple[str | None, str]:
        """Someone else's free/busy through CalDAV scheduling (RFC 6638 3.2.1): a VFREEBUSY
        REQUEST POSTed to this user's schedule outbox. Returns (the VFREEBUSY text for
        `address`, ""), or (None, why it is not known): the server does not advertise
        calendar-auto-schedule, it refused, or it has no answer for that address. Read only:
        nothing is stored or sent to the other person."""
        if not _PLAIN_ADDRESS.fullmatch(address):
            return None, "not a plain address to ask about"
        self.connect()
        client = self._client
        try:
            if not client.check_scheduling_support():
                return None, "the calendar server does not offer scheduling (RFC 6638)"
            answers = client.principal().freebusy_request(start, end, [f"mailto:{address}"])
        except Exception as exc:  # refused, no outbox, a schedule-response it cannot read
            return None, (f"the calendar server did not answer the free/busy request "
                          f"({type(exc).__name__}: {self._redact(str(exc))[:120]})")
        wanted = f"mailto:{address}".lower()
        for recipient, answer in (answers or {}).items():
            if recipient != "errors" and str(recipient).lower() == wanted:
                data = getattr(answer, "data", None)
                if isinstance(data, bytes):
                    data = data.decode("utf-8", "replace")
                return (data, "") if isinstance(data, str) else (None, "an empty answer")
        errors = {str(k).lower(): str(v) for k, v in (answers or {}).get("errors", {}).items()}
        status = errors.get(wanted, "no answer for this address")
        return None, f"the calendar server has no free/busy for {address} ({status[:80]})"

    def get(self, uid: str) -> str | None:
        """The stored ICS of the event with this UID, or None."""
        self.connect()
        url = self._url_for(uid)
        try:
            response = self._client.request(url, "GET")
        except Exception:
            return None
        if response.status != 200:
            return None
        raw = response.raw
        return raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)
