"""Local path throughput: parse + signals + evidence + score + policy + hash on the
SpamAssassin corpus.

Prints, per round, messages per second on one core (CPU time of this process) for the whole
path and for the judgement alone (classify + input hash on already-parsed messages), the
judgement's time on mail not judged before (half the corpus, after judging the other half),
and peak RSS. `--compare-with REV` runs the same measurement on another revision's `src/`
(extracted with `git archive` into a temporary folder, run in a child process) and prints
both side by side: the before/after figures in docs/results.md come from
`bench/bench_local.py --compare-with e01c752`.
Goal: >= 2,000 messages/s end to end on one core.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpora" / "spamassassin"


def measure(corpus: Path, repeat: int) -> dict[str, float]:
    from mailmoat.core.message import parse_message
    from mailmoat.judge.cascade import classify

    raws = [p.read_bytes() for p in sorted(corpus.rglob("*")) if p.is_file()]
    if not raws:
        raise SystemExit(f"no messages under {corpus}")
    unseen = _unseen_us(raws)  # first: no judgement has run in this process yet
    parse_best = judge_best = float("inf")
    lanes: dict[str, int] = {}
    for _ in range(repeat):
        cpu0 = time.process_time()
        messages = [parse_message(raw) for raw in raws]
        cpu1 = time.process_time()
        lanes = {}
        for message in messages:
            lane = classify(message).decision.lane.value
            lanes[lane] = lanes.get(lane, 0) + 1
        cpu2 = time.process_time()
        parse_best, judge_best = min(parse_best, cpu1 - cpu0), min(judge_best, cpu2 - cpu1)
    n = len(raws)
    return {"messages": n, "end_to_end": n / (parse_best + judge_best),
            "judge_unseen_us": unseen,
            "judgement": n / judge_best, "parse_us": parse_best * 1e6 / n,
            "judge_us": judge_best * 1e6 / n,
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            **{f"lane_{k}": v for k, v in sorted(lanes.items())}}


def _unseen_us(raws: list[bytes]) -> float:
    """Judgement per message on mail this process has not judged before, after judging the
    other half: the rounds above judge the same mails again, which a DFA's states and the
    per-sender caches built on the first round flatter."""
    from mailmoat.core.message import parse_message
    from mailmoat.judge.cascade import classify

    messages = [parse_message(raw) for raw in raws]
    for message in messages[0::2]:
        classify(message)
    fresh = messages[1::2]
    cpu0 = time.process_time()
    for message in fresh:
        classify(message)
    return (time.process_time() - cpu0) * 1e6 / len(fresh)


def _other_revision(rev: str, corpus: Path, repeat: int) -> dict[str, float]:
    from revisions import revision_src

    with revision_src(rev) as src:
        env = {**os.environ, "PYTHONPATH": str(src)}
        out = subprocess.run([sys.executable, __file__, "--json", "--corpus", str(corpus),
                              "--repeat", str(repeat)], env=env, capture_output=True,
                             text=True, check=True).stdout
    return json.loads(out)


def _row(name: str, r: dict[str, float]) -> str:
    return (f"{name:>10}: end to end {r['end_to_end']:,.0f} msg/s (parse {r['parse_us']:.0f} us"
            f" + judgement {r['judge_us']:.0f} us per message); judgement alone "
            f"{r['judgement']:,.0f} msg/s ({r['judge_unseen_us']:.0f} us a message on mail not"
            f" judged before); peak RSS {r['peak_rss_mb']:.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--compare-with", metavar="REV", help="also measure this git revision")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.json:
        print(json.dumps(measure(args.corpus, args.repeat)))
        return
    before = _other_revision(args.compare_with, args.corpus, args.repeat) \
        if args.compare_with else None
    after = measure(args.corpus, args.repeat)
    if before is not None:
        print(_row(f"before {args.compare_with}", before))
    print(_row("now", after))
    if before is not None:
        print(f"speed-up: end to end {after['end_to_end'] / before['end_to_end']:.2f}x, "
              f"judgement {after['judgement'] / before['judgement']:.2f}x, on mail not judged "
              f"before {before['judge_unseen_us'] / after['judge_unseen_us']:.2f}x")
    print(f"lanes now: { {k[5:]: v for k, v in after.items() if k.startswith('lane_')} }")
    print(f"goal: >= 2,000 msg/s end to end on one core: "
          f"{'met' if after['end_to_end'] >= 2000 else 'NOT met'}")


if __name__ == "__main__":
    main()
