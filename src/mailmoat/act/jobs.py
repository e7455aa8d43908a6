"""The executor as a job on the task queue (huey, see mailmoat/jobs.py): `run_outbox` drains
the outbox once. Several workers may run it at once; the row claims keep them apart, so it
needs no queue lock. The exactly-once guarantee lives in the database, not in the queue."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from huey import Huey

from mailmoat.act import worker


def register(huey: Huey) -> Any:
    """Declare `run_outbox(config_path)` on `huey`; returns the task."""

    @huey.task()
    def run_outbox(config_path: str) -> list[str]:
        executor = worker.build_executor(
            worker.load_config(Path(config_path)), f"huey-{id(huey):x}")
        return [f"{o.outbox_id} {o.state}" for o in executor.run_until_idle()]

    return run_outbox
