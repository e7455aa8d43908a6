"""Run every benchmark in turn and print each one's figures (`make bench`).

Each benchmark is its own process, so one's memory peak does not colour the next one's.
A benchmark that fails is reported and the rest still run; the exit code says whether any did.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent
BENCHMARKS = [
    ["bench_local.py", "--repeat", "2"],
    ["judgement_split.py"],
    ["urgent_by_language.py"],
    ["bench_import.py"],
    ["bench_learning.py"],
    ["bench_judge.py"],
    ["bench_web.py"],
    ["bench_meeting.py"],
    ["bench_imap_sync.py", "--count", "6000", "--arrivals", "20"],
    ["fuzz.py", "--examples", "5000"],
]


def main() -> None:
    failed = []
    for script, *args in BENCHMARKS:
        print(f"\n=== {script} {' '.join(args)}", flush=True)
        start = time.perf_counter()
        done = subprocess.run([sys.executable, str(HERE / script), *args], check=False)
        print(f"=== {script}: exit {done.returncode} after {time.perf_counter() - start:.0f}s")
        if done.returncode:
            failed.append(script)
    print("\nfailed: " + (", ".join(failed) or "none"))
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
