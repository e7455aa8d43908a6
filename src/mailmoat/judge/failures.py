"""What a failed call means for the chain (pure): skip the model, or skip the provider.

  model gone    404 ("no endpoints found", or any API error object), 410, 400
                model_not_found / "does not exist" -> the model is put on a cooldown (24 h
                by default) and the chain moves on.
  credit        402 -> the model is put on the long cooldown (the account has no credit).
  quota         403 -> the same: a quota or a permission does not come back in a minute.
  rate limit    429 -> the model cools down for Retry-After (or a default), then is tried
                again; a very short Retry-After is waited out once.
  provider down connection errors, timeouts, 5xx, 401, and a bare 404 with no API error
                (the path is wrong, e.g. a base URL without /v1) -> the rest of this
                provider's chain is skipped for a short backoff; no model is blamed.
  bad request   any other 4xx -> this model cannot serve the request; next model, no cooldown.
  bad output    a reply that breaks the contract -> one retry, then the next model.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any


class Failure(enum.StrEnum):
    MODEL_GONE = "model_gone"
    CREDIT = "credit"
    QUOTA = "quota"
    RATE_LIMIT = "rate_limit"
    PROVIDER_DOWN = "provider_down"
    BAD_REQUEST = "bad_request"
    BAD_OUTPUT = "bad_output"


MODEL_COOLDOWN = frozenset({Failure.MODEL_GONE, Failure.CREDIT, Failure.QUOTA})

_GONE_TEXT = re.compile(
    r"no endpoints found|model[_ ]not[_ ]found|does not exist|not exist|unknown model|"
    r"no such model|model .{0,80}not (?:found|available|supported)|decommissioned|deprecated",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Classified:
    failure: Failure
    retry_after_s: float | None = None  # RATE_LIMIT / PROVIDER_DOWN, when the server said


def _error_text(body: Any) -> str:
    if isinstance(body, Mapping):
        inner = body.get("error", body)
        if isinstance(inner, Mapping):
            return " ".join(str(inner.get(k, "")) for k in ("message", "code", "type"))
        return str(inner)
    return str(body or "")


def _api_error(body: Any) -> bool:
    """An OpenAI-style error object, whole or (as the SDK hands it over) its inner part:
    the API answered, not a bare web server."""
    return isinstance(body, Mapping) and any(k in body for k in ("error", "message", "code"))


def retry_after_seconds(headers: Mapping[str, str], now: datetime) -> float | None:
    """Seconds from a Retry-After header (delta-seconds or an HTTP date), else None."""
    value = next((v for k, v in headers.items() if k.lower() == "retry-after"), None)
    if value is None:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        seconds = (when - now).total_seconds()
    if seconds != seconds or seconds < 0:  # NaN or in the past
        return 0.0
    return min(seconds, 7 * 24 * 3600.0)


def classify_status(
    status: int, body: Any, headers: Mapping[str, str], now: datetime
) -> Classified:
    text = _error_text(body)
    if status == 429:
        return Classified(Failure.RATE_LIMIT, retry_after_seconds(headers, now))
    if status == 402:
        return Classified(Failure.CREDIT)
    if status == 403:
        return Classified(Failure.QUOTA)
    if status == 404 and not _GONE_TEXT.search(text) and not _api_error(body):
        # Not the API saying "no such model" but the server saying "no such path": a base
        # URL missing its /v1, say. Blaming the model would hold every model of the chain
        # for a day, still held after the URL is fixed; the provider backoff is short.
        return Classified(Failure.PROVIDER_DOWN)
    if status in (404, 410) or (400 <= status < 500 and _GONE_TEXT.search(text)):
        return Classified(Failure.MODEL_GONE)
    if status == 401 or status >= 500 or status in (408, 409):
        # A 503 may say when to come back; the provider backoff honours it.
        return Classified(Failure.PROVIDER_DOWN, retry_after_seconds(headers, now))
    return Classified(Failure.BAD_REQUEST)
