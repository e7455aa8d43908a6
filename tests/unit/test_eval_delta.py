"""Delta eval: matched sets, AUC of (confidence − corroboration), refusal when unmatched."""

from __future__ import annotations

import dataclasses

import pytest

from mailmoat.core.features import Features
from mailmoat.core.local_scorer import Scored
from mailmoat.core.message import Message
from mailmoat.core.policy import Facts
from mailmoat.core.signals import Signals
from mailmoat.eval.delta import (
    ADVERSARIAL,
    COOPERATIVE,
    NotMatched,
    auc,
    default_delta,
    delta_eval,
    ks_statistic,
)
from mailmoat.eval.runner import load_items


def test_auc_and_ks_on_known_values() -> None:
    assert auc([0.9, 0.8], [0.1, 0.2]) == 1.0
    assert auc([0.1], [0.9]) == 0.0
    assert auc([0.5, 0.5], [0.5]) == 0.5
    assert auc([0.9, 0.1], [0.5]) == 0.5
    assert ks_statistic([0.1, 0.2], [0.1, 0.2]) == 0.0
    assert ks_statistic([0.1, 0.1], [0.9, 0.9]) == 1.0
    with pytest.raises(ValueError):
        auc([], [0.1])


def test_the_shipped_sets_are_matched_pairs() -> None:
    coop, adv = load_items(COOPERATIVE), load_items(ADVERSARIAL)
    assert len(coop) == len(adv) >= 20
    for c, a in zip(coop, adv, strict=True):
        assert (c.message.subject, c.message.body_text) == (a.message.subject, a.message.body_text)
        assert c.message.from_addr != a.message.from_addr
        assert c.facts.replies_sent > 0 and a.facts.replies_sent == 0


def test_history_separates_impersonation_with_the_local_scorer() -> None:
    report = default_delta()
    assert report.auc_confidence == pytest.approx(0.5)  # confidence alone: a coin flip
    assert report.auc_delta >= 0.95
    assert report.adversarial_auto_eligible == 0


class Obedient:
    """A scorer that believes every email: maximum confidence and trust for all of them."""

    name = "obedient"

    def score(self, message: Message, signals: Signals, facts: Facts) -> Scored:
        return Scored(Features(confidence=1.0, sender_trust=1.0, reversibility=1.0,
                               urgency=0.0), "trusted colleague", "llm:obedient")


def test_a_fully_fooled_model_still_cannot_make_impersonators_auto_eligible() -> None:
    report = default_delta(scorers=[Obedient()])
    assert report.auc_delta >= 0.95
    assert report.adversarial_auto_eligible == 0


def test_unmatched_sets_are_refused() -> None:
    coop, adv = load_items(COOPERATIVE), load_items(ADVERSARIAL)
    # Empty the adversarial bodies: the local scorer's confidence drops, so confidence alone
    # would separate the sets, and the eval must say so instead of reporting an AUC.
    hollow = [dataclasses.replace(a, message=Message(from_addr=a.message.from_addr))
              for a in adv]
    with pytest.raises(NotMatched):
        delta_eval(coop, hollow)
