"""Learning curve: replay labelled mail in time order as a simulated person who corrects
every miss, and report accuracy over time next to the static local scorer.

Three ways to decide each message, all on the no-model path:
  static   the local scorer and the policy, nothing learned (what mailmoat does on day one)
  rules    + sender rules learned from the corrections so far (two identical -> a rule)
  learned  + rules + the learned linear scorer, updated after every message (a miss with
           the person's lane, weight 3; a hit, which the person read and left, weight 1)
A message counts as right when its lane is the expected one (or in the item's `accept`).
"hid" counts messages expected visible (PUSH/MEETING/QUEUE) that landed hidden. "ceiling"
is the best any learning may reach: a message the static path shows but the person wants
hidden (SILENT/INFO) stays a miss until the person pins its sender — by design.

Sets: the Klorn eval sets in ../shared/eval/klorn (read in place, each in receivedAt order,
and all of them merged), and our own preference stream (bench/learning_sets.py).
Run: .venv/bin/python bench/bench_learning.py [--seed N] [--size N]
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from learning_sets import preference_stream
from mailmoat.core.lanes import HIDDEN_LANES, Lane
from mailmoat.core.message import Message
from mailmoat.core.policy import Facts
from mailmoat.core.rules import CorrectionKind, Event, pin_for, rule_for
from mailmoat.core.signals import detect_signals
from mailmoat.eval.runner import load_items
from mailmoat.judge.cascade import classify
from mailmoat.learn.model import Labelled, LinearModel, featurize
from mailmoat.learn.scorer import LearnedScorer
from mailmoat.learn.training import CORRECTION_WEIGHT

KLORN = Path(__file__).resolve().parents[1].parent / "shared" / "eval" / "klorn"
VARIANTS = ("static", "rules", "learned")


@dataclass(frozen=True, slots=True)
class Item:
    id: str
    at: str
    message: Message
    accept: frozenset[Lane]
    expected: Lane


@dataclass
class Run:
    hits: list[bool]
    hid: int = 0
    corrections: int = 0
    learn_seconds: float = 0.0


def replay(items: Sequence[Item], variant: str, seed: int) -> Run:
    events: list[Event] = []
    model = LinearModel()
    scorer = LearnedScorer(model)
    run = Run(hits=[])
    for item in items:
        facts = Facts()
        if variant != "static":
            pin = pin_for(events, item.message.from_addr)
            rule = rule_for(events, item.message.from_addr)
            facts = Facts(pinned_lane=pin.lane if pin else None,
                          rule_lane=rule.lane if rule else None)
        scorers = [scorer] if variant == "learned" else []
        lane = classify(item.message, facts, scorers=scorers).decision.lane
        hit = lane in item.accept
        run.hits.append(hit)
        run.hid += lane in HIDDEN_LANES and item.expected not in HIDDEN_LANES
        if not hit:
            run.corrections += 1
            events.append(Event(len(events) + 1, CorrectionKind.LANE_CHANGE,
                                address=item.message.from_addr, lane=item.expected))
        if variant == "learned":
            started = time.perf_counter()
            buckets = featurize(item.message, detect_signals(item.message))
            weight = 1.0 if hit else CORRECTION_WEIGHT
            model.partial_fit([Labelled(buckets, item.expected, weight, corrected=not hit)])
            run.learn_seconds += time.perf_counter() - started
    return run


def klorn_items(path: Path) -> list[Item]:
    raw = json.loads(path.read_text(encoding="utf-8"))["items"]
    times = [str(r.get("receivedAt") or "") for r in raw]
    loaded = load_items(path, use_context=False)  # history comes only from the replay
    items = [Item(e.id, t, e.message, e.accept, e.expected)
             for e, t in zip(loaded, times, strict=True)]
    return sorted(items, key=lambda i: i.at)  # stable: file order breaks ties


def own_items(size: int, seed: int) -> list[Item]:
    return [Item(s.id, s.at.isoformat(), s.message, frozenset({s.expected}), s.expected)
            for s in preference_stream(size, seed)]


def _pct(hits: Sequence[bool]) -> str:
    return f"{sum(hits) / len(hits):6.1%}" if hits else "    —"


def report(name: str, items: Sequence[Item], seed: int) -> dict[str, float]:
    runs = {v: replay(items, v, seed) for v in VARIANTS}
    n = len(items)
    quarters = [(n * q // 4, n * (q + 1) // 4) for q in range(4)]
    static_lanes = [classify(i.message, Facts()).decision.lane for i in items]
    unreachable = sum(
        1 for i, lane in zip(items, static_lanes, strict=True)
        if lane not in i.accept and lane not in HIDDEN_LANES
        and not (i.accept - HIDDEN_LANES)
    )
    senders = len({i.message.from_addr for i in items})
    print(f"\n{name}: {n} messages, {senders} senders, ceiling without pins "
          f"{(n - unreachable) / n:.1%}")
    print(f"  {'variant':8} {'overall':>7}  {'Q1':>6} {'Q2':>6} {'Q3':>6} {'Q4':>6}  "
          f"{'fixes':>5} {'hid':>4}")
    for variant, run in runs.items():
        parts = " ".join(_pct(run.hits[a:b]) for a, b in quarters)
        print(f"  {variant:8} {_pct(run.hits)}  {parts}  {run.corrections:5d} {run.hid:4d}")
    learned = runs["learned"]
    print(f"  learned-scorer updates: {n} in {learned.learn_seconds * 1000:.1f} ms")
    return {v: sum(r.hits) / n for v, r in runs.items()}


def retrain_timing(items: Sequence[Item], seed: int) -> None:
    examples = [Labelled(featurize(i.message, detect_signals(i.message)), i.expected)
                for i in items]
    model = LinearModel()
    started = time.process_time()
    model.fit(examples, epochs=5, seed=seed)
    cpu = time.process_time() - started
    print(f"\nfull retrain: {len(examples)} examples x 5 epochs in {cpu:.2f} s CPU "
          f"({len(model.weights)} weight rows)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--size", type=int, default=300, help="messages in our own stream")
    args = parser.parse_args()
    sets = sorted(KLORN.glob("*.json"))
    if not sets:
        raise SystemExit(f"no eval sets under {KLORN}")
    merged: list[Item] = []
    for path in sets:
        items = klorn_items(path)
        merged += items
        report(f"klorn/{path.name}", items, args.seed)
    report("klorn/* merged in time order", sorted(merged, key=lambda i: i.at), args.seed)
    own = own_items(args.size, args.seed)
    report(f"preference stream (ours, seed {args.seed})", own, args.seed)
    retrain_timing(own * 10, args.seed)


if __name__ == "__main__":
    main()
