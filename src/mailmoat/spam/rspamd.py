"""A small client for rspamd's HTTP protocol (`POST /checkv2` on the normal worker).

The score is a fact for the policy (`core.policy.Facts.spam_score`): rspamd reads the whole
message with rules a sender does not write. The client talks to loopback or a host the
person configured (`MAILMOAT_RSPAMD_URL`, e.g. http://127.0.0.1:11333); when the engine is
absent, slow or answers nonsense, `check` raises `SpamEngineUnavailable` and the caller
decides without it. Nothing here decides a lane.
"""

from __future__ import annotations

import json
import math
import os
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

ENV_URL = "MAILMOAT_RSPAMD_URL"
DEFAULT_TIMEOUT = 5.0
MAX_SYMBOLS = 20


class SpamEngineUnavailable(Exception):
    """rspamd could not be asked, or its answer could not be read."""


@dataclass(frozen=True, slots=True)
class EngineVerdict:
    score: float
    required_score: float | None
    action: str  # "no action", "greylist", "add header", "rewrite subject", "reject" ...
    symbols: tuple[str, ...]  # the rules that fired (not the negative ones), highest first

    def as_dict(self) -> dict[str, object]:
        return {"score": self.score, "required_score": self.required_score,
                "action": self.action, "symbols": list(self.symbols)}


def _number(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise SpamEngineUnavailable(f"rspamd answered a non-number {name}")
    return float(value)


def parse_reply(body: bytes) -> EngineVerdict:
    """Read a /checkv2 JSON reply; anything malformed raises SpamEngineUnavailable."""
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError) as exc:
        raise SpamEngineUnavailable("rspamd answered something that is not JSON") from exc
    if not isinstance(data, dict) or "score" not in data:
        raise SpamEngineUnavailable("rspamd's answer has no score")
    required = data.get("required_score")
    raw_symbols = data.get("symbols")
    symbols: dict[Any, Any] = raw_symbols if isinstance(raw_symbols, dict) else {}
    ranked = sorted(
        ((str(name), s.get("score", 0.0)) for name, s in symbols.items() if isinstance(s, dict)
         and isinstance(s.get("score", 0.0), int | float)),
        key=lambda pair: -float(pair[1]))
    return EngineVerdict(
        score=_number(data["score"], "score"),
        required_score=None if required is None else _number(required, "required_score"),
        action=str(data.get("action", ""))[:40],
        symbols=tuple(name[:64] for name, score in ranked[:MAX_SYMBOLS] if score >= 0),
    )


@dataclass(frozen=True, slots=True)
class RspamdClient:
    url: str  # base URL of the normal worker, e.g. http://127.0.0.1:11333
    timeout: float = DEFAULT_TIMEOUT

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> RspamdClient | None:
        """The configured engine, or None when `MAILMOAT_RSPAMD_URL` is unset."""
        url = (environ if environ is not None else os.environ).get(ENV_URL, "").strip()
        return cls(url.rstrip("/")) if url else None

    def check(self, raw: bytes) -> EngineVerdict:
        request = urllib.request.Request(
            f"{self.url}/checkv2", data=raw, method="POST",
            headers={"Content-Type": "message/rfc822"})
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as reply:
                body = reply.read(1024 * 1024)
        except (urllib.error.URLError, OSError, ValueError) as exc:
            raise SpamEngineUnavailable(f"rspamd at {self.url} unreachable: "
                                        f"{type(exc).__name__}") from exc
        return parse_reply(body)

    def ping(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/ping", timeout=self.timeout) as reply:
                return reply.read(64).strip() == b"pong"
        except (urllib.error.URLError, OSError, ValueError):
            return False
