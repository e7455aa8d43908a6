"""Messages as `mailmoat list` and `mailmoat show` print them: summaries with their ids, and
one message with its decision, trace, sender facts and pending actions."""

from __future__ import annotations

from typing import Any

from mailmoat.act.service import ActionService
from mailmoat.core.lanes import Lane
from mailmoat.learn.service import Learning
from mailmoat.store.messages import Store


def list_messages(store: Store, lane: Lane | None = None, account: str | None = None,
                  limit: int = 50) -> list[dict[str, Any]]:
    """Newest first, across lanes and accounts unless narrowed; each with its account."""
    found: list[dict[str, Any]] = []
    for name in [account] if account is not None else store.accounts():
        for each in [lane] if lane is not None else list(Lane):
            for summary in store.list_messages(each.value, account=name, limit=limit):
                found.append({"account": name, **summary})
    found.sort(key=lambda m: m["id"], reverse=True)
    return found[:limit]


def show_message(store: Store, message_id: int) -> dict[str, Any] | None:
    """One message: who, what, its decision and trace, what is known about the sender (the
    facts the policy reads), and the actions proposed in reply that wait for a person."""
    account = store.account_of(message_id)
    if account is None:
        return None
    message = store.get_message(message_id, account)
    if message is None:
        return None
    trace = message["trace"]
    facts = Learning(store, account).facts(message["from_addr"])
    return {
        **{k: message[k] for k in ("id", "account", "origin", "folder", "from_name",
                                   "from_addr", "to", "subject", "date", "lane", "stale")},
        "decision": {k: trace.get(k) for k in ("lane", "reason", "branch", "source",
                                               "auto_eligible", "policy_version")},
        "trace": trace,
        "facts": facts.as_dict(),
        "pending_actions": ActionService(store.engine).for_message(message_id),
    }
