"""What hostile text can make the judgement's RE2 pattern sets cost in memory.

Each `PatternSet` (core/patterns.py) builds DFA states as text needs them, up to its budget
(`SET_MAX_MEM`). Text made of the patterns' own words, shuffled, keeps asking for new
states. This feeds such text to every set of the signals, the scorer and the evidence for
`--seconds` and prints how many texts were read and how much the process grew.
Goal: growth bounded by the budget, one SET_MAX_MEM per pass at most (three passes a set).

Run: PYTHONPATH=src python bench/bench_pattern_sets.py [--seconds 40] [--max-mem-mb 16]
"""

from __future__ import annotations

import argparse
import random
import resource
import time

VOCABULARY = [
    'you', 'urgent', 'can', 'today', 'meeting', 'not', 'no', 'action', 'needed', 'dear', 'sir',
    'invite', 'call', 'at', 'on', 'by', '5pm', 'verify', 'account', 'password', 'wire',
    'bitcoin', 'unsubscribe', 'opt-out', 'fyi', 'deadline', 'due', '?', '.', '!', 'a', 'b',
    'c', 'd', 'e', '1', '2', '3', '--', '>', 'on', 'wrote:', 'from:', 'sent', 'from', 'my',
    'i', 'am', 'out', 'of', 'office', '\n',
    # (words of other scripts: a text is read by a set's patterns cut for Latin, for Latin
    # and Korean, or by them all; each pass builds states)
    '긴급', '오늘', '확인', 'срочно', 'сегодня', 'επείγον', 'तुरंत', 'სასწრაფო',
]


def _rss_mb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=40)
    parser.add_argument("--max-mem-mb", type=int, help="another budget than the code's")
    args = parser.parse_args()
    import mailmoat.core.patterns as patterns

    if args.max_mem_mb:
        patterns.SET_MAX_MEM = args.max_mem_mb << 20  # before the sets are built
    from mailmoat.core import evidence, local_scorer, signals

    sets = [value for module in (signals, local_scorer, evidence)
            for value in vars(module).values() if isinstance(value, patterns.PatternSet)]
    rng = random.Random(1)
    before, start, texts = _rss_mb(), time.process_time(), 0
    while time.process_time() - start < args.seconds:
        text = " ".join(rng.choice(VOCABULARY) for _ in range(300)).encode()
        for pattern_set in sets:
            pattern_set.found(text)
        texts += 1
    budget = patterns.SET_MAX_MEM >> 20
    print(f"{len(sets)} sets at {budget} MiB each: {texts:,} shuffled texts in "
          f"{args.seconds:.0f} s CPU; peak RSS {before} MB -> {_rss_mb()} MB "
          f"(bound: {3 * len(sets) * budget} MB of states, three passes a set)")


if __name__ == "__main__":
    main()
