"""CLI start-up: wall time of `mailmoat --help` (and `mailmoat policy`, which needs no
database) on this tree and on another revision (default `main`), measured in one run with
the rounds alternating, so both see the same machine load. Also lists which heavy libraries
each tree loads just to build the command.

    .venv/bin/python bench/bench_cli_start.py [--rounds 15] [--compare-with main]

Goal (issue 21): `mailmoat --help` starts in < 0.5 s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from revisions import revision_src

REPO = Path(__file__).resolve().parents[1]
HEAVY = ("sqlalchemy", "alembic", "openai", "cryptography", "fastapi", "httpx", "uvicorn")
PROBE = ("import sys; import mailmoat.entrypoints.cli.main; "
         f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))")


def _time(src: Path, args: list[str]) -> float:
    env = {**os.environ, "PYTHONPATH": str(src), "COLUMNS": "100"}
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "mailmoat", *args], env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def _heavy(src: Path) -> str:
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, check=True,
                         capture_output=True, text=True).stdout.strip()
    return out or "none"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--compare-with", default="main", metavar="REV")
    args = parser.parse_args()
    commands = {"--help": ["--help"], "policy": ["policy"]}
    with revision_src(args.compare_with) as before_src:
        trees = {args.compare_with: before_src, "this tree": REPO / "src"}
        times: dict[tuple[str, str], list[float]] = {}
        for tree in trees.values():  # warm the file cache and .pyc files once
            _time(tree, ["--help"])
        for _ in range(args.rounds):
            for name, tree in trees.items():
                for label, argv in commands.items():
                    times.setdefault((name, label), []).append(_time(tree, argv))
        heavy = {name: _heavy(tree) for name, tree in trees.items()}
    print(f"{args.rounds} alternating rounds, {sys.executable}")
    for (name, label), samples in times.items():
        samples.sort()
        p90 = samples[min(len(samples) - 1, int(0.9 * len(samples)))]
        print(f"{name:>12} mailmoat {label:<7}: median {statistics.median(samples):.3f} s, "
              f"min {samples[0]:.3f} s, p90 {p90:.3f} s")
    for name, loaded in heavy.items():
        print(f"{name:>12} loads to build the command: {loaded}")
    now = statistics.median(times[("this tree", "--help")])
    before = statistics.median(times[(args.compare_with, "--help")])
    print(f"--help speed-up: {before / now:.1f}x; goal < 0.5 s: "
          f"{'met' if now < 0.5 else 'NOT met'}")


if __name__ == "__main__":
    main()
