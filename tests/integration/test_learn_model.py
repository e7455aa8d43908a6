"""The learned linear model and scorer: deterministic training, incremental learning, and
how a prediction turns into features (only ever toward visibility)."""

from __future__ import annotations

import subprocess
import sys

from mailmoat.core.lanes import Lane
from mailmoat.core.local_scorer import score_local
from mailmoat.core.message import Message, message_from_fields
from mailmoat.core.policy import Facts, decide
from mailmoat.core.signals import detect_signals
from mailmoat.learn.model import Labelled, LinearModel, featurize
from mailmoat.learn.scorer import LEARNED_SOURCE, LearnedScorer, nudge


def msg(sender: str, subject: str, body: str = "") -> Message:
    return message_from_fields(sender=sender, subject=subject, body=body)


def labelled(m: Message, lane: Lane) -> Labelled:
    return Labelled(featurize(m, detect_signals(m)), lane)


TRAIN = [
    labelled(msg(f"ops{n}@acme.example", f"deploy window {n}", "the deploy window moved"),
             Lane.PUSH)
    for n in range(8)
] + [
    labelled(msg(f"team{n}@acme.example", f"lunch menu {n}", "what's for lunch"), Lane.QUEUE)
    for n in range(8)
] + [
    labelled(msg(f"promo{n}@shop.example", f"spring catalogue {n}", "see the catalogue"),
             Lane.SILENT)
    for n in range(8)
]


def test_training_is_deterministic_under_a_fixed_seed() -> None:
    a, b, c = LinearModel(), LinearModel(), LinearModel()
    a.fit(TRAIN, epochs=4, seed=7)
    b.fit(list(TRAIN), epochs=4, seed=7)
    c.fit(TRAIN, epochs=4, seed=8)
    assert a.weights == b.weights and a.updates == b.updates == 4 * len(TRAIN)
    assert a.weights != c.weights  # the seed really drives the order


def test_hashing_does_not_depend_on_the_interpreter_hash_seed() -> None:
    code = ("from mailmoat.core.message import message_from_fields as m;"
            "from mailmoat.core.signals import detect_signals as d;"
            "from mailmoat.learn.model import featurize as f;"
            "x=m(sender='a@b.example', subject='Deploy window moved', body='hello');"
            "print(f(x, d(x)))")
    outputs = {
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                       env={"PYTHONHASHSEED": seed}).stdout
        for seed in ("1", "2")
    }
    assert len(outputs) == 1


def test_learns_incrementally_from_few_examples() -> None:
    model = LinearModel()
    probe = msg("ops99@acme.example", "deploy window again", "the deploy window moved")
    buckets = featurize(probe, detect_signals(probe))
    before = model.predict_proba(buckets)[Lane.PUSH]
    model.partial_fit(TRAIN[:8])
    assert model.predict(buckets)[0] is Lane.PUSH
    assert model.predict_proba(buckets)[Lane.PUSH] > before
    model.fit(TRAIN, epochs=5, seed=0)
    lunch = msg("team99@acme.example", "lunch menu", "what's for lunch")
    assert model.predict(featurize(lunch, detect_signals(lunch)))[0] is Lane.QUEUE


def test_scorer_promotes_to_push_and_cites_itself() -> None:
    model = LinearModel()
    model.fit(TRAIN, epochs=5, seed=0)
    scorer = LearnedScorer(model, min_corrections=0)
    probe = msg("ops42@acme.example", "deploy window", "the deploy window moved")
    signals = detect_signals(probe)
    assert decide(score_local(probe, signals).features, signals).lane is not Lane.PUSH
    scored = scorer.score(probe, signals, Facts())
    assert scored.source == LEARNED_SOURCE and "learned: PUSH" in scored.reason
    assert decide(scored.features, signals).lane is Lane.PUSH


def test_scorer_abstains_until_trained_and_on_hidden_predictions() -> None:
    model = LinearModel()
    probe = msg("promo1@shop.example", "spring catalogue", "see the catalogue")
    signals = detect_signals(probe)
    local = score_local(probe, signals)
    assert LearnedScorer(model).score(probe, signals, Facts()) == local  # untrained
    model.fit(TRAIN, epochs=5, seed=0)
    assert model.predict(featurize(probe, signals))[0] is Lane.SILENT
    assert LearnedScorer(model, min_corrections=0).score(probe, signals, Facts()) == local


def test_nudge_toward_queue_is_visible_and_calm() -> None:
    probe = msg("deals@shop.example", "50% off flash sale, shop now", "Unsubscribe")
    signals = detect_signals(probe)
    local = score_local(probe, signals).features
    assert decide(local, signals).lane is Lane.SILENT
    moved = nudge(local, Lane.QUEUE)
    assert decide(moved, signals).lane is Lane.QUEUE
    urgent = msg("ops@acme.example", "URGENT: production is down", "fix asap")
    u_sig = detect_signals(urgent)
    u_local = score_local(urgent, u_sig).features
    assert decide(u_local, u_sig).lane is Lane.PUSH
    assert decide(nudge(u_local, Lane.QUEUE), u_sig).lane is Lane.QUEUE
    for lane in (Lane.INFO, Lane.SILENT):
        assert nudge(u_local, lane) == u_local
