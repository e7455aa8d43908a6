"""The local learned scorer: the local scorer's features, nudged by what the user taught.

It plugs into the cascade (judge/cascade.py's Scorer protocol) in the local scorer's place.
The model's prediction may only move features toward visibility:

* predicted PUSH  -> urgency and confidence raised to just past the PUSH thresholds;
* predicted QUEUE or MEETING -> urgency brought into [info_max_urgency, push_urgency),
  sender trust raised to auto_min_trust: visible, calm, never hidden;
* predicted INFO or SILENT, or any prediction below `min_probability`, or a model that
  has learned from fewer than `min_corrections` corrected messages (a person's lane
  changes; messages read and left alone teach it but do not count) -> the local features
  unchanged. The count is of messages, not of training steps: five epochs over four
  corrections are still four.

Then a final guard: if the nudged features would land in a hidden lane other than the one
the local features land in, the local features are returned. So the learned scorer is never the
only reason a message is hidden (invariant 4); only the static rules or a pin can hide.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from mailmoat.core.features import Features
from mailmoat.core.lanes import HIDDEN_LANES, Lane
from mailmoat.core.local_scorer import Scored, score_local
from mailmoat.core.message import Message
from mailmoat.core.policy import THRESHOLDS, Facts, Thresholds, decide
from mailmoat.core.signals import Signals
from mailmoat.learn.model import LinearModel, featurize

LEARNED_SOURCE = "learned"
NUDGE = 0.05
MIN_CORRECTIONS = 20  # corrected messages learned before the scorer answers at all


def nudge(local: Features, lane: Lane, t: Thresholds = THRESHOLDS) -> Features:
    """Features moved toward `lane`, only ever toward a visible lane."""
    if lane is Lane.PUSH:
        return replace(
            local,
            urgency=max(local.urgency, min(1.0, t.push_urgency + NUDGE)),
            confidence=max(local.confidence, min(1.0, t.push_confidence + NUDGE)),
        )
    if lane in (Lane.QUEUE, Lane.MEETING):
        calm = max(t.info_max_urgency, min(local.urgency, t.push_urgency - NUDGE))
        return replace(
            local,
            urgency=calm,
            confidence=max(local.confidence, t.min_confidence),
            sender_trust=max(local.sender_trust, t.auto_min_trust, t.silent_max_trust + NUDGE),
        )
    return local  # INFO / SILENT: learning never hides


@dataclass
class LearnedScorer:
    model: LinearModel
    min_probability: float = 0.7
    min_corrections: int = MIN_CORRECTIONS
    thresholds: Thresholds = THRESHOLDS
    name: str = LEARNED_SOURCE

    def score(self, message: Message, signals: Signals, facts: Facts) -> Scored:
        return self.score_on(score_local(message, signals), message, signals, facts)

    def score_on(self, local: Scored, message: Message, signals: Signals,
                 facts: Facts) -> Scored:
        """`score`, given the local scorer's answer for this message (judge/cascade.py
        hands it over when it was computed ahead)."""
        if self.model.corrections < self.min_corrections:
            return local
        lane, probability = self.model.predict(featurize(message, signals, local.features))
        if probability < self.min_probability:
            return local
        features = nudge(local.features, lane, self.thresholds)
        if features == local.features:
            return local
        if self._lane(features, signals, facts) in HIDDEN_LANES and self._lane(
            features, signals, facts
        ) != self._lane(local.features, signals, facts):
            return local  # belt and braces: nudges never hide, and this proves it per message
        reason = f"{local.reason}; learned: {lane.value} ({probability:.2f})"
        return Scored(features=features, reason=reason, source=LEARNED_SOURCE)

    def _lane(self, features: Features, signals: Signals, facts: Facts) -> Lane:
        return decide(features, signals, facts, self.thresholds).lane
