"""A read-only ICS feed URL (a published calendar): fetched whole, bounded in size, and only
re-read when its ETag / Last-Modified says it changed."""

from __future__ import annotations

from dataclasses import dataclass

import httpx

from mailmoat.calendar.caldav_source import SyncBatch
from mailmoat.calendar.events import split_feed

MAX_FEED_BYTES = 20 * 1024 * 1024
TIMEOUT = 20.0


class FeedError(RuntimeError):
    def __init__(self, stage: str, message: str) -> None:
        super().__init__(f"{stage}: {message}")
        self.stage = stage


@dataclass
class FeedSource:
    url: str
    zone: str = "UTC"
    username: str = ""
    password: str | None = None
    note: str = ""

    def __repr__(self) -> str:
        return f"FeedSource({self.url!r})"

    def fetch(self, validator: str | None) -> SyncBatch:
        """`validator` is the last ETag (or Last-Modified); unchanged: no events, full=False."""
        headers = {"Accept": "text/calendar"}
        if validator and validator.startswith("lm:"):
            headers["If-Modified-Since"] = validator[3:]
        elif validator:
            headers["If-None-Match"] = validator
        auth = (self.username, self.password) if self.password else None
        try:
            with httpx.Client(timeout=TIMEOUT, follow_redirects=True, auth=auth) as client, \
                    client.stream("GET", self.url, headers=headers) as response:
                if response.status_code == 304:
                    return SyncBatch(token=validator, full=False)
                if response.status_code in (401, 403):
                    raise FeedError("auth", f"the feed answered {response.status_code}")
                if response.status_code != 200:
                    raise FeedError("read", f"the feed answered {response.status_code}")
                chunks: list[bytes] = []
                size = 0
                for chunk in response.iter_bytes():
                    size += len(chunk)
                    if size > MAX_FEED_BYTES:
                        raise FeedError("read", f"the feed is larger than {MAX_FEED_BYTES} "
                                        "bytes; nothing was read")
                    chunks.append(chunk)
                etag = response.headers.get("ETag")
                modified = response.headers.get("Last-Modified")
        except httpx.HTTPError as exc:
            raise FeedError("connect", f"{type(exc).__name__}: {str(exc)[:200]}") from None
        text = b"".join(chunks).decode("utf-8", "replace")
        if "BEGIN:VCALENDAR" not in text[:4096].upper():
            raise FeedError("read", "the URL did not return a calendar (no BEGIN:VCALENDAR)")
        events, self.note = split_feed(text, self.zone)
        return SyncBatch(events=events, token=etag or (f"lm:{modified}" if modified else None),
                         full=True)
