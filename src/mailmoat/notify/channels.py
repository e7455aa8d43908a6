"""Where notifications go: Apprise URLs (ntfy, Telegram, e-mail, JSON webhooks, …) and
browser Web Push. Adapters only: they send what they are given and report success."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass

import apprise
from py_vapid import Vapid01
from pywebpush import WebPushException, webpush

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Note:
    title: str
    body: str
    url: str = ""  # where tapping the notification leads
    later_url: str = ""
    mute_url: str = ""


def _text(note: Note) -> str:
    lines = [note.body]
    if note.url:
        lines.append(f"Open: {note.url}")
    if note.later_url:
        lines.append(f"Later: {note.later_url}")
    if note.mute_url:
        lines.append(f"Mute sender: {note.mute_url}")
    return "\n".join(lines)


def send_apprise(urls: Sequence[str], note: Note) -> bool:
    """True when at least one URL accepted the notification. URLs carry tokens: never logged."""
    if not urls:
        return False
    sender = apprise.Apprise()
    for url in urls:
        if not sender.add(url):
            log.warning("an Apprise URL was refused (scheme %s)", url.split("://", 1)[0])
    if len(sender) == 0:
        return False
    return bool(sender.notify(title=note.title, body=_text(note)))


def push_payload(note: Note) -> str:
    """The JSON the service worker (entrypoints/web/static/sw.js) reads: title, body and
    three links."""
    return json.dumps({"title": note.title, "body": note.body, "url": note.url,
                       "later": note.later_url, "mute": note.mute_url})


def send_webpush(subscriptions: Sequence[dict[str, object]], note: Note, key: Vapid01,
                 contact: str = "mailto:mailmoat@localhost") -> list[str]:
    """Push to each subscription; returns the endpoints that are gone (404/410) to forget."""
    gone: list[str] = []
    payload = push_payload(note)
    for sub in subscriptions:
        try:
            webpush(sub, payload, vapid_private_key=key, vapid_claims={"sub": contact},
                    timeout=10)
        except WebPushException as exc:
            status = exc.response.status_code if exc.response is not None else None
            if status in (404, 410):
                gone.append(str(sub["endpoint"]))
            log.warning("web push failed with status %s", status)
    return gone
