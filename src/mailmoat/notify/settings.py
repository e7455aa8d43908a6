"""Per-account settings as a validated document: mode, time zone, notification channels,
quiet hours, focus windows and the rate limit. Bad input is refused with a clear error."""

from __future__ import annotations

from datetime import time, timedelta
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from pydantic import BaseModel, Field, field_validator

from mailmoat.notify.rules import NotifySettings, Window

APPRISE_SCHEMES_HINT = "an Apprise URL such as ntfy://topic or json://host/path"
# The schema states every constraint, so a client (and the contract tests) can know in advance
# what will be accepted.
ZONES = sorted(available_timezones() | {"UTC"})
Weekday = Annotated[int, Field(ge=1, le=7)]
# Printable ASCII only (Apprise URLs are percent-encoded); `\S` differs between Python and
# the ECMA regexes OpenAPI clients use (U+0085 is a space to one and not the other).
AppriseUrl = Annotated[str, Field(pattern=r"^[a-z][a-z0-9+.-]*://[!-~]+$", max_length=2000,
                                  description=APPRISE_SCHEMES_HINT)]


class WindowIn(BaseModel):
    start: time = Field(description="local wall-clock time; a UTC offset, if given, is ignored")
    end: time
    days: list[Weekday] = Field(default_factory=list, max_length=7,
                                description="ISO weekdays, 1 = Monday; empty = every day")

    @field_validator("start", "end")
    @classmethod
    def _wall_clock(cls, value: time) -> time:
        return value.replace(tzinfo=None)

    @field_validator("days")
    @classmethod
    def _days(cls, value: list[int]) -> list[int]:
        return sorted(set(value))

    def window(self) -> Window:
        return Window(self.start, self.end, frozenset(self.days))


class NotifyIn(BaseModel):
    timezone: str = Field("UTC", json_schema_extra={"enum": [*ZONES]})
    apprise_urls: list[AppriseUrl] = Field(default_factory=list, max_length=20)
    quiet_hours: list[WindowIn] = Field(default_factory=list, max_length=10)
    focus_windows: list[WindowIn] = Field(default_factory=list, max_length=10)
    rate_limit: int = Field(3, ge=1, le=100)
    rate_window_minutes: int = Field(10, ge=1, le=1440)
    fresh_minutes: int = Field(30, ge=1, le=1440)
    daily_digest_hour: int | None = Field(
        None, ge=0, le=23, description="local hour from which the daily digest (approvals "
        "waiting, what was filed and silenced) goes out once a day; unset: no daily digest")

    @field_validator("timezone")
    @classmethod
    def _tz(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError(f"unknown time zone: {value!r}") from exc
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


class AccountNotifySettings(BaseModel):
    mode: Literal["SUGGEST", "AUTO"] = "SUGGEST"
    # no pydantic mypy plugin: mypy does not see NotifyIn's field defaults
    notify: NotifyIn = Field(default_factory=NotifyIn)  # type: ignore[arg-type]  # see above

    @classmethod
    def load(cls, data: dict[str, Any]) -> AccountNotifySettings:
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
