"""Parse workers die with their parent: a process holding a pool is SIGKILLed and its
workers are gone within a few seconds (issue 20: no orphans after a killed sync)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mailmoat.mail.parse_pool import PARENT_POLL_S, ParsePool

# The parent: opens a pool of two workers, makes both start, prints their pids, then waits
# (as a sync waits on its IMAP server) until it is killed.
PARENT = """
import sys, time
from mailmoat.mail.parse_pool import ParsePool
pool = ParsePool(2)
futures = [pool.submit([(b"Subject: hi\\r\\n\\r\\nbody", ())]) for _ in range(8)]
[f.result() for f in futures]
while len(pool.worker_pids()) < 2:
    pool.submit([(b"Subject: hi\\r\\n\\r\\nbody", ())]).result()
print(" ".join(map(str, pool.worker_pids())), flush=True)
time.sleep(600)
"""


def _alive(pid: int) -> bool:
    """Running, not a zombie waiting for init to reap it."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_workers_exit_when_their_parent_is_sigkilled() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    parent = subprocess.Popen([sys.executable, "-c", PARENT], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL)
    workers: list[int] = []
    try:
        assert parent.stdout is not None
        line = parent.stdout.readline().decode()
        workers = [int(p) for p in line.split()]
        assert len(workers) == 2 and all(_alive(p) for p in workers)
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=10)
        deadline = time.monotonic() + 5.0
        while any(_alive(p) for p in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = [p for p in workers if _alive(p)]
        assert left == [], f"orphaned parse workers still running: {left}"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait(timeout=10)
        for pid in workers:  # never leave one behind, even when the test fails
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_a_closed_pool_stops_its_workers_and_the_watch_is_quick() -> None:
    assert PARENT_POLL_S <= 1.0
    with ParsePool(1) as pool:
        pool.submit([(b"Subject: x\r\n\r\ny", ())]).result()
        pids = pool.worker_pids()
        assert len(pids) == 1
    deadline = time.monotonic() + 5.0
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(p) for p in pids)
    assert ParsePool(0).worker_pids() == []
