"""Each mail account's settings (mode, notifications) as one JSON document. The Apprise URLs in
it carry tokens: each is sealed (context `apprise:<account>`) with the key ring; plain-text
URLs stored by an older version are sealed when next read."""

from __future__ import annotations

from typing import Any

from mailmoat.store.db import now
from mailmoat.store.messages import Store
from mailmoat.store.secrets import Sealer, is_sealed, need
from mailmoat.store.tables.web import AccountSettingsRow


def _apprise_urls(data: dict[str, Any]) -> list[str]:
    notify = data.get("notify")
    urls = notify.get("apprise_urls") if isinstance(notify, dict) else None
    return [u for u in urls if isinstance(u, str)] if isinstance(urls, list) else []


def _with_urls(data: dict[str, Any], urls: list[str]) -> dict[str, Any]:
    return {**data, "notify": {**data["notify"], "apprise_urls": urls}}


class Settings:
    def __init__(self, store: Store, sealer: Sealer | None = None) -> None:
        self.sessions = store.sessions
        self.sealer = sealer

    def get(self, account: str) -> dict[str, Any]:
        """The account's settings, Apprise URLs opened."""
        with self.sessions() as s:
            row = s.get(AccountSettingsRow, account)
            data = dict(row.data) if row else {}
        urls = _apprise_urls(data)
        if not urls:
            return data
        sealer, context = need(self.sealer), f"apprise:{account}"
        opened = [sealer.open(u, context) if is_sealed(u) else u for u in urls]
        if not all(is_sealed(u) for u in urls):
            self.save(account, _with_urls(data, opened))
        return _with_urls(data, opened)

    def save(self, account: str, data: dict[str, Any]) -> None:
        urls = _apprise_urls(data)
        if urls:
            sealer, context = need(self.sealer), f"apprise:{account}"
            data = _with_urls(data, [u if is_sealed(u) else sealer.seal(u, context)
                                     for u in urls])
        with self.sessions.begin() as s:
            s.merge(AccountSettingsRow(account=account, data=data, updated_at=now()))
