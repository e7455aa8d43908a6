"""The local spam engine's score reaches the policy at ingest (issue 22): a caller that asked
the engine hands the score in with the bytes (`Incoming.spam_score`); the store passes it on
as `Facts.spam_score` and never asks the engine itself."""

from __future__ import annotations

from pathlib import Path

from mailmoat.core.lanes import Lane
from mailmoat.core.policy import THRESHOLDS
from mailmoat.services.bootstrap import open_store
from mailmoat.store import Incoming

URGENT = (b"From: Kelly Park <kelly@bigcustomer-example.com>\nTo: dana@acme-corp.com\n"
          b"Subject: Production is down, need your help now\nMessage-ID: <k%d@bigcustomer>\n\n"
          b"Kelly here. Our checkout is down since 9:10 and orders are failing. "
          b"Can you call me right away?\n")


def test_the_engines_score_handed_in_at_ingest_keeps_a_mail_out_of_push(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'm.db'}")
    high = THRESHOLDS.spam_engine_no_push + 1
    results = store.ingest_many([
        Incoming(URGENT % 1, "test"),
        Incoming(URGENT % 2, "test", spam_score=high),
        Incoming(URGENT % 3, "test", spam_score=0.5),
    ])
    assert [r.lane for r in results] == [Lane.PUSH.value, Lane.QUEUE.value, Lane.PUSH.value]
    assert all(r.created for r in results)
