"""Who may read what, composed from the accounts and the store: the mail accounts the first
person is given (the web's /setup and `mailmoat user add` alike)."""

from __future__ import annotations

from mailmoat.accounts.registry import list_accounts
from mailmoat.store.messages import Store


def default_accounts(store: Store) -> list[str]:
    """What the first user may read: imported/demo mail ("local") and every mail account."""
    return ["local", *(a.name for a in list_accounts(store))]
