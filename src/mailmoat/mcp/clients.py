"""Registered agent clients. A token is shown once, when the agent is added; the store keeps
only its sha256 (a 256-bit random token needs no slow hash). Revoking is immediate: every
call looks the token up again."""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Engine, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import sessionmaker

from mailmoat.mcp.limits import DEFAULT_DAILY_PROPOSALS, DEFAULT_RATE_PER_MINUTE
from mailmoat.store.tables.mcp import AgentRow

SCOPES = frozenset({"read", "propose"})
TOKEN_PREFIX = "mmagent_"
LOCAL_NAME = "stdio"  # the stdio server run without --agent
_NAME = re.compile(r"[a-z0-9][a-z0-9_.-]{0,63}")
_ACCOUNT_MAX = 200


class ClientError(ValueError):
    """A refused registration or lookup; the message says what to change."""


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is calling: an agent, what it may do, where, and how often."""

    name: str
    scopes: frozenset[str]
    accounts: tuple[str, ...]
    rate_per_minute: int
    daily_proposals: int
    via: str  # "stdio" or "http"

    @property
    def actor(self) -> str:
        """The identity proposals and audit entries carry: never a person, never `auto:`."""
        return f"agent:{self.name}"


@dataclass(frozen=True, slots=True)
class AgentInfo:
    name: str
    scopes: tuple[str, ...]
    accounts: tuple[str, ...]
    rate_per_minute: int
    daily_proposals: int
    created_by: str
    created_at: str
    revoked: bool


def token_sha256(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def parse_scopes(text: str | Iterable[str]) -> frozenset[str]:
    items = text.split(",") if isinstance(text, str) else list(text)
    scopes = frozenset(s.strip().lower() for s in items if s.strip())
    unknown = scopes - SCOPES
    if unknown:
        raise ClientError(f"unknown scope(s): {', '.join(sorted(unknown))}; "
                          f"choose from {', '.join(sorted(SCOPES))}")
    if not scopes:
        raise ClientError("grant at least one scope: read, propose")
    return scopes


def check_name(name: str) -> str:
    if not _NAME.fullmatch(name):
        raise ClientError("an agent name is 1-64 of a-z 0-9 _ . - (starting with a letter or "
                          "digit)")
    return name


def check_accounts(accounts: Iterable[str]) -> tuple[str, ...]:
    out = tuple(dict.fromkeys(a.strip() for a in accounts if a.strip()))
    if not out:
        raise ClientError("grant at least one account with --account")
    for account in out:
        if len(account) > _ACCOUNT_MAX or any(ord(c) < 32 for c in account):
            raise ClientError(f"not an account name: {account!r}")
    return out


def _info(row: AgentRow) -> AgentInfo:
    return AgentInfo(row.name, tuple(row.scopes), tuple(row.accounts), row.rate_per_minute,
                     row.daily_proposals, row.created_by, row.created_at.isoformat(),
                     row.revoked_at is not None)


class AgentClients:
    def __init__(self, engine: Engine) -> None:
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    def add(self, name: str, scopes: Iterable[str] | str, accounts: Iterable[str],
            created_by: str, rate_per_minute: int = DEFAULT_RATE_PER_MINUTE,
            daily_proposals: int = DEFAULT_DAILY_PROPOSALS) -> str:
        """Register an agent; returns its token, the only time it exists outside the agent."""
        if check_name(name) == LOCAL_NAME:
            raise ClientError(f"{LOCAL_NAME!r} is the stdio server's own name: pick another")
        granted = parse_scopes(scopes)
        where = check_accounts(accounts)
        if rate_per_minute < 1 or daily_proposals < 0:
            raise ClientError("the rate limit is at least 1 a minute; the daily cap at least 0")
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        try:
            with self.sessions.begin() as session:
                session.add(AgentRow(
                    name=name, token_sha256=token_sha256(token), scopes=sorted(granted),
                    accounts=list(where), rate_per_minute=rate_per_minute,
                    daily_proposals=daily_proposals, created_by=created_by,
                    created_at=datetime.now(UTC), revoked_at=None))
        except IntegrityError:
            raise ClientError(f"an agent named {name!r} exists already (revoked agents keep "
                              "their name: pick another)") from None
        return token

    def list(self) -> list[AgentInfo]:
        with self.sessions() as session:
            return [_info(r) for r in session.scalars(select(AgentRow).order_by(AgentRow.name))]

    def get(self, name: str) -> AgentInfo | None:
        with self.sessions() as session:
            row = session.scalar(select(AgentRow).where(AgentRow.name == name))
            return None if row is None else _info(row)

    def revoke(self, name: str) -> bool:
        """True when the agent was active and is now revoked."""
        with self.sessions.begin() as session:
            row = session.scalar(select(AgentRow).where(AgentRow.name == name))
            if row is None or row.revoked_at is not None:
                return False
            row.revoked_at = datetime.now(UTC)
            return True

    def authenticate(self, token: str, via: str = "http") -> Principal | None:
        """The active agent holding this token, or None (unknown, malformed or revoked)."""
        if not token.startswith(TOKEN_PREFIX) or len(token) > 200:
            return None
        with self.sessions() as session:
            row = session.scalar(select(AgentRow).where(
                AgentRow.token_sha256 == token_sha256(token)))
            if row is None or row.revoked_at is not None:
                return None
            return principal_of(_info(row), via)

    def named(self, name: str, via: str = "stdio") -> Principal:
        """An active agent by name, for stdio (the local user vouches; no token)."""
        info = self.get(name)
        if info is None or info.revoked:
            raise ClientError(f"no active agent named {name!r} (see `mailmoat agent list`)")
        return principal_of(info, via)


def principal_of(info: AgentInfo, via: str) -> Principal:
    return Principal(info.name, frozenset(info.scopes), info.accounts, info.rate_per_minute,
                     info.daily_proposals, via)


def local_principal(accounts: Iterable[str], name: str = LOCAL_NAME) -> Principal:
    """The stdio server run by the local user without a registered agent: read and propose
    on the accounts named on the command line, default limits."""
    return Principal(check_name(name), SCOPES, check_accounts(accounts),
                     DEFAULT_RATE_PER_MINUTE, DEFAULT_DAILY_PROPOSALS, "stdio")
