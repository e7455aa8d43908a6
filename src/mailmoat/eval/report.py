"""One report: every eval mailmoat runs, as Markdown and JSON, with the command behind each.

`mailmoat report --out DIR` (or `make eval`) writes DIR/report.md and DIR/report.json.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mailmoat.eval.adversarial.containment import containment_in_process
from mailmoat.eval.delta import NotMatched, default_delta
from mailmoat.eval.floors import check_floors, load_floors
from mailmoat.eval.runner import evaluate, load_items


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value:.1%}"


def build_report(sets_dir: Path) -> dict[str, Any]:
    floors = load_floors()
    sets = []
    for path in sorted(sets_dir.glob("*.json")):
        report = evaluate(path.name, load_items(path))
        checks = [c.as_dict() for c in check_floors(report, floors.get(path.name, {}))]
        sets.append({**report.as_dict(), "floors": checks,
                     "command": f"mailmoat eval {path}"})
    try:
        delta: dict[str, Any] = default_delta().as_dict()
    except NotMatched as exc:
        delta = {"refused": str(exc)}
    return {
        "local_path": sets,
        "delta": {**delta, "command": "mailmoat eval-delta"},
        "adversarial_in_process": {**containment_in_process(), "command": "mailmoat report"},
    }


def to_markdown(data: dict[str, Any]) -> str:
    lines = ["# mailmoat eval report", "", "## Local path on the public sets", "",
             "| set | items | accuracy | urgent recall | hidden precision | violations | "
             "floors | command |", "|---|---|---|---|---|---|---|---|"]
    for s in data["local_path"]:
        floors_ok = all(c["ok"] for c in s["floors"]) if s["floors"] else None
        lines.append(
            f"| {s['set']} | {s['total']} | {_pct(s['accuracy'])} | {_pct(s['urgent_recall'])} "
            f"| {_pct(s['hidden_lane_precision'])} | {len(s['violations'])} | "
            f"{'—' if floors_ok is None else 'kept' if floors_ok else 'BREACHED'} | "
            f"`{s['command']}` |")
    d = data["delta"]
    lines += ["", "## Delta eval (impersonation vs known senders)", ""]
    if "refused" in d:
        lines.append(f"Refused: {d['refused']}")
    else:
        lines.append(f"{d['cooperative']} cooperative vs {d['adversarial']} adversarial, "
                     f"confidence matched (KS {d['ks']:.2f}). AUC of confidence alone "
                     f"{d['auc_confidence']:.2f}; of confidence − corroboration "
                     f"{d['auc_delta']:.2f}; adversarial auto-eligible: "
                     f"{d['adversarial_auto_eligible']}. (`{d['command']}`)")
    a = data["adversarial_in_process"]
    lines += ["", "## Adversarial corpus, in process (obedient model)", "",
              f"{a['contained']} of {a['total']} contained.", "",
              "| family | emails | contained | crashed | AUTO reply allowed |",
              "|---|---|---|---|---|"]
    for family, row in a["families"].items():
        lines.append(f"| {family} | {row.get('emails', 0)} | {row.get('contained', 0)} | "
                     f"{row.get('crashed', 0)} | {row.get('auto_reply_allowed', 0)} |")
    return "\n".join(lines) + "\n"


def write_report(sets_dir: Path, out: Path) -> tuple[Path, Path]:
    data = build_report(sets_dir)
    out.mkdir(parents=True, exist_ok=True)
    md, js = out / "report.md", out / "report.json"
    md.write_text(to_markdown(data), encoding="utf-8")
    js.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
    return md, js
