"""People who may sign in to the web interface, and the mail accounts each may read."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError

from mailmoat.store.db import Refused, now, serialise
from mailmoat.store.messages import Store
from mailmoat.store.tables.web import SessionRow, UserAccountRow, UserRow

SETUP_LOCK_KEY = 0x6D6D_7375  # "mmsu": the first-user check and insert


@dataclass(frozen=True, slots=True)
class User:
    id: int
    username: str
    password_hash: str
    accounts: tuple[str, ...]


class UserExists(ValueError):
    pass


def accounts_of(s: Any, user_id: int) -> tuple[str, ...]:
    """The mail accounts a user may read, in a session `s` the caller holds."""
    return tuple(s.scalars(select(UserAccountRow.account)
                           .where(UserAccountRow.user_id == user_id)
                           .order_by(UserAccountRow.account)))


class Users:
    def __init__(self, store: Store) -> None:
        self.sessions = store.sessions

    def count(self) -> int:
        with self.sessions() as s:
            return int(s.scalar(select(func.count()).select_from(UserRow)) or 0)

    def create(self, username: str, password_hash: str, accounts: Sequence[str]) -> User:
        with self.sessions.begin() as s:
            if s.scalar(select(UserRow.id).where(UserRow.username == username)) is not None:
                raise UserExists(f"user {username!r} already exists")
            row = UserRow(username=username, password_hash=password_hash, created_at=now())
            s.add(row)
            s.flush()
            s.add_all([UserAccountRow(user_id=row.id, account=a) for a in dict.fromkeys(accounts)])
            return User(row.id, username, password_hash, tuple(dict.fromkeys(accounts)))

    def create_first(self, username: str, password_hash: str,
                     accounts: Sequence[str]) -> User | None:
        """Create a user only if there is none yet, atomically: of any number of parallel
        calls, exactly one makes a user; the others get None and write nothing."""
        try:
            with self.sessions.begin() as s:
                serialise(s, SETUP_LOCK_KEY)
                row = UserRow(username=username, password_hash=password_hash, created_at=now())
                s.add(row)  # written first: on SQLite this takes the write lock
                s.flush()
                if int(s.scalar(select(func.count()).select_from(UserRow)) or 0) != 1:
                    raise Refused
                unique = tuple(dict.fromkeys(accounts))
                s.add_all([UserAccountRow(user_id=row.id, account=a) for a in unique])
                return User(row.id, username, password_hash, unique)
        except (Refused, IntegrityError):
            return None

    def grant(self, username: str, account: str) -> bool:
        """Let a user read one more mail account. False when the user does not exist."""
        with self.sessions.begin() as s:
            user_id = s.scalar(select(UserRow.id).where(UserRow.username == username))
            if user_id is None:
                return False
            if s.get(UserAccountRow, (user_id, account)) is None:
                s.add(UserAccountRow(user_id=user_id, account=account))
            return True

    def names(self) -> list[str]:
        with self.sessions() as s:
            return list(s.scalars(select(UserRow.username).order_by(UserRow.id)))

    def get(self, username: str) -> User | None:
        with self.sessions() as s:
            row = s.scalar(select(UserRow).where(UserRow.username == username))
            if row is None:
                return None
            return User(row.id, row.username, row.password_hash, accounts_of(s, row.id))

    def set_password(self, user_id: int, password_hash: str) -> None:
        """New hash; every open session of that user ends."""
        with self.sessions.begin() as s:
            row = s.get(UserRow, user_id)
            if row is None:
                raise KeyError(f"no user {user_id}")
            row.password_hash = password_hash
            s.execute(delete(SessionRow).where(SessionRow.user_id == user_id))
