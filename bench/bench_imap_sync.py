"""Live-mailbox benchmarks against the mail-devel test server on loopback.

1. Sync + classify + store of the SpamAssassin corpus (repeated with distinct Message-IDs
   up to --count messages), next to a bare imapclient fetch of the same messages in the
   same run. Each side runs in its own fresh process so peak RSS is its own.
   Goals: mailmoat time <= 2x the bare fetch; peak RSS < 300 MB.
2. Arrival latency: SMTP delivery -> decision stored, with IDLE. Goal: p95 <= 2 s.

A/B mode, `--compare-with COMMIT`: COMMIT's src/ is extracted to a temporary directory
(git archive; the repository and its worktrees are not touched), and the sync phase runs
alternately on COMMIT (A) and on this tree (B), A B B A A B ..., each in a fresh process on a
fresh database against the same server and messages, so both sides see the same drifting
load. It prints each round's wall and CPU time and the B/A ratio of mailmoat's own CPU (the
sync process and its parse workers), the figure that load moves least; bare fetches and the
latency phase are skipped.

Run: .venv/bin/python bench/bench_imap_sync.py [--count 10000] [--arrivals 40] [--rounds 3]
     .venv/bin/python bench/bench_imap_sync.py --compare-with main --count 2000 --rounds 6
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # for tests.support
CORPUS = ROOT.parent / "shared" / "corpora" / "spamassassin"
BATCH = 100


def corpus_messages(count: int) -> list[bytes]:
    files = sorted(p for p in CORPUS.rglob("*") if p.is_file())
    # The corpus files are mbox extracts: each starts with a "From " envelope line, which
    # is mbox framing and never part of a message an IMAP server holds.
    raws = [_without_envelope(p.read_bytes()) for p in files]
    out: list[bytes] = []
    round_ = 0
    while len(out) < count:
        for raw in raws:
            if len(out) >= count:
                break
            # Distinct bytes and Message-ID per copy, so every copy is a new message.
            head = f"Message-ID: <bench-{round_}-{len(out)}@mailmoat.bench>\r\n".encode()
            body = re.sub(rb"(?im)^message-id:", b"X-Original-Message-ID:", raw, count=1)
            out.append(head + body)
        round_ += 1
    return out


def _without_envelope(raw: bytes) -> bytes:
    return raw.split(b"\n", 1)[1] if raw.startswith(b"From ") else raw


def load(server, raws: list[bytes]) -> float:  # type: ignore[no-untyped-def]
    client = server.imap()
    start = time.perf_counter()
    for i in range(0, len(raws), 200):
        client.multiappend("INBOX", raws[i : i + 200])
    client.logout()
    return time.perf_counter() - start


def phase_bare(port: int, user: str, password: str) -> dict[str, float]:
    from imapclient import IMAPClient

    start, cpu_before = time.perf_counter(), _self_cpu()
    client = IMAPClient("127.0.0.1", port=port, ssl=False)
    client.login(user, password)
    client.select_folder("INBOX")
    uids = sorted(client.search(["ALL"]), reverse=True)
    size = 0
    for i in range(0, len(uids), BATCH):
        data = client.fetch(uids[i : i + BATCH], ["FLAGS", "BODY.PEEK[]<0.2097152>"])
        size += sum(len(v.get(b"BODY[]<0>", b"")) for v in data.values())
    client.logout()
    return {"seconds": time.perf_counter() - start, "messages": len(uids),
            "mb": size / 2**20, "rss_mb": _rss(), "cpu": _self_cpu() - cpu_before}


def phase_mailmoat(port: int, user: str, password: str, db: str) -> dict[str, float]:
    import mailmoat
    from mailmoat.accounts.registry import AccountSettings, add_account, get_account
    from mailmoat.accounts.secrets import load_key_ring
    from mailmoat.mail.runner import sync_once
    from mailmoat.services.bootstrap import open_store, scorers_for

    store = open_store(f"sqlite:///{db}")
    # The scorers `mailmoat sync` uses with no model configured (the learned scorer).
    store.scorers = scorers_for(store.engine, environ={})
    ring = load_key_ring(Path(db).with_suffix(".key"))
    add_account(store, ring, AccountSettings(name="bench", host="127.0.0.1", port=port,
                                             username=user, tls="plain", backfill_days=0),
                password)
    sampler = ChildPeaks().start()
    start, cpu_before = time.perf_counter(), _self_cpu()
    report = sync_once(store, ring, get_account(store, "bench"))
    seconds = time.perf_counter() - start
    sync_cpu, workers_cpu = _self_cpu() - cpu_before, _children_cpu()
    workers = sampler.stop()
    return {"seconds": seconds, "messages": report.fetched, "created": report.created,
            "rss_mb": _rss(), "worker_rss_mb": max(workers, default=0),
            "workers_rss_mb": sum(workers), "cpu": sync_cpu + workers_cpu,
            "sync_cpu": sync_cpu, "workers_cpu": workers_cpu,
            "lanes": store.lane_counts("bench"),  # type: ignore[dict-item]
            "source": str(Path(mailmoat.__file__).parents[1])}  # type: ignore[dict-item]


class ChildPeaks:
    """Peak RSS (VmHWM) of each child process (the parse workers), sampled from /proc.
    Not RUSAGE_CHILDREN: Linux keeps a child's ru_maxrss from before its exec, so every
    spawned worker would report the parent's size at the time it was forked."""

    def __init__(self) -> None:
        self.peaks: dict[int, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> ChildPeaks:
        self._thread.start()
        return self

    def stop(self) -> list[float]:
        self._stop.set()
        self._thread.join()
        return list(self.peaks.values())

    def _run(self) -> None:
        me = os.getpid()
        own = Path(f"/proc/{me}/cmdline").read_bytes()
        while not self._stop.wait(0.2):
            for pid in _children(me):
                try:
                    # A child caught between fork and exec is still a copy of this process.
                    if Path(f"/proc/{pid}/cmdline").read_bytes() == own:
                        continue
                    status = Path(f"/proc/{pid}/status").read_text()
                except OSError:
                    continue  # the process ended meanwhile
                for line in status.splitlines():
                    if line.startswith("VmHWM:"):
                        self.peaks[pid] = max(self.peaks.get(pid, 0.0), int(line.split()[1]) / 1024)


def _children(pid: int) -> list[int]:
    """Child processes of `pid`, from each of its threads' children list (cheap: the
    sampler runs inside the measured process), else by scanning every process."""
    listed = list(Path(f"/proc/{pid}/task").glob("*/children"))
    if listed:
        found: list[int] = []
        for path in listed:
            with contextlib.suppress(OSError):  # the thread ended meanwhile
                found += [int(c) for c in path.read_text().split()]
        return found
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
    return found


def _self_cpu() -> float:
    """CPU seconds of this process (every thread): taken before and after a phase, so the
    interpreter's start and the imports are not counted."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _children_cpu() -> float:
    """CPU seconds of this process's finished children: the parse workers, which the sync
    has joined by the time it returns."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _rss() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_phase(*args: str, src: Path | None = None) -> dict[str, float]:
    """One phase in a fresh interpreter; `src`: the mailmoat source tree it imports."""
    env = None if src is None else {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run([sys.executable, __file__, "--phase", *args], check=True,
                         capture_output=True, text=True, env=env)
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def run_server_phase(server, *args: str,  # type: ignore[no-untyped-def]
                     src: Path | None = None) -> dict[str, float]:
    """`run_phase`, with the CPU time the server spent meanwhile."""
    before = _process_cpu(server.process.pid)
    result = run_phase(*args, src=src)
    result["server_cpu"] = _process_cpu(server.process.pid) - before
    return result


def _process_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def latency(server, arrivals: int, tmp: str) -> list[float]:  # type: ignore[no-untyped-def]
    from sqlalchemy import select
    from tests.support.imap_fixtures import make_message, make_setup

    from mailmoat.mail.runner import run_forever
    from mailmoat.store.tables.messages import DecisionRow, MessageRow

    setup = make_setup(Path(tmp), server, name="latency")
    stop = threading.Event()
    worker = threading.Thread(target=run_forever, args=(setup.store, setup.ring, setup.account,
                                                        stop), kwargs={"poll_seconds": 600})
    worker.start()
    time.sleep(2.0)
    took: list[float] = []
    try:
        for i in range(arrivals):
            subject = f"latency probe {i}"
            start = time.perf_counter()
            server.deliver(make_message(i, subject=subject))
            while time.perf_counter() - start < 30:
                with setup.store.sessions() as session:
                    found = session.scalar(
                        select(DecisionRow.lane).join(MessageRow,
                                                      MessageRow.id == DecisionRow.message_id)
                        .where(MessageRow.subject == subject, MessageRow.account == "latency"))
                if found:
                    break
                time.sleep(0.01)
            took.append(time.perf_counter() - start)
            time.sleep(0.2)
    finally:
        stop.set()
        worker.join(timeout=10)
    return took


def source_of(commit: str, into: Path) -> tuple[Path, str]:
    """COMMIT's src/ extracted under `into` (git archive: nothing in the repository changes),
    and the commit's id."""
    sha = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify",
                          f"{commit}^{{commit}}"], check=True, capture_output=True,
                         text=True).stdout.strip()
    archive = subprocess.Popen(["git", "-C", str(ROOT), "archive", sha, "src"],
                               stdout=subprocess.PIPE)
    subprocess.run(["tar", "-x", "-C", str(into)], stdin=archive.stdout, check=True)
    if archive.wait() != 0:
        raise SystemExit(f"git archive {sha} failed")
    return into / "src", sha


def compare(server, creds: tuple[str, str, str], commit: str,  # type: ignore[no-untyped-def]
            rounds: int) -> None:
    """A (COMMIT) and B (this tree) alternately, A B B A ..., on fresh databases."""
    with tempfile.TemporaryDirectory() as tmp:
        a_src, sha = source_of(commit, Path(tmp))
        sides = {"A": a_src, "B": ROOT / "src"}
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "src"],
                               capture_output=True, text=True).stdout.strip()
        print(f"A = {commit} ({sha[:10]}), B = this tree ({head}{', modified' if dirty else ''})")
        runs: dict[str, list[dict[str, float]]] = {"A": [], "B": []}
        for n in range(rounds):
            for side in ("AB" if n % 2 == 0 else "BA"):
                result = run_server_phase(server, "mailmoat", *creds, f"{tmp}/{side}{n}.db",
                                          src=sides[side])
                if Path(str(result["source"])) != sides[side]:
                    raise SystemExit(f"side {side} imported mailmoat from {result['source']}")
                runs[side].append(result)
                print(f"round {n + 1} {side}: {result['created']:.0f} msgs, wall "
                      f"{result['seconds']:.1f}s, own CPU {result['cpu']:.2f}s (sync "
                      f"{result['sync_cpu']:.2f}s + workers {result['workers_cpu']:.2f}s), "
                      f"server CPU {result['server_cpu']:.2f}s, peak RSS "
                      f"{result['rss_mb']:.0f} MB")
    a, b = runs["A"], runs["B"]
    for side, results in runs.items():
        if {r["created"] for r in results} != {a[0]["created"]}:
            raise SystemExit(f"side {side} stored a different number of messages")
    cpu = {s: statistics.median(r["cpu"] for r in runs[s]) for s in runs}
    wall = {s: statistics.median(r["seconds"] for r in runs[s]) for s in runs}
    pairs = [rb["cpu"] / ra["cpu"] for ra, rb in zip(a, b, strict=True)]
    print(f"own CPU median: A {cpu['A']:.2f}s, B {cpu['B']:.2f}s; B/A {cpu['B'] / cpu['A']:.3f} "
          f"(per round: median {statistics.median(pairs):.3f}, min {min(pairs):.3f}, "
          f"max {max(pairs):.3f})")
    print(f"wall median: A {wall['A']:.1f}s, B {wall['B']:.1f}s; B/A "
          f"{wall['B'] / wall['A']:.3f} (moves with the machine's load)")
    print(f"peak RSS: A {max(r['rss_mb'] for r in a):.0f} MB, "
          f"B {max(r['rss_mb'] for r in b):.0f} MB; lanes A {a[0]['lanes']}, B {b[0]['lanes']}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--arrivals", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--phase", nargs="*")
    parser.add_argument("--compare-with", metavar="COMMIT",
                        help="A/B: alternate sync rounds of COMMIT (A) and this tree (B)")
    args = parser.parse_args()
    if args.phase:
        name, port, user, password, *rest = args.phase
        result = (phase_bare(int(port), user, password) if name == "bare"
                  else phase_mailmoat(int(port), user, password, rest[0]))
        print(json.dumps(result))
        return

    from tests.support.mailserver import MailServer

    raws = corpus_messages(args.count)
    server = MailServer().start()
    try:
        loaded = load(server, raws)
        print(f"loaded {len(raws)} messages ({sum(map(len, raws)) / 2**20:.0f} MB) "
              f"into mail-devel in {loaded:.1f}s")
        creds = (str(server.imap_port), server.user, server.password)
        if args.compare_with:
            compare(server, creds, args.compare_with, args.rounds)
            return
        # This machine is shared and its speed drifts: bare fetches and syncs alternate,
        # and each sync is compared with the faster of the bare fetches either side of it.
        bares = [run_server_phase(server, "bare", *creds)]
        moats = []
        with tempfile.TemporaryDirectory() as tmp:
            for n in range(args.rounds):
                moats.append(run_server_phase(server, "mailmoat", *creds, f"{tmp}/bench{n}.db"))
                bares.append(run_server_phase(server, "bare", *creds))
        ratios = [m["seconds"] / min(bares[i]["seconds"], bares[i + 1]["seconds"])
                  for i, m in enumerate(moats)]
        for i, moat in enumerate(moats):
            print(f"round {i + 1}: bare {bares[i]['seconds']:.1f}s / {bares[i + 1]['seconds']:.1f}s"
                  f" (server CPU {bares[i]['server_cpu']:.1f}s), mailmoat {moat['seconds']:.1f}s "
                  f"(own CPU {moat['cpu']:.1f}s = sync process {moat['sync_cpu']:.1f}s + parse "
                  f"workers {moat['workers_cpu']:.1f}s; server CPU {moat['server_cpu']:.1f}s): "
                  f"{ratios[i]:.2f}x")
        moat = moats[sorted(range(len(moats)), key=lambda i: ratios[i])[(len(moats) - 1) // 2]]
        best_bare = min(b["seconds"] for b in bares)
        print(f"bare imapclient fetch: {bares[0]['messages']:.0f} msgs, fastest {best_bare:.1f}s = "
              f"{bares[0]['messages'] / best_bare:,.0f} msgs/s, peak RSS "
              f"{max(b['rss_mb'] for b in bares):.0f} MB, client CPU "
              f"{min(b['cpu'] for b in bares):.1f}s")
        print(f"mailmoat sync+classify+store (median round): {moat['created']:.0f} msgs in "
              f"{moat['seconds']:.1f}s = {moat['messages'] / moat['seconds']:,.0f} msgs/s, "
              f"peak RSS {max(m['rss_mb'] for m in moats):.0f} MB, parse workers "
              f"{max(m['workers_rss_mb'] for m in moats):.0f} MB together (largest "
              f"{max(m['worker_rss_mb'] for m in moats):.0f} MB); goal < 300 MB in all")
        print(f"ratio mailmoat/bare: median {statistics.median(ratios):.2f}x over {len(ratios)} "
              f"rounds (min {min(ratios):.2f}x, max {max(ratios):.2f}x; goal <= 2x); "
              f"lanes {moat['lanes']}")
    finally:
        server.stop()
    if args.arrivals:
        server = MailServer().start()
        try:
            with tempfile.TemporaryDirectory() as tmp:
                took = latency(server, args.arrivals, tmp)
        finally:
            server.stop()
        took.sort()
        p95 = took[max(0, round(0.95 * len(took)) - 1)]
        print(f"arrival latency SMTP -> decision stored (IDLE), {len(took)} deliveries: "
              f"p50 {statistics.median(took) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
              f"max {took[-1] * 1000:.0f} ms (goal p95 <= 2000 ms)")


if __name__ == "__main__":
    main()
