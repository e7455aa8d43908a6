"""Would a model trained on our labelled mail make a better judge with no LLM? Measured, not
shipped (docs/results.md, "Forty-second pass").

The learned scorer's model (`learn.model.LinearModel`, the one a person's corrections train)
is trained here on every labelled item of the development and blind sets except the held-out
ones (`--hold-out`, by default the four sets of blind-set-129 to -132, written after the
others), each labelled with its set's lane. Three ways to use it beside the local scorer are
then measured on the held-out sets, on Klorn's public sets and on the SpamAssassin corpus:

- nudge:   the product's learned scorer (`learn.scorer.LearnedScorer`, min_probability 0.7),
           with no minimum of corrections;
- demote:  the local lane, except that PUSH becomes QUEUE when the model gives PUSH < 0.3;
- promote: the local lane, except that QUEUE with "some time pressure" becomes PUSH when the
           model gives PUSH >= 0.7.

Run: PYTHONPATH=src python bench/learned_prior.py [--hold-out blind-set-129,...] (about five
minutes: featurizing 32,000 mails and three passes of SGD in pure Python, then the corpus
three times).
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path
from typing import Any

from mailmoat.core.lanes import Lane
from mailmoat.core.local_scorer import Scored, score_local
from mailmoat.core.message import Message
from mailmoat.core.policy import Facts, decide
from mailmoat.core.signals import Signals, perceive_signals
from mailmoat.eval.judgement import corpus_split, label_metrics, labelled_sets
from mailmoat.eval.runner import evaluate, load_items
from mailmoat.judge.cascade import Scorer, classify
from mailmoat.learn.model import Labelled, LinearModel, featurize
from mailmoat.learn.scorer import LearnedScorer, nudge

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
HELD_OUT = "blind-set-129,blind-set-130,blind-set-131,blind-set-132"


class _OneWay:
    """The local scorer's answer, moved one way when the model is sure enough."""

    name = "learned"

    def __init__(self, model: LinearModel, demote_below: float | None = None,
                 promote_from: float | None = None) -> None:
        self.model, self.demote_below, self.promote_from = model, demote_below, promote_from

    def score(self, message: Message, signals: Signals, facts: Facts) -> Scored:
        local = score_local(message, signals)
        lane = decide(local.features, signals, facts).lane
        if self.demote_below is not None and lane is Lane.PUSH:
            target, move = Lane.QUEUE, lambda p: p < self.demote_below
        elif (self.promote_from is not None and lane is Lane.QUEUE
              and local.reason.startswith("some time pressure")):
            target, move = Lane.PUSH, lambda p: p >= self.promote_from
        else:
            return local
        push = self.model.predict_proba(featurize(message, signals, local.features))[Lane.PUSH]
        if not move(push):
            return local
        return Scored(features=nudge(local.features, target), reason=f"{local.reason}; moved",
                      source="learned")


def train(held_out: set[str]) -> tuple[LinearModel, int]:
    examples = []
    for path in labelled_sets():
        if path.stem in held_out:
            continue
        for item in load_items(path):
            if item.category:
                signals = perceive_signals(item.message)[0]
                examples.append(Labelled(featurize(item.message, signals), item.expected,
                                         corrected=True))
    model = LinearModel()
    model.fit(examples, epochs=3, seed=0)
    return model, len(examples)


def measure(scorers: list[Scorer], held_out: set[str]) -> dict[str, Any]:
    pooled: Counter[str] = Counter()
    for path in labelled_sets():
        if path.stem not in held_out:
            continue
        items = load_items(path)
        found = label_metrics(items, evaluate(path.name, items, scorers=scorers))
        urgent = found["by_label"].get("urgent", {"items": 0, "lanes": {}})
        pooled.update(items=found["items"], push=found["push_total"],
                      accepted=round(found["lane_accepted"] * found["items"]),
                      urgent=urgent["items"],
                      urgent_hit=sum(n for lane, n in urgent["lanes"].items()
                                     if lane in ("PUSH", "MEETING")),
                      push_urgent=round((found["push_precision"] or 0) * found["push_total"]),
                      suspects=found["suspect_in_push"])
    klorn = {}
    for path in sorted((SHARED / "eval" / "klorn").glob("*.json")):
        report = evaluate(path.name, load_items(path), scorers=scorers)
        klorn[path.stem] = f"{report.accuracy:.1%}, {report.urgent_hits}/{report.urgent_total}"
    split = corpus_split(SHARED / "corpora" / "spamassassin",
                         lambda m, raw: classify(m, scorers=scorers).decision.lane)
    ham_push = sum(f["push"] for k, f in split["folders"].items() if not k.startswith("spam"))
    return {"pooled": pooled, "klorn": klorn, "spam_in_push": split["spam_in_push"],
            "ham_in_push": ham_push, "easy_ham_1_silent": split["easy_ham_1_silent"]}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hold-out", default=HELD_OUT)
    args = parser.parse_args()
    held_out = set(args.hold_out.split(","))
    model, n = train(held_out)
    print(f"trained on {n:,} labelled items, held out {', '.join(sorted(held_out))}\n")
    ways: dict[str, list[Scorer]] = {
        "local only": [],
        "nudge": [LearnedScorer(model, min_corrections=0)],
        "demote": [_OneWay(model, demote_below=0.3)],
        "promote": [_OneWay(model, promote_from=0.7)],
    }
    print("| judge | held out: accepted | urgent in PUSH/MEETING | PUSH precision | scams in "
          "PUSH | Klorn judge-eval | Klorn real-eval | spam in PUSH | ham in PUSH | "
          "easy-ham-1 SILENT |")
    print("|---" * 10 + "|")
    for name, scorers in ways.items():
        m = measure(scorers, held_out)
        p = m["pooled"]
        print(f"| {name} | {p['accepted'] / p['items']:.1%} | {p['urgent_hit']}/{p['urgent']} | "
              f"{p['push_urgent'] / max(1, p['push']):.1%} of {p['push']} | {p['suspects']} | "
              f"{m['klorn'].get('judge-eval-set')} | {m['klorn'].get('real-eval-set')} | "
              f"{m['spam_in_push']} | {m['ham_in_push']} | {m['easy_ham_1_silent']:.1%} |",
              flush=True)


if __name__ == "__main__":
    main()
