"""XOAUTH2: exchange a stored refresh token for access tokens at a configured endpoint
(RFC 6749 section 6), cached in memory and refreshed before they expire."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import httpx

REFRESH_MARGIN_S = 120.0  # renew this long before expiry so a sync never starts on a dying token
DEFAULT_LIFETIME_S = 3600.0


class TokenError(RuntimeError):
    """The token endpoint refused or could not be reached. Never holds a token or secret."""


@dataclass(frozen=True, slots=True)
class TokenRequest:
    endpoint: str
    client_id: str
    refresh_token: str
    client_secret: str | None = None
    scope: str | None = None


@dataclass(frozen=True, slots=True)
class AccessToken:
    value: str
    expires_at: float  # monotonic clock

    def fresh(self, now: float) -> bool:
        return now < self.expires_at - REFRESH_MARGIN_S


def exchange(request: TokenRequest, timeout: float = 15.0) -> tuple[str, float]:
    """One refresh-token grant; returns (access token, lifetime in seconds)."""
    form = {
        "grant_type": "refresh_token",
        "refresh_token": request.refresh_token,
        "client_id": request.client_id,
    }
    if request.client_secret:
        form["client_secret"] = request.client_secret
    if request.scope:
        form["scope"] = request.scope
    try:
        response = httpx.post(request.endpoint, data=form, timeout=timeout)
    except httpx.HTTPError as exc:
        raise TokenError(
            f"token endpoint {request.endpoint} unreachable: {type(exc).__name__}"
        ) from None
    if response.status_code != 200:
        # The endpoint's error code is safe to show (RFC 6749 5.2); the body may echo input.
        code = ""
        with contextlib.suppress(ValueError, AttributeError):
            code = str(response.json().get("error", ""))[:100]
        raise TokenError(
            f"token endpoint {request.endpoint} refused the refresh token: "
            f"HTTP {response.status_code} {code}".rstrip()
        )
    try:
        body = response.json()
        token = str(body["access_token"])
        lifetime = float(body.get("expires_in", DEFAULT_LIFETIME_S))
    except (ValueError, KeyError, TypeError):
        raise TokenError(f"token endpoint {request.endpoint} sent no access_token") from None
    return token, lifetime


class TokenCache:
    """Access tokens per account, in memory only; thread-safe."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._tokens: dict[str, AccessToken] = {}
        self._lock = threading.Lock()

    def get(self, account: str, request: TokenRequest) -> str:
        with self._lock:
            now = self._clock()
            cached = self._tokens.get(account)
            if cached is not None and cached.fresh(now):
                return cached.value
            value, lifetime = exchange(request)
            self._tokens[account] = AccessToken(value, now + lifetime)
            return value

    def forget(self, account: str) -> None:
        with self._lock:
            self._tokens.pop(account, None)


TOKENS = TokenCache()
