"""Local path throughput: parse + signals + score + policy + hash on the SpamAssassin corpus.

Prints messages per second on one core (CPU time of this process) and peak RSS.
Goal: >= 1,000 messages/s. Run: .venv/bin/python bench/bench_local.py [--repeat N]
"""

from __future__ import annotations

import argparse
import resource
import time
from pathlib import Path

from mailmoat.core.message import parse_message
from mailmoat.judge.cascade import classify

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpora" / "spamassassin"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    raws = [p.read_bytes() for p in sorted(args.corpus.rglob("*")) if p.is_file()]
    if not raws:
        raise SystemExit(f"no messages under {args.corpus}")
    best = 0.0
    for _ in range(args.repeat):
        cpu0, wall0 = time.process_time(), time.perf_counter()
        lanes: dict[str, int] = {}
        for raw in raws:
            lane = classify(parse_message(raw)).decision.lane.value
            lanes[lane] = lanes.get(lane, 0) + 1
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        rate = len(raws) / cpu
        best = max(best, rate)
        print(f"{len(raws)} messages: {rate:,.0f} msg/s (CPU), {len(raws) / wall:,.0f} msg/s "
              f"(wall)  lanes={lanes}")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"best: {best:,.0f} messages/s on one core (goal >= 1,000); peak RSS {peak_mb:.0f} MB")


if __name__ == "__main__":
    main()
