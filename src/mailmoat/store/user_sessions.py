"""Signed-in sessions: the cookie's token is never stored, only its hash; each session names
the mail account it currently reads and its CSRF token."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import delete

from mailmoat.store.db import aware, now
from mailmoat.store.messages import Store
from mailmoat.store.tables.web import SessionRow, UserRow
from mailmoat.store.users import User, accounts_of

SESSION_TTL = timedelta(days=7)


@dataclass(frozen=True, slots=True)
class SessionInfo:
    user_id: int
    username: str
    account: str
    csrf_token: str
    accounts: tuple[str, ...]


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class UserSessions:
    def __init__(self, store: Store) -> None:
        self.sessions = store.sessions

    def create(self, user: User, ttl: timedelta = SESSION_TTL) -> tuple[str, str]:
        """(cookie token, CSRF token). The token itself is never stored, only its hash."""
        token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        at = now()
        with self.sessions.begin() as s:
            s.execute(delete(SessionRow).where(SessionRow.expires_at < at))  # housekeeping
            s.add(SessionRow(token_hash=token_hash(token), user_id=user.id,
                             account=user.accounts[0] if user.accounts else "",
                             csrf_token=csrf, created_at=at, expires_at=at + ttl))
        return token, csrf

    def get(self, token: str) -> SessionInfo | None:
        with self.sessions() as s:
            row = s.get(SessionRow, token_hash(token))
            if row is None or aware(row.expires_at) <= now():
                return None
            user = s.get(UserRow, row.user_id)
            if user is None:
                return None
            accounts = accounts_of(s, user.id)
            # An account taken away from the user since sign-in is no longer viewable.
            account = row.account if row.account in accounts else (accounts or ("",))[0]
            return SessionInfo(user.id, user.username, account, row.csrf_token, accounts)

    def end(self, token: str) -> None:
        with self.sessions.begin() as s:
            s.execute(delete(SessionRow).where(SessionRow.token_hash == token_hash(token)))

    def switch_account(self, token: str, account: str) -> bool:
        with self.sessions.begin() as s:
            row = s.get(SessionRow, token_hash(token))
            if row is None or account not in accounts_of(s, row.user_id):
                return False
            row.account = account
            return True
