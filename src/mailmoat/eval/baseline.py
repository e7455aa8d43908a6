"""Baselines and canaries: store a run, and tell what a later run changed.

A verdict flip is the same item with the same expected lane landing in a different lane.
Flips are listed both ways (fixed and broken), because a run with the same accuracy can still
have moved mail a person relies on.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mailmoat.eval.floors import METRICS, check_floors
from mailmoat.eval.runner import EvalReport


class BaselineError(ValueError):
    """The baseline file cannot be read or is not from the same set."""


def save_baseline(report: EvalReport, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(report.as_dict(with_items=True), indent=2, ensure_ascii=False),
                   encoding="utf-8")
    tmp.replace(path)  # atomic: a killed run never leaves half a baseline


def load_baseline(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise BaselineError(f"cannot read baseline {path}: {exc}") from exc
    if not isinstance(data, dict) or not isinstance(data.get("items"), list):
        raise BaselineError(f"{path} is not a baseline (no per-item predictions)")
    return data


@dataclass(frozen=True, slots=True)
class Comparison:
    flips: list[dict[str, Any]] = field(default_factory=list)
    metric_moves: dict[str, dict[str, float | None]] = field(default_factory=dict)
    floor_margins: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"flips": self.flips, "metrics": self.metric_moves,
                "floor_margins": self.floor_margins}


def _baseline_metric(data: dict[str, Any], metric: str) -> float | None:
    if metric == "violations":
        return float(len(data.get("violations", [])))
    key = {"hidden_precision": "hidden_lane_precision"}.get(metric, metric)
    value = data.get(key)
    return float(value) if isinstance(value, int | float) else None


def compare(baseline: dict[str, Any], report: EvalReport,
            floors: dict[str, float] | None = None) -> Comparison:
    if baseline.get("set") != report.name:
        raise BaselineError(f"baseline is for {baseline.get('set')!r}, this run is {report.name!r}")
    before = {str(i["id"]): i for i in baseline["items"] if isinstance(i, dict)}
    flips = []
    for item in report.items:
        old = before.get(item.id)
        if old is None or old.get("expected") != item.expected.value:
            continue  # a new or relabelled item is not a flip
        if old.get("predicted") != item.predicted.value:
            flips.append({"id": item.id, "expected": item.expected.value,
                          "was": old.get("predicted"), "now": item.predicted.value,
                          "fixed": item.correct and not old.get("correct"),
                          "broken": old.get("correct") and not item.correct})
    now = report.as_dict()
    moves = {}
    for metric in METRICS:
        then = _baseline_metric(baseline, metric)
        current = _baseline_metric(now, metric)
        moves[metric] = {"baseline": then, "now": current,
                         "delta": None if then is None or current is None else current - then}
    margins = []
    for check in check_floors(report, floors or {}):
        then = moves[check.metric]["baseline"]
        then_margin = None
        if then is not None:
            then_margin = (check.bound - then) if check.metric == "violations" else (
                then - check.bound)
        margins.append({**check.as_dict(), "baseline_margin": then_margin})
    return Comparison(flips, moves, margins)
