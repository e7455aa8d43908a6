"""Ratchet floors (enforced here, in CI) and baselines with verdict flips."""

from __future__ import annotations

import itertools
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from mailmoat.core.lanes import Lane
from mailmoat.eval.baseline import BaselineError, compare, load_baseline, save_baseline
from mailmoat.eval.floors import (
    FLOORS_FILE,
    FloorsError,
    check_floors,
    load_floors,
    lowered,
    parse_floors,
    ratcheted,
)
from mailmoat.eval.runner import EvalReport, ItemResult, evaluate, load_items
from tests.conftest import SHARED

KLORN = SHARED / "eval" / "klorn"
REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("set_name", sorted(load_floors()))
def test_the_local_path_keeps_every_committed_floor(set_name: str) -> None:
    from mailmoat.eval.judgement import labelled_sets

    ours = {p.name: p for p in labelled_sets()}
    path = ours.get(set_name, KLORN / set_name)
    if not path.exists():
        pytest.fail(f"{path} is missing: the floors cannot be checked")
    report = evaluate(set_name, load_items(path))
    breached = [c.as_dict() for c in check_floors(report, load_floors()[set_name]) if not c.ok]
    assert not breached


def _committed_versions() -> list[tuple[str, dict[str, dict[str, float]]]]:
    rel = FLOORS_FILE.relative_to(REPO).as_posix()
    log = subprocess.run(["git", "-C", str(REPO), "log", "--format=%H", "--reverse", "--", rel],
                         capture_output=True, text=True, check=True).stdout.split()
    versions = []
    for commit in log:
        shown = subprocess.run(["git", "-C", str(REPO), "show", f"{commit}:{rel}"],
                               capture_output=True, text=True)
        if shown.returncode == 0:  # deleted in that commit: nothing to compare
            versions.append((commit[:8], parse_floors(json.loads(shown.stdout))))
    return versions


def test_floors_were_only_ever_raised() -> None:
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("no git history here to check the ratchet against")
    versions = _committed_versions()
    versions.append(("working tree", load_floors()))
    for (_, old), (name, new) in itertools.pairwise(versions):
        assert not lowered(old, new), f"{name} lowers a floor: {lowered(old, new)}"


def test_lowered_names_every_kind_of_loosening() -> None:
    old = {"s": {"accuracy": 0.8, "violations": 0.0}}
    assert lowered(old, old) == []
    assert lowered(old, {"s": {"accuracy": 0.9, "violations": 0.0}}) == []
    assert len(lowered(old, {"s": {"accuracy": 0.79, "violations": 0.0}})) == 1
    assert len(lowered(old, {"s": {"accuracy": 0.8, "violations": 1.0}})) == 1
    assert len(lowered(old, {"s": {"accuracy": 0.8}})) == 1
    assert len(lowered(old, {})) == 2


def _report(name: str, pairs: list[tuple[str, Lane, Lane]]) -> EvalReport:
    items = [ItemResult(i, e, p, e == p, "local", {}) for i, e, p in pairs]
    correct = sum(r.correct for r in items)
    return EvalReport(name, len(items), correct / len(items), {}, 0, 0, 0, 0, [], items)


def test_ratchet_raises_but_never_lowers() -> None:
    good = _report("s", [("1", Lane.QUEUE, Lane.QUEUE), ("2", Lane.INFO, Lane.INFO)])
    bad = _report("s", [("1", Lane.QUEUE, Lane.QUEUE), ("2", Lane.INFO, Lane.QUEUE)])
    raised = ratcheted({"s": {"accuracy": 0.5}}, good)
    assert raised["accuracy"] == 1.0
    assert ratcheted({"s": raised}, bad)["accuracy"] == 1.0
    assert check_floors(bad, raised)[0].ok is False


def test_malformed_floors_are_rejected() -> None:
    for bad in ([], {"s": 1}, {"s": {"speed": 1}}, {"s": {"accuracy": "high"}},
                {"s": {"accuracy": True}}):
        with pytest.raises(FloorsError):
            parse_floors(bad)


def test_baseline_reports_flips_both_ways(tmp_path: Path) -> None:
    before = _report("s", [("1", Lane.PUSH, Lane.PUSH), ("2", Lane.INFO, Lane.QUEUE),
                           ("3", Lane.QUEUE, Lane.QUEUE)])
    after = _report("s", [("1", Lane.PUSH, Lane.QUEUE), ("2", Lane.INFO, Lane.INFO),
                          ("3", Lane.QUEUE, Lane.QUEUE), ("4", Lane.SILENT, Lane.SILENT)])
    path = tmp_path / "base.json"
    save_baseline(before, path)
    result = compare(load_baseline(path), after, {"accuracy": 0.5})
    flips = {f["id"]: f for f in result.flips}
    assert set(flips) == {"1", "2"}
    assert flips["1"]["broken"] and not flips["1"]["fixed"]
    assert flips["2"]["fixed"] and not flips["2"]["broken"]
    margin = result.floor_margins[0]
    assert margin["baseline_margin"] == pytest.approx(2 / 3 - 0.5)  # 2 of 3 right
    assert margin["margin"] == pytest.approx(0.75 - 0.5)


def test_a_baseline_of_another_set_or_a_broken_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "base.json"
    save_baseline(_report("a", [("1", Lane.PUSH, Lane.PUSH)]), path)
    with pytest.raises(BaselineError):
        compare(load_baseline(path), _report("b", [("1", Lane.PUSH, Lane.PUSH)]))
    path.write_text("{not json")
    with pytest.raises(BaselineError):
        load_baseline(path)
