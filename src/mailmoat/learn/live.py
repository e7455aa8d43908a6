"""The learned scorer on a store: the default no-model scorer (services/bootstrap.py scorers_for).

On first use it trains from the store's history (learn/training.py, fixed seed); from then
on, at most every `refresh_s` seconds, it learns the lane changes recorded since — by any
process: the web app, the CLI, another worker — one `partial_fit` step each; an undo since
the last look (or a rule removal) means a full retrain without the withdrawn corrections.
Until the model has learned from enough corrected messages it answers exactly what the local
scorer answers (LearnedScorer's `min_corrections`), and it never hides anything the local
scorer shows (learn/scorer.py).

It never raises ScorerUnavailable: with no model configured there is nothing to degrade
from, so an error while learning (the database, a stored message) is logged and the
current model keeps scoring.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from sqlalchemy import Engine
from sqlalchemy.orm import sessionmaker

from mailmoat.core.local_scorer import Scored, score_local
from mailmoat.core.message import Message
from mailmoat.core.policy import Facts
from mailmoat.core.signals import Signals
from mailmoat.learn.model import LinearModel
from mailmoat.learn.scorer import LEARNED_SOURCE, LearnedScorer
from mailmoat.learn.training import (
    corrections_since,
    newest_correction,
    newest_undo,
    training_examples,
)

log = logging.getLogger(__name__)

REFRESH_S = 30.0  # how stale a long-running process may be about corrections made elsewhere


class LiveLearnedScorer:
    name = LEARNED_SOURCE

    def __init__(
        self,
        engine: Engine,
        account: str | None = None,
        seed: int = 0,
        epochs: int = 5,
        refresh_s: float = REFRESH_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        # account None learns from every account in the store; the cascade asks for the
        # message's account (`for_account`), so each mailbox learns from its own person only.
        self.engine = engine
        self.sessions = sessionmaker(engine)
        self.account = account
        self.seed = seed
        self.epochs = epochs
        self.refresh_s = refresh_s
        self.clock = clock
        self.scorer = LearnedScorer(LinearModel())
        self.trained = False
        self.last_correction = 0
        self.last_undo = 0
        self._checked: float | None = None
        self._lock = threading.Lock()
        self._accounts: dict[str, LiveLearnedScorer] = {}

    def for_account(self, account: str) -> LiveLearnedScorer:
        """The scorer for one mail account: its own model, trained on that account's
        corrections and reads alone (one user's corrections never steer another's mail)."""
        if account == self.account:
            return self
        with self._lock:
            found = self._accounts.get(account)
            if found is None:
                found = LiveLearnedScorer(self.engine, account, self.seed, self.epochs,
                                          self.refresh_s, self.clock)
                self._accounts[account] = found
            return found

    def score(self, message: Message, signals: Signals, facts: Facts) -> Scored:
        return self.score_on(score_local(message, signals), message, signals, facts)

    def score_on(self, local: Scored, message: Message, signals: Signals,
                 facts: Facts) -> Scored:
        with self._lock:  # web threads and sync threads share one model
            self._refresh()
            return self.scorer.score_on(local, message, signals, facts)

    def refresh(self) -> None:
        """Learn what was recorded since the last look, now (tests, and after a bulk edit)."""
        with self._lock:
            self._checked = None
            self._refresh()

    def _refresh(self) -> None:
        now = self.clock()
        if self._checked is not None and now - self._checked < self.refresh_s:
            return
        self._checked = now
        try:
            with self.sessions() as session:
                undo = newest_undo(session, self.account)
                if not self.trained or undo > self.last_undo:
                    newest = newest_correction(session, self.account)
                    model = LinearModel()
                    model.fit(training_examples(session, self.account),
                              epochs=self.epochs, seed=self.seed)
                    self.scorer.model, self.last_correction, self.trained = model, newest, True
                    self.last_undo = undo
                    return
                fresh, self.last_correction = corrections_since(
                    session, self.account, self.last_correction)
        except Exception:  # learning must never stop classification (invariant 6)
            log.exception("learned scorer could not learn from the store; scoring with what "
                          "it has")
            return
        self.scorer.model.partial_fit(fresh)
