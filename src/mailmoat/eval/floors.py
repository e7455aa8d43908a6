"""Ratchet floors: committed minimums (and maximums) the local path must keep on the public
eval sets. A floor may only be raised; `lowered` says which ones a change would lower.

Floors live in `floors.json` beside this file: {set file name: {metric: bound}}. Metrics:
accuracy, urgent_recall and hidden_precision are minimums; violations is a maximum.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mailmoat.eval.runner import EvalReport

FLOORS_FILE = Path(__file__).with_name("floors.json")
MINIMUMS = ("accuracy", "urgent_recall", "hidden_precision")
MAXIMUMS = ("violations",)
METRICS = MINIMUMS + MAXIMUMS


class FloorsError(ValueError):
    """The floors file is malformed."""


@dataclass(frozen=True, slots=True)
class FloorCheck:
    metric: str
    bound: float
    value: float | None  # None: the set has no items for this metric
    margin: float | None  # how far inside the floor (negative: breached)

    @property
    def ok(self) -> bool:
        return self.margin is None or self.margin >= 0

    def as_dict(self) -> dict[str, Any]:
        return {"metric": self.metric, "bound": self.bound, "value": self.value,
                "margin": self.margin, "ok": self.ok}


def parse_floors(data: Any) -> dict[str, dict[str, float]]:
    if not isinstance(data, dict):
        raise FloorsError("floors must be an object of {set: {metric: bound}}")
    out: dict[str, dict[str, float]] = {}
    for name, bounds in data.items():
        if not isinstance(bounds, dict):
            raise FloorsError(f"{name}: expected an object of metric bounds")
        for metric, bound in bounds.items():
            if metric not in METRICS:
                raise FloorsError(f"{name}: unknown metric {metric!r}")
            if isinstance(bound, bool) or not isinstance(bound, int | float):
                raise FloorsError(f"{name}.{metric}: bound must be a number")
        out[str(name)] = {m: float(b) for m, b in bounds.items()}
    return out


def load_floors(path: Path = FLOORS_FILE) -> dict[str, dict[str, float]]:
    try:
        return parse_floors(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, json.JSONDecodeError) as exc:
        raise FloorsError(f"cannot read floors {path}: {exc}") from exc


def metric_value(report: EvalReport, metric: str) -> float | None:
    if metric == "accuracy":
        return report.accuracy
    if metric == "urgent_recall":
        return report.urgent_recall
    if metric == "hidden_precision":
        return report.hidden_precision
    if metric == "violations":
        return float(len(report.violations))
    raise FloorsError(f"unknown metric {metric!r}")


def check_floors(report: EvalReport, bounds: dict[str, float]) -> list[FloorCheck]:
    checks = []
    for metric, bound in sorted(bounds.items()):
        value = metric_value(report, metric)
        if value is None:
            margin = None
        elif metric in MAXIMUMS:
            margin = bound - value
        else:
            margin = value - bound
        checks.append(FloorCheck(metric, bound, value, margin))
    return checks


def lowered(old: dict[str, dict[str, float]], new: dict[str, dict[str, float]]) -> list[str]:
    """Every floor that `new` lowers (or drops) relative to `old`: what a ratchet forbids."""
    problems = []
    for name, bounds in old.items():
        for metric, bound in bounds.items():
            now = new.get(name, {}).get(metric)
            if now is None:
                problems.append(f"{name}.{metric} removed (was {bound})")
            elif metric in MAXIMUMS and now > bound:
                problems.append(f"{name}.{metric} raised from {bound} to {now}")
            elif metric in MINIMUMS and now < bound:
                problems.append(f"{name}.{metric} lowered from {bound} to {now}")
    return problems


def ratcheted(old: dict[str, dict[str, float]], report: EvalReport,
              step: float = 0.01) -> dict[str, float]:
    """The floors for `report`'s set raised to what it achieves now (rounded down to `step`),
    never lowered."""
    bounds = dict(old.get(report.name, {}))
    for metric in METRICS:
        value = metric_value(report, metric)
        if value is None:
            continue
        if metric in MAXIMUMS:
            bounds[metric] = min(bounds.get(metric, value), value)
        else:
            achieved = int(value / step + 1e-9) * step
            bounds[metric] = round(max(bounds.get(metric, 0.0), achieved), 4)
    return bounds
