"""The learned scorer on the default no-model path, on a real store: what it costs.

Imports part of the SpamAssassin corpus into a fresh SQLite store with the local scorer,
marks every message read and corrects some of them, then measures
  train     the first training from the store (LiveLearnedScorer.refresh: read, parse, fit)
  learn     picking up corrections made elsewhere (one refresh after N new corrections)
  ingest    messages per second through Store.ingest_many with the default no-model
            cascade (judge.setup.scorers_for) next to the local scorer alone, on the same
            messages (into two accounts)
Wall-clock figures move with the machine's load; the CPU figure is this process's own.
Run: .venv/bin/python bench/bench_learning_live.py [--history N] [--fresh N]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from sqlalchemy import select, update

from mailmoat.core.lanes import Lane
from mailmoat.learn.live import LiveLearnedScorer
from mailmoat.learn.service import Learning
from mailmoat.services.bootstrap import open_store, scorers_for
from mailmoat.store import Incoming, Store
from mailmoat.store.tables.messages import DecisionRow, MessageRow

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpora" / "spamassassin"
VISIBLE = (Lane.PUSH, Lane.QUEUE, Lane.MEETING)


def corpus(limit: int) -> list[bytes]:
    files = sorted(p for p in CORPUS.rglob("*") if p.is_file() and not p.name.startswith("cmds"))
    return [p.read_bytes() for p in files[:limit]]


def ingest_rate(store: Store, raws: list[bytes], account: str) -> tuple[float, float]:
    """Messages per second of wall-clock time and of this process's CPU time."""
    start, cpu = time.perf_counter(), time.process_time()
    for i in range(0, len(raws), 200):
        store.ingest_many([Incoming(r, "eml") for r in raws[i : i + 200]], account)
    return (len(raws) / (time.perf_counter() - start),
            len(raws) / (time.process_time() - cpu))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--history", type=int, default=4000)
    parser.add_argument("--fresh", type=int, default=1000)
    parser.add_argument("--corrections", type=int, default=200)
    args = parser.parse_args()
    raws = corpus(args.history + args.fresh)
    history, fresh = raws[: args.history], raws[args.history :]
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(f"sqlite:///{tmp}/bench.db")
        ingest_rate(store, history, "local")
        with store.sessions.begin() as session:
            session.execute(update(MessageRow).values(seen=True))
            ids = list(session.scalars(select(DecisionRow.message_id)
                                       .order_by(DecisionRow.message_id)))
        learn = Learning(store)
        step = max(1, len(ids) // args.corrections)
        for n, mid in enumerate(ids[::step][: args.corrections]):
            lane = VISIBLE[n % len(VISIBLE)]
            if learn.lane(mid) is not lane:
                learn.correct(mid, lane, "bench")

        scorer = LiveLearnedScorer(store.engine)
        start, cpu = time.perf_counter(), time.process_time()
        scorer.refresh()
        train, train_cpu = time.perf_counter() - start, time.process_time() - cpu
        examples = scorer.scorer.model.updates // scorer.epochs
        for mid in ids[1::step][:100]:
            if learn.lane(mid) is not Lane.PUSH:
                learn.correct(mid, Lane.PUSH, "bench")
        start = time.perf_counter()
        scorer.refresh()
        learned = time.perf_counter() - start

        local_rate = ingest_rate(store, fresh, "local-only")
        store.scorers = scorers_for(store.engine, environ={})
        store.scorers[0].refresh()  # type: ignore[attr-defined]  # trained above: not timed
        default_rate = ingest_rate(store, fresh, "default")  # the same messages, another account
    print(f"first training from the store: {examples} examples x {scorer.epochs} epochs "
          f"in {train:.2f}s ({train_cpu:.2f}s CPU)")
    print(f"learning 100 new corrections made elsewhere: {learned * 1000:.0f} ms")
    for name, (wall, cpu) in (("local scorer only", local_rate),
                              ("default no-model cascade (learned scorer)", default_rate)):
        print(f"ingest, {name}: {wall:,.0f} messages/s ({cpu:,.0f} per CPU second)")


if __name__ == "__main__":
    main()
