"""Ingest: parse -> sender facts -> classify -> save, for every way mail arrives (import,
IMAP sync, the demo mailbox, the eval bridge).

The store saves a batch in one transaction and asks a `Decider` for each new message's
trace inside it; this is that decider. Sender facts (history, pins, learned rules) come from
learn/, the lane from judge/'s cascade, so the store itself never decides.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any, Literal

from sqlalchemy.orm import Session

from mailmoat.core.message import Message, parse_message
from mailmoat.core.policy import Facts
from mailmoat.judge.cascade import classify
from mailmoat.learn.history import load_sender_facts, record_sent_recipients
from mailmoat.spam.rspamd import RspamdClient, SpamEngineUnavailable
from mailmoat.store.messages import Store

log = logging.getLogger(__name__)


class CascadeDecider:
    """The store's decider: the account's sender facts, the local spam engine's score when
    one is configured (MAILMOAT_RSPAMD_URL, docs/policy.md), then the scorer cascade."""

    def __init__(self, engine: RspamdClient | Literal["env"] | None = "env") -> None:
        self._engine = engine

    def engine(self) -> RspamdClient | None:
        if self._engine == "env":
            self._engine = RspamdClient.from_env()
        return self._engine

    def decide(self, session: Session, account: str, todo: Sequence[tuple[Message, Any]],
               scorers: Sequence[Any], now: datetime,
               spam_scores: Sequence[float | None] = (),
               raws: Sequence[bytes] = ()) -> list[dict[str, Any]]:
        facts = load_sender_facts(session, account, [m.from_addr for m, _ in todo], now)
        scores = self._scores(todo, spam_scores, raws)
        traces: list[dict[str, Any]] = []
        for (message, perception), score in zip(todo, scores, strict=True):
            sender = facts.get(message.from_addr)
            known = sender.to_policy() if sender else Facts()
            if score is not None:  # the spam engine's verdict, a fact content cannot author
                known = replace(known, spam_score=score)
            trace = classify(message, known, scorers, account=account, perception=perception)
            traces.append(trace.as_dict())
        return traces

    def _scores(self, todo: Sequence[Any], given: Sequence[float | None],
                raws: Sequence[bytes]) -> list[float | None]:
        scores = [given[n] if n < len(given) else None for n in range(len(todo))]
        engine = self.engine()
        if engine is None or len(raws) != len(todo):
            return scores
        for n, raw in enumerate(raws):
            if scores[n] is not None:
                continue
            try:
                scores[n] = engine.check(raw).score
            except SpamEngineUnavailable as exc:
                # Down or refusing: the batch is decided without it (invariant 6), and the
                # rest of the batch does not wait on the same failure message by message.
                log.warning("spam engine skipped for this batch: %s", exc)
                break
        return scores

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
