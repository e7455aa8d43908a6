"""The executor as a job on the task queue (huey, see
entrypoints/jobs.py): `run_outbox` drains
the outbox once and applies approved reversible actions. Several workers may run it at
once; the row claims keep them apart, so it needs no queue lock. The exactly-once guarantee
lives in the database, not in the queue."""

from __future__ import annotations

from typing import Any

from huey import Huey

from mailmoat.entrypoints import worker


def register(huey: Huey) -> Any:
    """Declare `run_outbox(database_url)` on `huey`; returns the task."""

    @huey.task()
    def run_outbox(database_url: str | None = None) -> list[str]:
        running = worker.build_worker(database_url, f"huey-{id(huey):x}")
        return [f"{o.outbox_id} {o.state}" for o in running.run_pass()]

    return run_outbox
