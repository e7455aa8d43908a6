"""The five lanes. Only `core.policy.decide` may pick one."""

from __future__ import annotations

from enum import StrEnum


class Lane(StrEnum):
    PUSH = "PUSH"
    MEETING = "MEETING"
    QUEUE = "QUEUE"
    INFO = "INFO"
    SILENT = "SILENT"


# Lanes a person does not see without looking for them.
HIDDEN_LANES: frozenset[Lane] = frozenset({Lane.INFO, Lane.SILENT})
