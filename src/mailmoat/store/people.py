"""The web interface's reads and writes: people, sessions, settings, sender preferences,
corrections and the notification log. Every method that touches mail takes the account and
filters by it, so a caller cannot read across accounts by passing another message id.

Secrets at rest (the link-signing key, the Web Push private key, the Apprise URLs in each
account's settings, which carry tokens) are sealed with the `sealer` the caller hands in —
the key ring that seals account secrets (accounts.secrets.KeyRing) — each bound to its name
or account. A value stored in plain text by an older version is sealed the first time it is
read. Without a sealer these secrets can be neither read nor written."""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from sqlalchemy import delete, func, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from mailmoat.core.lanes import Lane
from mailmoat.core.relabel import relabelled
from mailmoat.store.messages import Store, replace_decision
from mailmoat.store.tables.messages import DecisionRow, LedgerRow, MessageRow
from mailmoat.store.tables.web import (
    AccountSettingsRow,
    LoginFailureRow,
    NotificationRow,
    PushSubscriptionRow,
    SecretRow,
    SenderPrefRow,
    SessionRow,
    UserAccountRow,
    UserRow,
)

SESSION_TTL = timedelta(days=7)


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(moment: datetime) -> datetime:
    # SQLite hands back naive datetimes for timezone-aware columns; they were stored as UTC.
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _apprise_urls(data: dict[str, Any]) -> list[str]:
    notify = data.get("notify")
    urls = notify.get("apprise_urls") if isinstance(notify, dict) else None
    return [u for u in urls if isinstance(u, str)] if isinstance(urls, list) else []


def _with_urls(data: dict[str, Any], urls: list[str]) -> dict[str, Any]:
    return {**data, "notify": {**data["notify"], "apprise_urls": urls}}


class UserExists(ValueError):
    pass


# Transaction-scoped PostgreSQL advisory locks; on SQLite the first write of a transaction
# takes the database's write lock, which serialises the same way.
SETUP_LOCK_KEY = 0x6D6D_7375  # "mmsu": the first-user check and insert
LOGIN_LOCK_KEY = 0x6D6D_6C69  # "mmli": the sign-in attempt count and booking


class _Refused(Exception):
    """Raised inside a transaction to roll it back."""


def _serialise(s: Session, key: int) -> None:
    if s.get_bind().dialect.name == "postgresql":
        s.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": key})


@dataclass(frozen=True, slots=True)
class User:
    id: int
    username: str
    password_hash: str
    accounts: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SessionInfo:
    user_id: int
    username: str
    account: str
    csrf_token: str
    accounts: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SenderPrefs:
    pinned_lane: str | None = None
    allow_images: bool = False
    muted: bool = False


class Sealer(Protocol):
    """Authenticated encryption bound to a context (accounts.secrets.KeyRing)."""

    def seal(self, plaintext: str, context: str) -> str: ...

    def open(self, token: str, context: str) -> str: ...


class NoSealer(RuntimeError):
    """A secret was asked for from a WebStore built without a key ring."""


# accounts.secrets' sealed format: version, key id, url-safe base64 of nonce and ciphertext.
_SEALED = re.compile(r"v1:[0-9a-f]{12}:[A-Za-z0-9_=-]+")


def is_sealed(value: str) -> bool:
    return _SEALED.fullmatch(value) is not None


class WebStore:
    def __init__(self, store: Store, sealer: Sealer | None = None) -> None:
        self.store = store
        self.sessions = store.sessions
        self.sealer = sealer

    def _sealer(self) -> Sealer:
        if self.sealer is None:
            raise NoSealer("secrets need the key ring: build WebStore(store, sealer=ring)")
        return self.sealer

    # -- people -------------------------------------------------------------------------

    def user_count(self) -> int:
        with self.sessions() as s:
            return int(s.scalar(select(func.count()).select_from(UserRow)) or 0)

    def create_user(self, username: str, password_hash: str, accounts: Sequence[str]) -> User:
        with self.sessions.begin() as s:
            if s.scalar(select(UserRow.id).where(UserRow.username == username)) is not None:
                raise UserExists(f"user {username!r} already exists")
            row = UserRow(username=username, password_hash=password_hash, created_at=_now())
            s.add(row)
            s.flush()
            s.add_all([UserAccountRow(user_id=row.id, account=a) for a in dict.fromkeys(accounts)])
            return User(row.id, username, password_hash, tuple(dict.fromkeys(accounts)))

    def create_first_user(self, username: str, password_hash: str,
                          accounts: Sequence[str]) -> User | None:
        """Create a user only if there is none yet, atomically: of any number of parallel
        calls, exactly one makes a user; the others get None and write nothing."""
        try:
            with self.sessions.begin() as s:
                _serialise(s, SETUP_LOCK_KEY)
                row = UserRow(username=username, password_hash=password_hash, created_at=_now())
                s.add(row)  # written first: on SQLite this takes the write lock
                s.flush()
                if int(s.scalar(select(func.count()).select_from(UserRow)) or 0) != 1:
                    raise _Refused
                unique = tuple(dict.fromkeys(accounts))
                s.add_all([UserAccountRow(user_id=row.id, account=a) for a in unique])
                return User(row.id, username, password_hash, unique)
        except (_Refused, IntegrityError):
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

    def usernames(self) -> list[str]:
        with self.sessions() as s:
            return list(s.scalars(select(UserRow.username).order_by(UserRow.id)))

    def get_user(self, username: str) -> User | None:
        with self.sessions() as s:
            row = s.scalar(select(UserRow).where(UserRow.username == username))
            if row is None:
                return None
            return User(row.id, row.username, row.password_hash, self._accounts(s, row.id))

    @staticmethod
    def _accounts(s: Any, user_id: int) -> tuple[str, ...]:
        return tuple(s.scalars(select(UserAccountRow.account)
                               .where(UserAccountRow.user_id == user_id)
                               .order_by(UserAccountRow.account)))

    def set_password(self, user_id: int, password_hash: str) -> None:
        """New hash; every open session of that user ends."""
        with self.sessions.begin() as s:
            row = s.get(UserRow, user_id)
            if row is None:
                raise KeyError(f"no user {user_id}")
            row.password_hash = password_hash
            s.execute(delete(SessionRow).where(SessionRow.user_id == user_id))

    # -- sessions -----------------------------------------------------------------------

    def create_session(self, user: User, ttl: timedelta = SESSION_TTL) -> tuple[str, str]:
        """(cookie token, CSRF token). The token itself is never stored, only its hash."""
        token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        now = _now()
        with self.sessions.begin() as s:
            s.execute(delete(SessionRow).where(SessionRow.expires_at < now))  # housekeeping
            s.add(SessionRow(token_hash=token_hash(token), user_id=user.id,
                             account=user.accounts[0] if user.accounts else "",
                             csrf_token=csrf, created_at=now, expires_at=now + ttl))
        return token, csrf

    def get_session(self, token: str) -> SessionInfo | None:
        with self.sessions() as s:
            row = s.get(SessionRow, token_hash(token))
            if row is None or _aware(row.expires_at) <= _now():
                return None
            user = s.get(UserRow, row.user_id)
            if user is None:
                return None
            accounts = self._accounts(s, user.id)
            # An account taken away from the user since sign-in is no longer viewable.
            account = row.account if row.account in accounts else (accounts or ("",))[0]
            return SessionInfo(user.id, user.username, account, row.csrf_token, accounts)

    def end_session(self, token: str) -> None:
        with self.sessions.begin() as s:
            s.execute(delete(SessionRow).where(SessionRow.token_hash == token_hash(token)))

    def switch_account(self, token: str, account: str) -> bool:
        with self.sessions.begin() as s:
            row = s.get(SessionRow, token_hash(token))
            if row is None or account not in self._accounts(s, row.user_id):
                return False
            row.account = account
            return True

    # -- login throttling ---------------------------------------------------------------

    def record_failure(self, keys: Sequence[str]) -> None:
        now = _now()
        with self.sessions.begin() as s:
            s.add_all([LoginFailureRow(key=k[:300], at=now) for k in keys])
            # Old failures are history nobody needs; keep the table small.
            s.execute(delete(LoginFailureRow).where(LoginFailureRow.at < now - timedelta(days=1)))

    def claim_attempt(
        self, keys: Sequence[str], since: datetime,
        wait_for: Callable[[dict[str, list[datetime]], datetime], float],
    ) -> tuple[float, list[int]]:
        """Book a failure for every key *before* the password is checked, in one serialised
        transaction with the count, so parallel attempts see each other: `wait_for` (the
        throttle policy) gets each key's earlier failures since `since` and the time now,
        read after the lock was taken; when it answers a
        wait > 0 nothing is booked and the wait is returned. Otherwise the booked rows' ids
        come back: `forget_attempt` drops them when the password was right."""
        now = _now()
        wait = 0.0
        try:
            with self.sessions.begin() as s:
                _serialise(s, LOGIN_LOCK_KEY)
                rows = [LoginFailureRow(key=k[:300], at=now) for k in keys]
                s.add_all(rows)  # written first: on SQLite this takes the write lock
                s.flush()
                booked = [r.id for r in rows]
                earlier = {k: [_aware(t) for t in s.scalars(
                    select(LoginFailureRow.at).where(LoginFailureRow.key == k[:300],
                                                     LoginFailureRow.at > since,
                                                     LoginFailureRow.id.not_in(booked)))]
                    for k in keys}
                wait = wait_for(earlier, _now())
                if wait > 0:
                    raise _Refused
                s.execute(delete(LoginFailureRow).where(
                    LoginFailureRow.at < now - timedelta(days=1)))
                return 0.0, booked
        except _Refused:
            return wait, []

    def forget_attempt(self, booked: Sequence[int]) -> None:
        with self.sessions.begin() as s:
            s.execute(delete(LoginFailureRow).where(LoginFailureRow.id.in_(list(booked))))

    def failures(self, key: str, since: datetime) -> list[datetime]:
        with self.sessions() as s:
            return [_aware(t) for t in s.scalars(
                select(LoginFailureRow.at).where(LoginFailureRow.key == key[:300],
                                                 LoginFailureRow.at > since))]

    def clear_failures(self, key: str) -> None:
        with self.sessions.begin() as s:
            s.execute(delete(LoginFailureRow).where(LoginFailureRow.key == key[:300]))

    # -- secrets ------------------------------------------------------------------------

    def secret(self, name: str, make: Callable[[], str]) -> str:
        """The named secret, made on first use; concurrent first uses agree on one value.
        Stored sealed (context `web-secret:<name>`); a plain-text row is sealed on read."""
        sealer, context = self._sealer(), f"web-secret:{name}"
        with self.sessions() as s:
            value = s.scalar(select(SecretRow.value).where(SecretRow.name == name))
        if value is None:
            try:
                with self.sessions.begin() as s:
                    s.add(SecretRow(name=name, value=sealer.seal(make(), context)))
            except IntegrityError:
                pass
            with self.sessions() as s:
                value = str(s.scalar(select(SecretRow.value).where(SecretRow.name == name)))
        if is_sealed(value):
            return sealer.open(value, context)
        with self.sessions.begin() as s:  # a row from before secrets were sealed
            s.execute(update(SecretRow).where(SecretRow.name == name, SecretRow.value == value)
                      .values(value=sealer.seal(value, context)))
        return value

    # -- settings and sender preferences -------------------------------------------------

    def settings(self, account: str) -> dict[str, Any]:
        """The account's settings, Apprise URLs opened; plain-text URLs stored by an older
        version are sealed now."""
        with self.sessions() as s:
            row = s.get(AccountSettingsRow, account)
            data = dict(row.data) if row else {}
        urls = _apprise_urls(data)
        if not urls:
            return data
        sealer, context = self._sealer(), f"apprise:{account}"
        opened = [sealer.open(u, context) if is_sealed(u) else u for u in urls]
        if not all(is_sealed(u) for u in urls):
            self.save_settings(account, _with_urls(data, opened))
        return _with_urls(data, opened)

    def save_settings(self, account: str, data: dict[str, Any]) -> None:
        """Apprise URLs carry tokens: each is sealed (context `apprise:<account>`)."""
        urls = _apprise_urls(data)
        if urls:
            sealer, context = self._sealer(), f"apprise:{account}"
            data = _with_urls(data, [u if is_sealed(u) else sealer.seal(u, context)
                                     for u in urls])
        with self.sessions.begin() as s:
            s.merge(AccountSettingsRow(account=account, data=data, updated_at=_now()))

    def sender_prefs(self, account: str, sender: str) -> SenderPrefs:
        with self.sessions() as s:
            row = s.get(SenderPrefRow, (account, sender.lower()))
            if row is None:
                return SenderPrefs()
            return SenderPrefs(row.pinned_lane, row.allow_images, row.muted)

    def set_sender_prefs(self, account: str, sender: str, actor: str, **changes: Any) -> None:
        with self.sessions.begin() as s:
            row = s.get(SenderPrefRow, (account, sender.lower()))
            if row is None:
                row = SenderPrefRow(account=account, sender=sender.lower(), pinned_lane=None,
                                    allow_images=False, muted=False)
                s.add(row)
            for key, value in changes.items():
                setattr(row, key, value)
            row.updated_by, row.updated_at = actor, _now()

    def muted_senders(self, account: str) -> frozenset[str]:
        with self.sessions() as s:
            return frozenset(s.scalars(select(SenderPrefRow.sender).where(
                SenderPrefRow.account == account, SenderPrefRow.muted.is_(True))))

    def pinned_senders(self, account: str) -> list[dict[str, str]]:
        with self.sessions() as s:
            rows = s.execute(select(SenderPrefRow.sender, SenderPrefRow.pinned_lane).where(
                SenderPrefRow.account == account, SenderPrefRow.pinned_lane.is_not(None))
                .order_by(SenderPrefRow.sender))
            return [{"sender": sender, "lane": lane} for sender, lane in rows
                    if lane is not None]  # the WHERE drops NULL

    # -- corrections ---------------------------------------------------------------------

    def _owned_decision(self, message_id: int, account: str) -> dict[str, Any] | None:
        with self.sessions() as s:
            row = s.get(DecisionRow, message_id)
            if row is None or row.account != account:
                return None
            return dict(row.trace)

    def move(self, message_id: int, account: str, lane: Lane, actor: str) -> str | None:
        """Re-file one message into `lane` as a person's relabel (core/relabel.py: the same
        rule as a correction, so urgent mail asked into a hidden lane lands QUEUE). The lane
        it got, or None if the message is not this account's. A person's own move also
        records a correction (services/relabel.py); this re-files a pinned sender's mail.
        """
        with self.sessions.begin() as s:
            row = s.get(DecisionRow, message_id)
            if row is None or row.account != account:
                return None
            trace = relabelled(row.trace, lane, actor)
            replace_decision(s, row, trace, actor, _now())
            return str(trace["lane"])

    def undo(
        self, message_id: int, account: str, actor: str,
        also: Callable[[Session, dict[str, Any]], object] | None = None,
    ) -> str | None:
        """Put back the decision in force before the latest correction, recorded as a new
        "corrected" ledger entry (history is append-only). The lane now, or None when the
        message is not this account's or has nothing to undo. `also` runs in the same
        transaction with the trace being undone (learn/ withdraws the correction behind it)."""
        if self._owned_decision(message_id, account) is None:
            return None
        history = self.store.ledger(message_id)
        if not history or history[-1]["event"] != "corrected":
            return None
        # Walk back over corrections that were themselves undos of the entries before them.
        index, skip = len(history) - 1, 0
        while index >= 0:
            entry = history[index]
            if entry["event"] == "corrected" and entry["trace"].get("undo"):
                skip += 1
            elif skip:
                skip -= 1
            else:
                break
            index -= 1
        if index <= 0:
            return None
        previous = dict(history[index - 1]["trace"])
        previous["undo"] = True
        now = _now()
        with self.sessions.begin() as s:
            row = s.get(DecisionRow, message_id)
            assert row is not None
            if also is not None:
                also(s, dict(row.trace))
            row.lane, row.reason = previous["lane"], previous["reason"]
            row.auto_eligible, row.branch = previous["auto_eligible"], previous["branch"]
            row.policy_version, row.source = previous["policy_version"], previous["source"]
            row.degraded, row.trace, row.actor, row.updated_at = (
                previous["degraded"], previous, actor, now)
            s.add(LedgerRow(message_id=message_id, event="corrected", lane=previous["lane"],
                            trace=previous, actor=actor, created_at=now))
        return str(previous["lane"])

    def corrections(self, account: str, limit: int = 50) -> list[dict[str, Any]]:
        with self.sessions() as s:
            rows = s.execute(
                select(LedgerRow.message_id, LedgerRow.lane, LedgerRow.actor,
                       LedgerRow.created_at, MessageRow.subject)
                .join(MessageRow, MessageRow.id == LedgerRow.message_id)
                .where(MessageRow.account == account, LedgerRow.event == "corrected")
                .order_by(LedgerRow.id.desc()).limit(limit))
            return [{"message_id": m, "lane": lane, "actor": actor,
                     "at": _aware(at).isoformat(), "subject": subject}
                    for m, lane, actor, at, subject in rows]

    def raw_message(self, message_id: int, account: str) -> bytes | None:
        with self.sessions() as s:
            row = s.get(MessageRow, message_id)
            return row.raw if row is not None and row.account == account else None

    # -- status --------------------------------------------------------------------------

    def decision_health(self, account: str) -> dict[str, int]:
        with self.sessions() as s:
            total, degraded = s.execute(
                select(func.count(), func.count().filter(DecisionRow.degraded.is_(True)))
                .where(DecisionRow.account == account)).one()
            sources = dict(s.execute(select(DecisionRow.source, func.count())
                                     .where(DecisionRow.account == account)
                                     .group_by(DecisionRow.source)).all())
        return {"total": int(total), "degraded": int(degraded),
                **{f"source:{k}": int(v) for k, v in sources.items()}}

    # -- notifications -------------------------------------------------------------------

    def log_notification(self, account: str, message_id: int, kind: str, detail: str = "",
                         due_at: datetime | None = None) -> bool:
        """False when this (message, kind) was logged before: the database keeps it once."""
        try:
            with self.sessions.begin() as s:
                s.add(NotificationRow(account=account, message_id=message_id, kind=kind,
                                      detail=detail[:2000], due_at=due_at, created_at=_now()))
        except IntegrityError:
            return False
        return True

    def notifications(self, account: str, kinds: Sequence[str] | None = None,
                      since: datetime | None = None) -> list[dict[str, Any]]:
        with self.sessions() as s:
            query = select(NotificationRow).where(NotificationRow.account == account)
            if kinds is not None:
                query = query.where(NotificationRow.kind.in_(list(kinds)))
            if since is not None:
                query = query.where(NotificationRow.created_at > since)
            return [{"message_id": r.message_id, "kind": r.kind, "detail": r.detail,
                     "due_at": _aware(r.due_at) if r.due_at else None,
                     "created_at": _aware(r.created_at)}
                    for r in s.scalars(query.order_by(NotificationRow.id))]

    def forget_notification(self, account: str, message_id: int, kind: str) -> None:
        with self.sessions.begin() as s:
            s.execute(delete(NotificationRow).where(
                NotificationRow.account == account, NotificationRow.message_id == message_id,
                NotificationRow.kind == kind))

    def fresh_candidates(self, account: str, since: datetime) -> list[dict[str, Any]]:
        """PUSH and MEETING messages stored after `since`, oldest first."""
        with self.sessions() as s:
            rows = s.execute(
                select(MessageRow.id, MessageRow.from_addr, MessageRow.from_name,
                       MessageRow.subject, MessageRow.created_at, MessageRow.date,
                       MessageRow.seen, DecisionRow.lane)
                .join(DecisionRow, DecisionRow.message_id == MessageRow.id)
                .where(MessageRow.account == account, MessageRow.created_at > since,
                       DecisionRow.lane.in_(["PUSH", "MEETING"]))
                .order_by(MessageRow.id))
            return [{"id": r.id, "from_addr": r.from_addr, "from_name": r.from_name,
                     "subject": r.subject, "created_at": _aware(r.created_at), "date": r.date,
                     "seen": r.seen, "lane": r.lane} for r in rows]

    def message_summary(self, message_id: int, account: str) -> dict[str, Any] | None:
        with self.sessions() as s:
            row = s.execute(
                select(MessageRow.id, MessageRow.from_addr, MessageRow.subject, DecisionRow.lane)
                .join(DecisionRow, DecisionRow.message_id == MessageRow.id)
                .where(MessageRow.id == message_id, MessageRow.account == account)).first()
            return None if row is None else {"id": row.id, "from_addr": row.from_addr,
                                              "subject": row.subject, "lane": row.lane}

    def arrivals(self, account: str, since: datetime, until: datetime,
                 listed_lanes: Sequence[str], limit: int) -> tuple[dict[str, int],
                                                                  list[dict[str, Any]]]:
        """Mail stored in [since, until): how many per lane, and the newest `limit` of each
        lane in `listed_lanes` (id, lane, sender, subject; never a body)."""
        span = (MessageRow.account == account, MessageRow.created_at >= since,
                MessageRow.created_at < until)
        with self.sessions() as s:
            counts = {lane: int(n) for lane, n in s.execute(
                select(DecisionRow.lane, func.count())
                .join(MessageRow, DecisionRow.message_id == MessageRow.id)
                .where(*span).group_by(DecisionRow.lane))}
            listed: list[dict[str, Any]] = []
            for lane in listed_lanes:
                listed += [{"id": r.id, "lane": r.lane, "from_addr": r.from_addr,
                            "subject": r.subject} for r in s.execute(
                    select(MessageRow.id, MessageRow.from_addr, MessageRow.subject,
                           DecisionRow.lane)
                    .join(DecisionRow, DecisionRow.message_id == MessageRow.id)
                    .where(*span, DecisionRow.lane == lane)
                    .order_by(MessageRow.id.desc()).limit(limit))]
        return counts, listed

    def subjects(self, message_ids: Sequence[int], account: str) -> dict[int, str]:
        """Subjects of the account's messages among `message_ids`, in one query."""
        wanted = sorted(set(message_ids))
        if not wanted:
            return {}
        with self.sessions() as s:
            rows = s.execute(select(MessageRow.id, MessageRow.subject).where(
                MessageRow.account == account, MessageRow.id.in_(wanted)))
            return {row.id: row.subject for row in rows}

    # -- web push subscriptions ------------------------------------------------------------

    def add_push_subscription(self, user_id: int, account: str, endpoint: str, p256dh: str,
                              auth: str) -> None:
        with self.sessions.begin() as s:
            s.execute(delete(PushSubscriptionRow).where(PushSubscriptionRow.endpoint == endpoint))
            s.add(PushSubscriptionRow(user_id=user_id, account=account, endpoint=endpoint,
                                      p256dh=p256dh, auth=auth, created_at=_now()))

    def push_subscriptions(self, account: str) -> list[dict[str, Any]]:
        with self.sessions() as s:
            return [{"endpoint": r.endpoint, "keys": {"p256dh": r.p256dh, "auth": r.auth}}
                    for r in s.scalars(select(PushSubscriptionRow)
                                       .where(PushSubscriptionRow.account == account))]

    def forget_push_endpoints(self, endpoints: Sequence[str]) -> None:
        """Subscriptions the push service reported gone (404/410)."""
        if endpoints:
            with self.sessions.begin() as s:
                s.execute(delete(PushSubscriptionRow).where(
                    PushSubscriptionRow.endpoint.in_(list(endpoints))))
