"""Instructions per judged message, counted by valgrind's callgrind: a figure that does not
move with the load on a shared host, unlike bench/bench_local.py's wall times.

Every 4th mail of the SpamAssassin corpus is parsed and the pattern sets compiled; one run
stops there, the other judges each parsed mail twice (`classify`: signals, evidence, score,
policy, input hash). The difference in instructions, divided by the judgements, is the
figure. `--compare-with REV` counts another revision's `src/` the same way (extracted with
`git archive`).

Run: PYTHONPATH=src python bench/judgement_instructions.py [--compare-with e01c752]
Needs valgrind (Debian package `valgrind`); each count takes about a minute.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpora" / "spamassassin"
STEP = 4
ROUNDS = 2


def child(mode: str) -> None:
    from mailmoat.core.message import parse_message
    from mailmoat.judge.cascade import classify

    paths = [p for p in sorted(CORPUS.rglob("*")) if p.is_file()][::STEP]
    messages = [parse_message(p.read_bytes()) for p in paths]
    _compile_pattern_sets()
    if mode == "judge":
        for _ in range(ROUNDS):
            for message in messages:
                classify(message)
    print(len(messages))


def _compile_pattern_sets() -> None:
    """Compile every pattern set's passes in both runs, so the count is of the judgement
    only: since 2026-12-07 a set compiles each pass the first time a text needs it (before,
    on import)."""
    import gc

    from mailmoat.core import patterns

    for found in gc.get_objects():
        if isinstance(found, patterns.PatternSet):
            for reading in range(len(getattr(patterns, "READINGS", ())) + 1):
                if hasattr(found, "pass_for"):  # (before 2026-12-07: compiled on import)
                    found.pass_for(reading)


def _count(src: Path, mode: str) -> tuple[int, int]:
    with tempfile.TemporaryDirectory(prefix="callgrind-") as tmp:
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/out", sys.executable,
             __file__, "--child", mode], env={**os.environ, "PYTHONPATH": str(src)},
            capture_output=True, text=True, check=True)
    collected = re.search(r"Collected : (\d+)", out.stderr)
    if collected is None:
        raise SystemExit(f"no instruction count from valgrind:\n{out.stderr[-2000:]}")
    return int(collected.group(1)), int(out.stdout.split()[0])


def per_judgement(src: Path) -> float:
    parsed, n = _count(src, "parse")
    judged, _ = _count(src, "judge")
    return (judged - parsed) / (ROUNDS * n)


def _revision_src(rev: str, into: Path) -> Path:
    archive = subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", rev, "src"],
                             capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--compare-with", metavar="REV")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed")
    now = per_judgement(REPO / "src")
    if args.compare_with:
        with tempfile.TemporaryDirectory(prefix="bench-ir-") as tmp:
            before = per_judgement(_revision_src(args.compare_with, Path(tmp)))
        print(f"before {args.compare_with}: {before / 1000:,.0f} k instructions per judged "
              f"message")
    print(f"now: {now / 1000:,.0f} k instructions per judged message")
    if args.compare_with:
        print(f"ratio (before / now): {before / now:.2f}x")


if __name__ == "__main__":
    main()
