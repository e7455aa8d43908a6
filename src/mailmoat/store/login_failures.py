"""Failed sign-ins per key (a user name, an address), which the login throttle counts."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from sqlalchemy import delete, select

from mailmoat.store.db import Refused, aware, now, serialise
from mailmoat.store.messages import Store
from mailmoat.store.tables.web import LoginFailureRow

LOGIN_LOCK_KEY = 0x6D6D_6C69  # "mmli": the sign-in attempt count and booking
KEEP = timedelta(days=1)  # older failures are history nobody needs; the table stays small


class LoginFailures:
    def __init__(self, store: Store) -> None:
        self.sessions = store.sessions

    def claim(
        self, keys: Sequence[str], since: datetime,
        wait_for: Callable[[dict[str, list[datetime]], datetime], float],
    ) -> tuple[float, list[int]]:
        """Book a failure for every key *before* the password is checked, in one serialised
        transaction with the count, so parallel attempts see each other: `wait_for` (the
        throttle policy) gets each key's earlier failures since `since` and the time now,
        read after the lock was taken; when it answers a
        wait > 0 nothing is booked and the wait is returned. Otherwise the booked rows' ids
        come back: `forget` drops them when the password was right."""
        at = now()
        wait = 0.0
        try:
            with self.sessions.begin() as s:
                serialise(s, LOGIN_LOCK_KEY)
                rows = [LoginFailureRow(key=k[:300], at=at) for k in keys]
                s.add_all(rows)  # written first: on SQLite this takes the write lock
                s.flush()
                booked = [r.id for r in rows]
                earlier = {k: [aware(t) for t in s.scalars(
                    select(LoginFailureRow.at).where(LoginFailureRow.key == k[:300],
                                                     LoginFailureRow.at > since,
                                                     LoginFailureRow.id.not_in(booked)))]
                    for k in keys}
                wait = wait_for(earlier, now())
                if wait > 0:
                    raise Refused
                s.execute(delete(LoginFailureRow).where(LoginFailureRow.at < at - KEEP))
                return 0.0, booked
        except Refused:
            return wait, []

    def forget(self, booked: Sequence[int]) -> None:
        with self.sessions.begin() as s:
            s.execute(delete(LoginFailureRow).where(LoginFailureRow.id.in_(list(booked))))

    def clear(self, key: str) -> None:
        with self.sessions.begin() as s:
            s.execute(delete(LoginFailureRow).where(LoginFailureRow.key == key[:300]))
