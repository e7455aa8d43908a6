"""Chaos, small size: the multi-machine topology as plain processes (PostgreSQL, RabbitMQ,
2 web, 3 workers, the scheduler, one mail-devel per account) while a random worker is
SIGKILLed every few seconds. Every mail ends stored once and marked on its server, every
approved send is delivered once, no two syncs of one account overlapped (the lease grant
record), and every account a killed worker was syncing was taken up again within 60 s.
bench/bench_chaos.py runs the full size."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.chaos_support import ChaosSize, assert_marked, assert_sound, run_chaos


@pytest.mark.slow
@pytest.mark.rabbitmq
@pytest.mark.postgres
def test_sigkilled_workers_lose_nothing_and_duplicate_nothing(
        tmp_path: Path, pg_url: str, rabbitmq_queue: tuple[str, str]) -> None:
    size = ChaosSize()
    broker_url, queue = rabbitmq_queue
    figures = run_chaos(size, pg_url, broker_url, queue, tmp_path)
    assert_sound(figures, size)
    # A worker killed between the commit that records a mail's location and the one that
    # plans its lane action is repaired by the next pass (SYNC-2): every mail ends marked.
    assert_marked(figures)
