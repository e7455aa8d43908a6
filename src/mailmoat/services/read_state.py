"""Read and unread, as the person sets them: opening a message in the web page marks it
read, and a toggle marks it read or unread again. On an IMAP account the server's \\Seen
flag follows through the reversible-action path (act/reversible.py): the person's toggle
is a mark_read / mark_unread action they approve by making it, which the worker applies on
the server at its next pass (recorded, idempotent, waiting for the message's location when
it has none yet). No second writer to the server."""

from __future__ import annotations

from mailmoat.accounts.registry import AccountError, get_account
from mailmoat.act.service import ActionService
from mailmoat.core.actions import ActionType
from mailmoat.store.messages import Store
from mailmoat.store.repos import Repos


def on_imap(store: Store, account: str) -> bool:
    """A configured mailbox (the sync's accounts), not mail imported from files."""
    try:
        return get_account(store, account).id is not None
    except AccountError:
        return False


def set_read(repos: Repos, actions: ActionService, account: str, message_id: int,
             read: bool, actor: str) -> bool:
    """Mark the account's message read or unread; on an IMAP account also queue the same on
    the server. True when the state changed (nothing is queued when it did not)."""
    if not repos.read_state.set(message_id, account, read):
        return False
    if on_imap(repos.store, account):
        kind = ActionType.MARK_READ if read else ActionType.MARK_UNREAD
        made = actions.propose(account, {"action": kind.value, "message": message_id}, actor,
                               "web")
        actions.approve(int(made["id"]), actor)
    return True
