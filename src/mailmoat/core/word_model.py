"""A word model of urgency: the second reader beside the local scorer's rules.

The rules (core/local_scorer.py) read named evidence: explicit urgency, an incident, a near
time, an ask. They are a vocabulary, and mail written by others brings words they were never
given. The word model reads every word and word pair of the same text (the folded subject
and the sender's own words, with negated and conditional urgency taken out: `Texts.scoped`)
and gives the odds that a person would call the mail urgent. It is a logistic regression
over TF-IDF weighted words and word pairs, trained offline on the labelled eval sets
(`bench/train_word_model.py`, which writes `core/word_weights.py`); here it is a sum of
weights, with no library and no I/O.

    p = 1 / (1 + exp(-(BIAS + sum(w_t * idf_t) / sqrt(sum(idf_t ** 2)))))

over the distinct known terms t of the text (unknown terms weigh nothing and do not count in
the norm). The local scorer uses p at the far ends only (`PROMOTE_AT`, `RAISE_AT`,
`VETO_AT`, `QUIET_VETO_AT`); between them the rules decide alone. The policy picks the lane,
as always, from the four numbers: a word model that reads urgency cannot push a flagged,
spam-judged, bulk or auto-replied mail, because the policy's guards stand before PUSH.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from itertools import pairwise
from operator import itemgetter
from typing import NamedTuple

from mailmoat.core.word_weights import BIAS, WEIGHTS

READ_CHARS = 1500  # the first characters read (the rules read fewer)
PROMOTE_AT = 0.7  # at or above: urgent, though the rules read no urgency
RAISE_AT = 0.8  # at or above: urgent, where the rules read a near time alone
VETO_AT = 0.05  # at or below: not urgent, though the rules read urgency ...
QUIET_VETO_AT = 0.3  # the same, in mail that says it needs no action or can wait
VETO_MIN_KNOWN = 15  # ... when the model knows this many of its terms: a line or two
# ("Action required: confirm your interview slot within 24 hours") is too little to overrule
PROMOTE_MIN_KNOWN = 10  # the same for a promotion, which only adds to what the rules read
_TERM = re.compile(r"\w\w+")  # a word of two or more letters or digits, as trained


def terms(text: str) -> set[str]:
    """The distinct words and adjacent word pairs of the first READ_CHARS of `text` (the
    folded subject and own words, in scope): what the model was trained on, and reads."""
    words = _TERM.findall(text[:READ_CHARS])
    return set(words).union(map(" ".join, pairwise(words)))


class Reading(NamedTuple):
    urgent: float  # the odds, 0..1, that a person would call the mail urgent
    known: int  # how many of its terms the model knows: how much it read


def read_urgency(text: str) -> Reading:
    """The word model's reading of the mail whose folded subject and own words, in scope,
    are `text`. A text with no known term gets the model's prior (the bias alone)."""
    return reading_of(terms(text))


def reading_of(found: set[str], weights: Mapping[str, tuple[float, float]] = WEIGHTS,
               bias: float = BIAS) -> Reading:
    """The reading of a mail's `terms` under `weights` (the training script passes the
    weights it has just fitted, before it writes them)."""
    known = weights.keys() & found
    hits = [weights[term] for term in known]
    norm = sum(map(itemgetter(1), hits))
    z = bias + (sum(map(itemgetter(0), hits)) / math.sqrt(norm) if norm else 0.0)
    return Reading(1.0 / (1.0 + math.exp(-z)) if z > -40 else 0.0, len(known))
