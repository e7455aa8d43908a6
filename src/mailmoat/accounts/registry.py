"""Add, read, remove accounts; seal and open their secrets; rotate the sealing key."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from urllib.parse import urlsplit

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from mailmoat.accounts.oauth import TOKENS, TokenCache, TokenRequest
from mailmoat.accounts.secrets import KeyRing
from mailmoat.core.lane_actions import LaneActions
from mailmoat.core.receipts import PayloadError, normalize_recipient
from mailmoat.store.messages import Store
from mailmoat.store.tables.accounts import AccountRow, SubmissionRow

TLS_MODES = ("implicit", "starttls", "plain")
AUTH_MODES = ("password", "xoauth2")


class AccountError(ValueError):
    """Bad account settings or an unknown account; the message says what to change."""


@dataclass(frozen=True)
class Submission:
    """SMTP submission for the account. It logs in as the account does (same user name, same
    password or XOAUTH2 token) unless `login` is False (a relay that trusts this host)."""

    host: str
    port: int = 587
    tls: str = "starttls"
    from_addr: str = ""  # default: the account's user name
    login: bool = True
    sent_folder: str = "Sent"
    # The server files every accepted submission in `sent_folder` itself (Gmail, Outlook):
    # mailmoat then never APPENDs, and "not in Sent" means "not sent".
    server_files_sent: bool = False


@dataclass(frozen=True)
class AccountSettings:
    name: str
    host: str
    port: int
    username: str
    tls: str = "implicit"
    auth: str = "password"
    token_endpoint: str | None = None
    client_id: str | None = None
    scope: str | None = None
    folders: tuple[str, ...] = ("INBOX",)
    lane_actions: LaneActions = field(default_factory=LaneActions)
    backfill_days: int = 30
    max_body_bytes: int = 2 * 1024 * 1024
    id: int | None = None
    submission: Submission | None = None  # None: the account reads mail but sends none


def _is_loopback_name(host: str) -> bool:
    if host.lower() in {"localhost", "localhost.localdomain"}:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def validate(settings: AccountSettings) -> None:
    if not settings.name or len(settings.name) > 200 or settings.name == "local":
        raise AccountError("account name must be 1-200 characters and not 'local'")
    if settings.tls not in TLS_MODES:
        raise AccountError(f"tls must be one of {', '.join(TLS_MODES)}")
    if settings.auth not in AUTH_MODES:
        raise AccountError(f"auth must be one of {', '.join(AUTH_MODES)}")
    if settings.tls == "plain" and not _is_loopback_name(settings.host):
        raise AccountError("plain (unencrypted) IMAP is allowed only to a loopback host")
    if not 0 < settings.port < 65536:
        raise AccountError(f"port out of range: {settings.port}")
    if settings.auth == "xoauth2" and not (settings.token_endpoint and settings.client_id):
        raise AccountError("xoauth2 needs --token-endpoint and --client-id")
    if settings.auth == "xoauth2":
        _validate_token_endpoint(settings.token_endpoint or "")
    if settings.backfill_days < 0 or settings.max_body_bytes < 1024:
        raise AccountError("backfill days must be >= 0 and the body cap >= 1024 bytes")
    if not settings.folders:
        raise AccountError("at least one folder to sync")
    if settings.submission is not None:
        _validate_submission(settings.submission, settings.username)


def _validate_token_endpoint(url: str) -> None:
    """The refresh token goes to this URL: over TLS, or plain only to this machine."""
    parts = urlsplit(url)
    if not parts.hostname or parts.username or parts.password:
        raise AccountError("the token endpoint must be a URL such as https://host/token")
    if parts.scheme != "https" and not (parts.scheme == "http"
                                        and _is_loopback_name(parts.hostname)):
        raise AccountError("the token endpoint must use https:// (plain http:// only to a "
                           "loopback host): the refresh token is sent to it")


def _validate_submission(sub: Submission, username: str) -> None:
    if sub.tls not in TLS_MODES:
        raise AccountError(f"smtp tls must be one of {', '.join(TLS_MODES)}")
    if sub.tls == "plain" and not _is_loopback_name(sub.host):
        raise AccountError("plain (unencrypted) SMTP is allowed only to a loopback host")
    if not sub.host or not 0 < sub.port < 65536:
        raise AccountError(f"smtp host and port are required (port 1-65535, got {sub.port})")
    try:
        normalize_recipient(sub.from_addr or username)
    except PayloadError as exc:
        raise AccountError(f"sender address: {exc} (set --from)") from None
    if not sub.sent_folder or any(c in sub.sent_folder for c in "\r\n"):
        raise AccountError("the Sent folder name must be one line")


def _context(name: str, fieldname: str) -> str:
    return f"account:{name}:{fieldname}"


def _submission(row: SubmissionRow | None) -> Submission | None:
    if row is None:
        return None
    return Submission(host=row.host, port=row.port, tls=row.tls, from_addr=row.from_addr,
                      login=row.login, sent_folder=row.sent_folder,
                      server_files_sent=row.server_files_sent)


def _submission_row(account_id: int, sub: Submission, username: str) -> SubmissionRow:
    return SubmissionRow(account_id=account_id, host=sub.host, port=sub.port, tls=sub.tls,
                         from_addr=sub.from_addr or username, login=sub.login,
                         sent_folder=sub.sent_folder, server_files_sent=sub.server_files_sent)


def _settings(row: AccountRow, submission: SubmissionRow | None = None) -> AccountSettings:
    lane_actions = (
        LaneActions.from_dict(row.lane_actions) if row.lane_actions else LaneActions()
    )
    return AccountSettings(
        id=row.id, name=row.name, host=row.host, port=row.port, username=row.username,
        tls=row.tls, auth=row.auth, token_endpoint=row.token_endpoint, client_id=row.client_id,
        scope=row.scope, folders=tuple(row.folders or ("INBOX",)), lane_actions=lane_actions,
        backfill_days=row.backfill_days, max_body_bytes=row.max_body_bytes,
        submission=_submission(submission),
    )


def add_account(
    store: Store, ring: KeyRing, settings: AccountSettings, secret: str,
    client_secret: str | None = None,
) -> AccountSettings:
    """Store an account; `secret` is the password or, for xoauth2, the refresh token."""
    validate(settings)
    if not secret:
        raise AccountError("a password (or refresh token) is required")
    row = AccountRow(
        name=settings.name, host=settings.host, port=settings.port, tls=settings.tls,
        username=settings.username, auth=settings.auth,
        secret=ring.seal(secret, _context(settings.name, "secret")),
        token_endpoint=settings.token_endpoint, client_id=settings.client_id,
        client_secret=(
            ring.seal(client_secret, _context(settings.name, "client_secret"))
            if client_secret else None
        ),
        scope=settings.scope, folders=list(settings.folders),
        lane_actions=settings.lane_actions.as_dict(), backfill_days=settings.backfill_days,
        max_body_bytes=settings.max_body_bytes, created_at=datetime.now(UTC),
    )
    submission = None
    try:
        with store.sessions.begin() as session:
            session.add(row)
            if settings.submission is not None:
                session.flush()
                submission = _submission_row(row.id, settings.submission, settings.username)
                session.add(submission)
    except IntegrityError as exc:
        raise AccountError(f"an account named {settings.name!r} exists already") from exc
    return _settings(row, submission)


def list_accounts(store: Store) -> list[AccountSettings]:
    with store.sessions() as session:
        return [_settings(r, session.get(SubmissionRow, r.id))
                for r in session.scalars(select(AccountRow).order_by(AccountRow.name))]


def get_account(store: Store, name: str) -> AccountSettings:
    with store.sessions() as session:
        row = session.scalar(select(AccountRow).where(AccountRow.name == name))
        if row is None:
            raise AccountError(f"no account named {name!r}")
        return _settings(row, session.get(SubmissionRow, row.id))


def set_submission(store: Store, name: str, submission: Submission | None) -> None:
    """Give an existing account its SMTP side (or None: stop sending from it)."""
    with store.sessions.begin() as session:
        row = session.scalar(select(AccountRow).where(AccountRow.name == name))
        if row is None:
            raise AccountError(f"no account named {name!r}")
        if submission is not None:
            _validate_submission(submission, row.username)
        current = session.get(SubmissionRow, row.id)
        if current is not None:
            session.delete(current)
            session.flush()
        if submission is not None:
            session.add(_submission_row(row.id, submission, row.username))


def remove_account(store: Store, name: str) -> None:
    """Forget the account, its secrets, sync state and action records. Stored messages and
    their decisions stay (they are the user's record); nothing changes on the server."""
    with store.sessions.begin() as session:
        row = session.scalar(select(AccountRow).where(AccountRow.name == name))
        if row is None:
            raise AccountError(f"no account named {name!r}")
        session.delete(row)


def update_lane_actions(store: Store, name: str, actions: LaneActions) -> None:
    with store.sessions.begin() as session:
        row = session.scalar(select(AccountRow).where(AccountRow.name == name))
        if row is None:
            raise AccountError(f"no account named {name!r}")
        row.lane_actions = actions.as_dict()


def _sealed(store: Store, name: str) -> tuple[str, str | None]:
    with store.sessions() as session:
        row = session.scalar(select(AccountRow).where(AccountRow.name == name))
        if row is None:
            raise AccountError(f"no account named {name!r}")
        return row.secret, row.client_secret


def open_secret(store: Store, ring: KeyRing, name: str) -> str:
    sealed, _ = _sealed(store, name)
    return ring.open(sealed, _context(name, "secret"))


def login_secret(
    store: Store, ring: KeyRing, account: AccountSettings, tokens: TokenCache = TOKENS
) -> str:
    """What to log in with: the password, or a current access token for xoauth2."""
    sealed, sealed_client = _sealed(store, account.name)
    secret = ring.open(sealed, _context(account.name, "secret"))
    if account.auth == "password":
        return secret
    client_secret = (
        ring.open(sealed_client, _context(account.name, "client_secret")) if sealed_client else None
    )
    request = TokenRequest(
        endpoint=account.token_endpoint or "", client_id=account.client_id or "",
        refresh_token=secret, client_secret=client_secret, scope=account.scope,
    )
    return tokens.get(account.name, request)


def reseal_all(store: Store, ring: KeyRing) -> int:
    """Re-seal every stored secret with the ring's primary key, in one transaction.
    Opens everything first: if any secret cannot be opened, nothing is written."""
    with store.sessions.begin() as session:
        rows = list(session.scalars(select(AccountRow)))
        opened: list[tuple[AccountRow, str, str | None]] = []
        for row in rows:
            secret = ring.open(row.secret, _context(row.name, "secret"))
            client = (
                ring.open(row.client_secret, _context(row.name, "client_secret"))
                if row.client_secret else None
            )
            opened.append((row, secret, client))
        for row, secret, client in opened:
            row.secret = ring.seal(secret, _context(row.name, "secret"))
            if client is not None:
                row.client_secret = ring.seal(client, _context(row.name, "client_secret"))
        return len(rows)


