"""Ingest: parse -> sender facts -> classify -> save, for every way mail arrives (import,
IMAP sync, the demo mailbox, the eval bridge).

The store saves a batch in one transaction and asks a `Decider` for each new message's
trace inside it; this is that decider. Sender facts (history, pins, learned rules) come from
learn/, the lane from judge/'s cascade, so the store itself never decides.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.orm import Session

from mailmoat.core.message import Message, parse_message
from mailmoat.core.policy import Facts
from mailmoat.judge.cascade import classify
from mailmoat.learn.history import load_sender_facts, record_sent_recipients
from mailmoat.store.messages import Store


class CascadeDecider:
    """The store's decider: the account's sender facts, then the scorer cascade."""

    def decide(self, session: Session, account: str, todo: Sequence[tuple[Message, Any]],
               scorers: Sequence[Any], now: datetime) -> list[dict[str, Any]]:
        facts = load_sender_facts(session, account, [m.from_addr for m, _ in todo], now)
        traces: list[dict[str, Any]] = []
        for message, perception in todo:
            sender = facts.get(message.from_addr)
            trace = classify(message, sender.to_policy() if sender else Facts(), scorers,
                             account=account, perception=perception)
            traces.append(trace.as_dict())
        return traces

    def after_save(self, session: Session, account: str,
                   sent: Sequence[tuple[int, Message]]) -> None:
        # Who the user writes to is a sender fact for their replies (learn/history.py).
        record_sent_recipients(session, account, list(sent))




DECIDER = CascadeDecider()


def judge_one(store: Store, raw: bytes, account: str) -> dict[str, Any]:
    """Judge one message as `account` would on arrival (its pins, rules and sender facts, the
    store's scorers), without saving it: `mailmoat classify FILE --account A`."""
    message = parse_message(raw)
    with store.sessions() as session:
        (trace,) = DECIDER.decide(session, account, [(message, None)], store.scorers,
                                  datetime.now(UTC))
    return trace
