"""Add, read and remove linked calendars; seal and open their secrets like mail accounts.

A CalDAV calendar logs in with a password (or app password), a bearer token (`bearer`:
sent as `Authorization: Bearer`, used as given), or OAuth (`oauth`: a refresh token
exchanged at the token endpoint for short-lived access tokens, accounts/oauth.py, then sent
as a bearer token). The credential is sealed (AES-256-GCM) with its kind bound as
associated data (`calendar:<name>:secret|bearer|oauth`): a credential cannot be moved to
another calendar or read as another kind. The column holds `<kind>|<sealed>` for bearer and
OAuth, the sealed password alone (as before) for a password.
"""

from __future__ import annotations

import ipaddress
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from mailmoat.accounts.secrets import KeyRing
from mailmoat.store.messages import Store
from mailmoat.store.tables.calendar import CalendarRow

KINDS = ("caldav", "ics", "freebusy")
DAV_KINDS = ("caldav", "freebusy")  # log in to a CalDAV server; freebusy: busy times only
AUTHS = ("password", "bearer", "oauth")


class CalendarError(ValueError):
    """Bad calendar settings or an unknown calendar; the message says what to change and
    never carries a secret."""


@dataclass(frozen=True)
class CalendarSettings:
    name: str
    url: str
    kind: str = "caldav"  # caldav | ics (read-only feed) | freebusy (busy times only)
    username: str = ""
    account: str | None = None  # the mail account this calendar answers for
    zone: str = "UTC"  # the user's IANA time zone
    id: int | None = None

    @property
    def writable(self) -> bool:
        return self.kind == "caldav"


def _loopback(host: str) -> bool:
    if host.lower() in {"localhost", "localhost.localdomain"}:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def normalize_url(url: str, kind: str) -> str:
    url = url.strip()
    if kind == "ics" and url.lower().startswith("webcal://"):
        url = "https://" + url[len("webcal://"):]
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise CalendarError("the calendar URL must be https://... (or webcal:// for a feed)")
    if parts.scheme == "http" and not _loopback(parts.hostname):
        raise CalendarError("plain http is allowed only to a loopback host; use https")
    if parts.username or parts.password:
        raise CalendarError("put the user name in --user and the password in the prompt, "
                            "not in the URL")
    return url


def validate(settings: CalendarSettings) -> CalendarSettings:
    if not settings.name or len(settings.name) > 200 or any(c in settings.name for c in "\r\n"):
        raise CalendarError("calendar name must be one line of 1-200 characters")
    if settings.kind not in KINDS:
        raise CalendarError(f"kind must be one of {', '.join(KINDS)}")
    try:
        ZoneInfo(settings.zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise CalendarError(f"unknown time zone {settings.zone!r} (use an IANA id such as "
                            "Europe/Berlin)") from None
    url = normalize_url(settings.url, settings.kind)
    return CalendarSettings(settings.name, url, settings.kind, settings.username,
                            settings.account, settings.zone, settings.id)


@dataclass(frozen=True)
class Credential:
    """How a calendar logs in. `secret`: the password, the bearer token, or (oauth) the
    refresh token. Never shown: the repr names the kind only."""

    auth: str = "password"
    secret: str = ""
    token_endpoint: str = ""  # oauth
    client_id: str = ""  # oauth
    scope: str = ""  # oauth
    client_secret: str = ""  # oauth, optional

    def __repr__(self) -> str:
        return f"Credential(auth={self.auth!r})"

    def check(self, kind: str) -> Credential:
        if self.auth not in AUTHS:
            raise CalendarError(f"auth must be one of {', '.join(AUTHS)}")
        if self.auth != "password" and kind not in DAV_KINDS:
            raise CalendarError("bearer tokens and OAuth are for CalDAV calendars")
        if not self.secret:
            raise CalendarError({"password": "a CalDAV calendar needs a password (or app "
                                 "password)", "bearer": "--bearer needs the token",
                                 "oauth": "OAuth needs the refresh token"}[self.auth])
        if any(c in self.secret for c in "\r\n"):
            raise CalendarError("the secret must be one line")
        if self.auth == "oauth":
            if not (self.token_endpoint and self.client_id):
                raise CalendarError("OAuth needs --token-endpoint and --client-id")
            normalize_url(self.token_endpoint, "caldav")
        return self


def _context(name: str, auth: str = "password") -> str:
    return f"calendar:{name}:{'secret' if auth == 'password' else auth}"


def _seal(ring: KeyRing, name: str, cred: Credential) -> str:
    if cred.auth == "password":
        return ring.seal(cred.secret, _context(name))
    plain = cred.secret if cred.auth == "bearer" else json.dumps(
        {"refresh_token": cred.secret, "token_endpoint": cred.token_endpoint,
         "client_id": cred.client_id, "scope": cred.scope,
         "client_secret": cred.client_secret}, sort_keys=True)
    return f"{cred.auth}|{ring.seal(plain, _context(name, cred.auth))}"


def _unseal(ring: KeyRing, name: str, stored: str) -> Credential:
    auth, _, sealed = stored.partition("|") if "|" in stored else ("password", "", stored)
    if auth not in AUTHS:
        raise CalendarError(f"the stored credential of calendar {name!r} has an unknown kind")
    plain = ring.open(sealed, _context(name, auth))
    if auth != "oauth":
        return Credential(auth, plain)
    data = json.loads(plain)
    return Credential("oauth", data["refresh_token"], data["token_endpoint"], data["client_id"],
                      data.get("scope", ""), data.get("client_secret", ""))


def _settings(row: CalendarRow) -> CalendarSettings:
    return CalendarSettings(name=row.name, url=row.url, kind=row.kind, username=row.username,
                            account=row.account, zone=row.zone, id=row.id)


def add_calendar(store: Store, ring: KeyRing, settings: CalendarSettings,
                 secret: str | Credential | None) -> CalendarSettings:
    """Store a calendar; `secret` (a password or app password, or a Credential for a bearer
    token or OAuth) is sealed with AES-256-GCM."""
    settings = validate(settings)
    cred = Credential("password", secret) if isinstance(secret, str) else secret
    if settings.kind in DAV_KINDS or (cred is not None and cred.secret):
        cred = (cred or Credential()).check(settings.kind)
    else:
        cred = None
    if (settings.kind in DAV_KINDS and cred is not None and cred.auth == "password"
            and not settings.username):
        raise CalendarError("a CalDAV calendar needs --user (or --bearer)")
    if settings.account is not None:
        from mailmoat.store.tables.accounts import AccountRow

        with store.sessions() as session:
            if session.scalar(select(AccountRow.id).where(
                    AccountRow.name == settings.account)) is None:
                raise CalendarError(f"no mail account named {settings.account!r} to link")
    row = CalendarRow(name=settings.name, kind=settings.kind, url=settings.url,
                      username=settings.username,
                      secret=_seal(ring, settings.name, cred) if cred else None,
                      account=settings.account, zone=settings.zone,
                      created_at=datetime.now(UTC))
    try:
        with store.sessions.begin() as session:
            session.add(row)
    except IntegrityError:
        raise CalendarError(f"a calendar named {settings.name!r} exists already") from None
    return _settings(row)


def list_calendars(store: Store) -> list[CalendarSettings]:
    with store.sessions() as session:
        return [_settings(r) for r in session.scalars(select(CalendarRow).order_by(
            CalendarRow.name))]


def get_calendar(store: Store, name: str) -> CalendarSettings:
    with store.sessions() as session:
        row = session.scalar(select(CalendarRow).where(CalendarRow.name == name))
        if row is None:
            raise CalendarError(f"no calendar named {name!r}")
        return _settings(row)


def calendars_for_account(store: Store, account: str) -> list[CalendarSettings]:
    """The calendars linked to a mail account; when none is linked, every calendar."""
    every = list_calendars(store)
    linked = [c for c in every if c.account == account]
    return linked or every


def remove_calendar(store: Store, name: str) -> None:
    """Forget the calendar, its secret and its synced events (nothing changes on the server)."""
    with store.sessions.begin() as session:
        row = session.scalar(select(CalendarRow).where(CalendarRow.name == name))
        if row is None:
            raise CalendarError(f"no calendar named {name!r}")
        session.delete(row)


def open_credential(store: Store, ring: KeyRing, name: str) -> Credential | None:
    with store.sessions() as session:
        row = session.scalar(select(CalendarRow).where(CalendarRow.name == name))
        if row is None:
            raise CalendarError(f"no calendar named {name!r}")
        sealed = row.secret
    return None if sealed is None else _unseal(ring, name, sealed)


def open_secret(store: Store, ring: KeyRing, name: str) -> str | None:
    """The password, bearer token or refresh token, opened."""
    cred = open_credential(store, ring, name)
    return None if cred is None else cred.secret
