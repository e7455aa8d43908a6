"""Redaction: what goes into a receipt, a summary or an error never carries a secret.

Three layers, applied to every string value on the way out:
1. known values: every expanded `${VAR}`, environment and header value of the config (and any
   other value the caller names) is replaced wherever it appears, also inside longer text;
2. secret-looking keys (authorization, cookie, token, password, secret, api key, ...) have their
   values replaced whatever they hold;
3. secret-looking text: `Bearer ...`/`Basic ...` credentials, `Authorization:` header lines,
   `password=`/`token=` pairs and URL user-info.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

MASK = "[redacted]"
_MIN_SECRET_LEN = 4  # shorter values ("1", "on") would shred ordinary text and are not secrets

SECRET_KEY_RE = re.compile(
    r"(authori[sz]ation|cookie|token|passw(or)?d|passphrase|secret|api[-_]?key|access[-_]?key|"
    r"private[-_]?key|credential|session[-_]?id|signature)",
    re.IGNORECASE,
)
_TEXT_PATTERNS = (
    # An Authorization/Cookie header line, whole value.
    (re.compile(r"(?i)\b((?:proxy-)?authorization|cookie|set-cookie)(\s*[:=]\s*)[^\r\n,;}\"']+"),
     lambda m: f"{m.group(1)}{m.group(2)}{MASK}"),
    (re.compile(r"(?i)\b(bearer|basic|token)\s+[A-Za-z0-9._~+/=-]{6,}"),
     lambda m: f"{m.group(1)} {MASK}"),
    (re.compile(
        r"(?i)\b([\w-]*(?:token|passw(?:or)?d|secret|api[-_]?key)[\w-]*)(\s*[=:]\s*)"
        r"(\"?)[^\s\"&,;}]+"),
     lambda m: f"{m.group(1)}{m.group(2)}{m.group(3)}{MASK}"),
    (re.compile(r"(?i)\b(https?://)[^/\s:@]+(?::[^/\s@]*)?@"), lambda m: f"{m.group(1)}{MASK}@"),
)


class Redactor:
    """Scrubs known secret values and secret-looking text from nested JSON-like data."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        values = {s for s in secrets if isinstance(s, str) and len(s) >= _MIN_SECRET_LEN}
        # Longest first, so a secret that contains another is replaced whole.
        self._values = sorted(values, key=len, reverse=True)

    def text(self, value: str) -> str:
        for secret in self._values:
            if secret in value:
                value = value.replace(secret, MASK)
        for pattern, repl in _TEXT_PATTERNS:
            value = pattern.sub(repl, value)
        return value

    def data(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            out: dict[str, Any] = {}
            for k, v in value.items():
                key = str(k)  # keys are names (ours or a schema's), not values
                if SECRET_KEY_RE.search(str(k)) and v not in (None, "", [], {}):
                    out[key] = MASK if not isinstance(v, bool | int | float) else v
                else:
                    out[key] = self.data(v)
            return out
        if isinstance(value, list | tuple):
            return [self.data(v) for v in value]
        return value
