"""A small linear model over hashed words and header features, trained incrementally.

Multinomial logistic regression (softmax) fitted by plain SGD on sparse features: the
words of the subject and the opening of the body, the sender's address and domain, the
deterministic signals, provider labels and a few header facts, each hashed into
N_BUCKETS. Pure Python, CPU only: one update touches ~100 weights, so thousands of
corrections train in well under a second. Deterministic: weights start at zero, hashing
is crc32 (not Python's salted hash), and the only randomness — the epoch shuffle in `fit`
— comes from a seeded `random.Random`.

The model predicts a lane distribution. It never decides a lane: LearnedScorer turns a
prediction into features, and the policy decides.
"""

from __future__ import annotations

import math
import random
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from mailmoat.core.features import Features
from mailmoat.core.lanes import Lane
from mailmoat.core.local_scorer import OPENING_CHARS, score_local
from mailmoat.core.message import Message
from mailmoat.core.policy import decide
from mailmoat.core.signals import Signals
from mailmoat.core.words import words

LANES: tuple[Lane, ...] = tuple(Lane)
N_BUCKETS = 1 << 18
SUBJECT_WORDS = 40
BODY_WORDS = 120


def _bucket(token: str) -> int:
    return zlib.crc32(token.encode("utf-8", "surrogatepass")) % N_BUCKETS


def featurize(
    message: Message, signals: Signals, static: Features | None = None
) -> tuple[int, ...]:
    """The sorted, de-duplicated feature buckets of one message. `static` is the local
    scorer's features for it, when the caller has them already (computed here otherwise)."""
    tokens = ["bias"]
    tokens += [f"s:{w}" for w in words(message.subject, SUBJECT_WORDS)]
    tokens += [f"b:{w}" for w in words(message.body_text[:OPENING_CHARS * 2], BODY_WORDS)]
    if message.from_addr:
        tokens.append(f"from:{message.from_addr}")
        tokens.append(f"dom:{message.from_domain}")
    tokens += [f"sig:{name}" for name in signals.names()]
    # What the static path would do, so the model learns where it is right, not only misses.
    static = score_local(message, signals).features if static is None else static
    tokens.append(f"static:{decide(static, signals).lane.value}")
    tokens.append(f"urgency:{round(static.urgency, 1)}")
    tokens += [f"label:{label.casefold()}" for label in message.labels[:20]]
    tokens += [f"hdr:{name.casefold()}" for name in message.bulk_headers]
    if message.list_id:
        tokens.append("hdr:list-id")
    if message.auto_submitted:
        tokens.append("hdr:auto-submitted")
    if message.in_reply_to or message.references:
        tokens.append("hdr:reply")
    if message.attachments:
        tokens.append("hdr:attachment")
    if message.calendar_parts:
        tokens.append("hdr:calendar")
    return tuple(sorted({_bucket(t) for t in tokens}))


@dataclass(frozen=True, slots=True)
class Labelled:
    buckets: tuple[int, ...]
    lane: Lane
    weight: float = 1.0  # a person's correction may count more than a silent confirmation
    corrected: bool = False  # labelled by a person's lane change (not a silent confirmation)


def _softmax(scores: Sequence[float]) -> list[float]:
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]


@dataclass
class LinearModel:
    learning_rate: float = 0.2
    l2: float = 1e-4
    weights: dict[int, list[float]] = field(default_factory=dict)
    updates: int = 0  # SGD steps taken (one per example per epoch)
    corrections: int = 0  # distinct corrected examples learned (each counted once)

    def scores(self, buckets: Iterable[int]) -> list[float]:
        total = [0.0] * len(LANES)
        for b in buckets:
            row = self.weights.get(b)
            if row is not None:
                for k in range(len(LANES)):
                    total[k] += row[k]
        return total

    def predict_proba(self, buckets: Iterable[int]) -> dict[Lane, float]:
        return dict(zip(LANES, _softmax(self.scores(buckets)), strict=True))

    def predict(self, buckets: Iterable[int]) -> tuple[Lane, float]:
        probs = self.predict_proba(buckets)
        lane = max(LANES, key=lambda lane: (probs[lane], -LANES.index(lane)))
        return lane, probs[lane]

    def partial_fit(self, examples: Iterable[Labelled]) -> None:
        """One SGD step per example, in the order given: learning as corrections arrive."""
        for ex in examples:
            self._step(ex)
            self.corrections += ex.corrected

    def _step(self, ex: Labelled) -> None:
        probs = _softmax(self.scores(ex.buckets))
        target = LANES.index(ex.lane)
        step = self.learning_rate * ex.weight
        for b in ex.buckets:
            row = self.weights.setdefault(b, [0.0] * len(LANES))
            for k in range(len(LANES)):
                gradient = probs[k] - (1.0 if k == target else 0.0)
                row[k] -= step * (gradient + self.l2 * row[k])
        self.updates += 1

    def fit(self, examples: Sequence[Labelled], epochs: int = 5, seed: int = 0) -> None:
        """Train from scratch: zero weights, `epochs` passes, order shuffled by `seed`."""
        self.weights = {}
        self.updates = 0
        rng = random.Random(seed)
        order = list(examples)
        for _ in range(epochs):
            rng.shuffle(order)
            for ex in order:
                self._step(ex)
        self.corrections = sum(ex.corrected for ex in order)  # epochs see the same ones
