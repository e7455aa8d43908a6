"""Per-account settings as a validated document: mode, time zone, notification channels,
quiet hours, focus windows and the rate limit. Bad input is refused with a clear error."""

from __future__ import annotations

from datetime import time, timedelta
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, Field, field_validator

from mailmoat.notify.rules import NotifySettings, Window

APPRISE_SCHEMES_HINT = "an Apprise URL such as ntfy://topic or json://host/path"


class WindowIn(BaseModel):
    start: time
    end: time
    days: list[int] = Field(default_factory=list, description="ISO weekdays, 1 = Monday")

    @field_validator("days")
    @classmethod
    def _days(cls, value: list[int]) -> list[int]:
        if any(d < 1 or d > 7 for d in value):
            raise ValueError("days are ISO weekdays 1..7")
        return sorted(set(value))

    def window(self) -> Window:
        return Window(self.start, self.end, frozenset(self.days))


class NotifyIn(BaseModel):
    timezone: str = "UTC"
    apprise_urls: list[str] = Field(default_factory=list, max_length=20)
    quiet_hours: list[WindowIn] = Field(default_factory=list, max_length=10)
    focus_windows: list[WindowIn] = Field(default_factory=list, max_length=10)
    rate_limit: int = Field(3, ge=1, le=100)
    rate_window_minutes: int = Field(10, ge=1, le=1440)
    fresh_minutes: int = Field(30, ge=1, le=1440)

    @field_validator("timezone")
    @classmethod
    def _tz(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError(f"unknown time zone: {value!r}") from exc
        return value

    @field_validator("apprise_urls")
    @classmethod
    def _urls(cls, value: list[str]) -> list[str]:
        for url in value:
            if "://" not in url or len(url) > 2000 or any(c.isspace() for c in url):
                raise ValueError(f"not {APPRISE_SCHEMES_HINT}")
        return value

    def rules(self, muted: frozenset[str] = frozenset()) -> NotifySettings:
        return NotifySettings(
            quiet_hours=tuple(w.window() for w in self.quiet_hours),
            focus_windows=tuple(w.window() for w in self.focus_windows),
            rate_limit=self.rate_limit,
            rate_window=timedelta(minutes=self.rate_window_minutes),
            fresh_for=timedelta(minutes=self.fresh_minutes),
            muted_senders=muted,
        )


class AccountSettings(BaseModel):
    mode: Literal["SUGGEST", "AUTO"] = "SUGGEST"
    notify: NotifyIn = Field(default_factory=NotifyIn)

    @classmethod
    def load(cls, data: dict[str, Any]) -> AccountSettings:
        """Stored settings; a document that no longer validates falls back to defaults."""
        try:
            return cls.model_validate(data)
        except ValueError:
            return cls()


def mask_url(url: str) -> str:
    """An Apprise URL carries tokens: show the scheme and host only."""
    scheme, _, rest = url.partition("://")
    host = rest.split("/", 1)[0].rsplit("@", 1)[-1]
    return f"{scheme}://{host}/…" if host else f"{scheme}://…"
