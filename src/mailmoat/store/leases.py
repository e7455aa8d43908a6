"""Leases in the database: read them, take one by compare-and-set, renew, hand back.

The decision whether a lease may be taken is core/leases.py's; this module only makes the
change conditional on the row being exactly what the caller read (token and expiry), so two
claimants that both saw a free lease cannot both get it. Each grant is also written to
`job_lease_grants`, the record that shows no two holders overlapped.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from mailmoat.core.leases import Lease
from mailmoat.store.messages import Store
from mailmoat.store.tables.jobs import LeaseGrantRow, LeaseRow


@dataclass(frozen=True, slots=True)
class Grant:
    token: str
    name: str
    holder: str
    acquired_at: float
    renewed_until: float
    released_at: float | None


def _lease(row: LeaseRow) -> Lease:
    return Lease(row.name, row.holder, row.token, row.expires_at)


def read(store: Store, name: str) -> Lease | None:
    with store.sessions() as session:
        row = session.get(LeaseRow, name)
        return _lease(row) if row is not None else None


def all_leases(store: Store, prefix: str = "") -> list[Lease]:
    with store.sessions() as session:
        rows = session.scalars(select(LeaseRow).where(LeaseRow.name.startswith(prefix))
                               .order_by(LeaseRow.name))
        return [_lease(r) for r in rows]


def take(store: Store, seen: Lease | None, name: str, holder: str, token: str,
         now: float, expires_at: float) -> bool:
    """Grant `name` to `holder` if the row is still what the caller saw (`seen`, None for no
    row). False when someone else changed it first."""
    grant = LeaseGrantRow(token=token, name=name, holder=holder, acquired_at=now,
                          renewed_until=expires_at)
    if seen is None:
        try:
            with store.sessions() as session, session.begin():
                session.execute(insert(LeaseRow).values(
                    name=name, holder=holder, token=token, acquired_at=now,
                    expires_at=expires_at, rerun=False))
                session.add(grant)
        except IntegrityError:  # another claimant created the row first
            return False
        return True
    guard = LeaseRow.token.is_(None) if seen.token is None else LeaseRow.token == seen.token
    with store.sessions() as session, session.begin():
        done = session.execute(
            update(LeaseRow).where(LeaseRow.name == name, guard,
                                   LeaseRow.expires_at == seen.expires_at)
            .values(holder=holder, token=token, acquired_at=now, expires_at=expires_at,
                    rerun=False))
        if done.rowcount != 1:  # type: ignore[attr-defined]  # CursorResult.rowcount
            return False
        session.add(grant)
    return True


def renew(store: Store, name: str, token: str, expires_at: float) -> bool:
    """Move the expiry of the caller's own grant. False: the grant is gone (taken over after
    it expired, or released), and its holder must stop."""
    with store.sessions() as session, session.begin():
        done = session.execute(update(LeaseRow).where(LeaseRow.name == name,
                                                      LeaseRow.token == token)
                               .values(expires_at=expires_at))
        if done.rowcount != 1:  # type: ignore[attr-defined]  # CursorResult.rowcount
            return False
        session.execute(update(LeaseGrantRow).where(LeaseGrantRow.token == token)
                        .values(renewed_until=expires_at))
    return True


def ask_again(store: Store, name: str, token: str) -> bool:
    """Ask the holder of grant `token` for one more pass when it finishes. False when that
    grant is no longer current (the caller should try to take the lease instead)."""
    with store.sessions() as session, session.begin():
        done = session.execute(update(LeaseRow).where(LeaseRow.name == name,
                                                      LeaseRow.token == token)
                               .values(rerun=True))
        return done.rowcount == 1  # type: ignore[attr-defined]  # CursorResult.rowcount


def finish(store: Store, name: str, token: str, now: float) -> bool:
    """The holder is done: release the lease, unless another pass was asked for meanwhile,
    in which case the ask is consumed, the lease kept, and True returned."""
    with store.sessions() as session, session.begin():
        released = session.execute(
            update(LeaseRow).where(LeaseRow.name == name, LeaseRow.token == token,
                                   LeaseRow.rerun.is_(False))
            .values(holder=None, token=None, expires_at=0.0))
        if released.rowcount == 1:  # type: ignore[attr-defined]  # CursorResult.rowcount
            session.execute(update(LeaseGrantRow).where(LeaseGrantRow.token == token)
                            .values(released_at=now))
            return False
        again = session.execute(update(LeaseRow).where(LeaseRow.name == name,
                                                       LeaseRow.token == token)
                                .values(rerun=False))
        return again.rowcount == 1  # type: ignore[attr-defined]  # CursorResult.rowcount


def release(store: Store, name: str, token: str, now: float) -> None:
    """Hand the lease back whatever was asked (shutdown, a failed pass)."""
    with store.sessions() as session, session.begin():
        done = session.execute(update(LeaseRow).where(LeaseRow.name == name,
                                                      LeaseRow.token == token)
                               .values(holder=None, token=None, expires_at=0.0))
        if done.rowcount == 1:  # type: ignore[attr-defined]  # CursorResult.rowcount
            session.execute(update(LeaseGrantRow).where(LeaseGrantRow.token == token)
                            .values(released_at=now))


def grants(store: Store, prefix: str = "") -> list[Grant]:
    with store.sessions() as session:
        rows = session.scalars(select(LeaseGrantRow)
                               .where(LeaseGrantRow.name.startswith(prefix))
                               .order_by(LeaseGrantRow.name, LeaseGrantRow.acquired_at))
        return [Grant(r.token, r.name, r.holder, r.acquired_at, r.renewed_until,
                      r.released_at) for r in rows]
