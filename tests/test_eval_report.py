"""The one eval report: every section present, numbers from real runs, JSON and Markdown agree."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import SHARED
from mailmoat.eval.report import write_report


def test_report_writes_every_section(tmp_path: Path) -> None:
    md, js = write_report(SHARED / "eval" / "klorn", tmp_path)
    data = json.loads(js.read_text())
    assert {s["set"] for s in data["local_path"]} >= {"judge-eval-set.json",
                                                       "real-eval-set.json"}
    judge = next(s for s in data["local_path"] if s["set"] == "judge-eval-set.json")
    assert judge["floors"] and all(c["ok"] for c in judge["floors"])
    assert data["delta"]["auc_delta"] >= 0.95
    adversarial = data["adversarial_in_process"]
    assert adversarial["total"] >= 150 and adversarial["contained"] == adversarial["total"]
    text = md.read_text()
    for heading in ("Local path", "Delta eval", "Adversarial corpus"):
        assert heading in text
    assert f"{adversarial['contained']} of {adversarial['total']} contained" in text
