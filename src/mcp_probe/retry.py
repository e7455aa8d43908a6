"""Opt-in retries for a sidecar call, and which failures they cover (pure).

`retryOn` lists what may be retried: a number matches an HTTP status (503) or a JSON-RPC error
code (-32603); "timeout" matches a call that ran out of time; "rate limit" matches HTTP 429 or an
error whose text says rate limit / too many requests; any other word matches an error whose
text contains it. A 401 or 403 (or an error that says unauthorized / forbidden) is never
retried unless 401 or 403 is listed itself: a credential problem does not get better by asking
again, and a word match never covers it.
A wrong result shape (output schema) or an unexpected status is the tool's answer, never retried.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .config import ConfigError

AUTH_STATUSES = frozenset({401, 403})
_RATE_LIMIT_RE = re.compile(r"rate[ -]?limit|too many requests", re.IGNORECASE)
_AUTH_TEXT_RE = re.compile(r"\b(401|403|unauthori[sz]ed|forbidden)\b", re.IGNORECASE)

# Kinds of attempt failure.
TIMEOUT = "timeout"
HTTP = "http"  # the HTTP layer answered with an error status
JSONRPC = "jsonrpc"  # the server answered with a JSON-RPC error
TOOL_ERROR = "tool-error"  # the tool's result had isError
TRANSPORT = "transport"  # connection lost, process exited, unreadable output
SHAPE = "shape"  # structured content does not match the output schema
UNEXPECTED = "unexpected"  # the result's status is not the expected one


@dataclass(frozen=True, slots=True)
class AttemptError:
    kind: str
    message: str
    status: int | None = None  # the HTTP status, when the HTTP layer answered
    code: int | None = None  # the JSON-RPC error code, when there was one

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "message": self.message}
        if self.status is not None:
            out["httpStatus"] = self.status
        if self.code is not None:
            out["code"] = self.code
        return out


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    attempts: int = 1
    delay_ms: int = 0
    retry_on: tuple[int | str, ...] = ()


def parse_retry_on(value: Any, where: str) -> tuple[int | str, ...]:
    if not isinstance(value, list):
        raise ConfigError(f"{where}: must be a list of status codes and words")
    out: list[int | str] = []
    for item in value:
        if isinstance(item, bool) or not isinstance(item, int | str):
            raise ConfigError(f"{where}: {item!r} is neither a status code nor a word")
        if isinstance(item, str):
            item = item.strip()
            if not item:
                raise ConfigError(f"{where}: an empty word matches everything; name the error")
            if re.fullmatch(r"-?\d+", item):
                item = int(item)
        out.append(item.lower() if isinstance(item, str) else item)
    return tuple(out)


def matches(error: AttemptError, retry_on: Sequence[int | str]) -> bool:
    """Whether this failure is one the policy retries."""
    if error.kind in (SHAPE, UNEXPECTED):
        return False
    numbers = {r for r in retry_on if isinstance(r, int)}
    if error.status in AUTH_STATUSES or error.code in AUTH_STATUSES:
        return bool(numbers & ({error.status, error.code} & AUTH_STATUSES))
    if error.status is None and _AUTH_TEXT_RE.search(error.message):
        # An error that only says so in words: retried only when 401 or 403 is listed.
        return bool(numbers & AUTH_STATUSES)
    if error.status is not None and error.status in numbers:
        return True
    if error.code is not None and error.code in numbers:
        return True
    text = error.message.lower()
    for word in (r for r in retry_on if isinstance(r, str)):
        if word == "timeout":
            if error.kind == TIMEOUT:
                return True
        elif word in ("rate limit", "rate-limit", "ratelimit", "429"):
            if error.status == 429 or _RATE_LIMIT_RE.search(error.message):
                return True
        elif word in text:
            return True
    return False


def should_retry(error: AttemptError, attempt: int, policy: RetryPolicy) -> bool:
    """Retry after `attempt` (1-based) failed with `error`?"""
    return attempt < policy.attempts and matches(error, policy.retry_on)
