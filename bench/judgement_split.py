"""Judgement with no model on a fixed tuning / held-out split of the public data.

The SpamAssassin corpus (../shared/corpora/spamassassin) and the Klorn sets
(../shared/eval/klorn) are split in two halves by `eval/judgement.py half` (sha256 of the
item's name: `folder/file`, `set:id`), the same on every run. Signals are tuned on the
tuning half only; the held-out half is measured, never inspected: `--inspect` lists the
tuning half's misses and refuses the other half.

Prints, per half and for the whole: spam in PUSH, easy-ham-1 SILENT, ham in PUSH, and each
Klorn set's accuracy and urgent-in-PUSH count; the development set (written in the repo,
not split) beside them.

Run: PYTHONPATH=src python bench/judgement_split.py [--json] [--inspect]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from mailmoat.core.lanes import Lane
from mailmoat.core.message import Message, parse_message
from mailmoat.eval.judgement import corpus_split, half, label_metrics, labelled_sets
from mailmoat.eval.runner import evaluate, load_items
from mailmoat.judge.cascade import classify

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
CORPUS = SHARED / "corpora" / "spamassassin"
KLORN = SHARED / "eval" / "klorn"
HALVES = ("tuning", "held-out", "all")


def _keep(which: str):  # type: ignore[no-untyped-def]
    return None if which == "all" else (lambda key: half(key) == which)


def _local(message: Message, raw: bytes) -> Lane:
    return classify(message).decision.lane


def corpus_figures(which: str) -> dict[str, Any]:
    split = corpus_split(CORPUS, _local, _keep(which))
    folders = split["folders"]
    ham = [f for name, f in folders.items() if not name.startswith("spam")]
    return {"spam_total": split["spam_total"], "spam_in_push": split["spam_in_push"],
            "easy_ham_1": folders["easy-ham-1"]["total"],
            "easy_ham_1_silent": split["easy_ham_1_silent"],
            "ham_total": sum(f["total"] for f in ham), "ham_in_push": sum(f["push"] for f in ham),
            "folders": {name: f["lanes"] for name, f in folders.items()}}


def klorn_figures(which: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for path in sorted(KLORN.glob("*.json")):
        items = [i for i in load_items(path)
                 if which == "all" or half(f"{path.stem}:{i.id}") == which]
        report = evaluate(path.name, items)
        out[path.stem] = {"items": report.total, "accuracy": report.accuracy,
                          "urgent": f"{report.urgent_hits}/{report.urgent_total}",
                          "violations": len(report.violations)}
    return out


def inspect() -> None:
    """The tuning half's spam that is urgent enough to push (in PUSH or kept out only by
    sender evidence) and its ham in PUSH, with the evidence the judge saw."""
    for folder in sorted(p for p in CORPUS.iterdir() if p.is_dir()):
        for path in sorted(folder.iterdir()):
            if half(f"{folder.name}/{path.name}") != "tuning":
                continue
            message = parse_message(path.read_bytes())
            trace = classify(message)
            spam = folder.name.startswith("spam")
            lane = trace.decision.lane
            if (spam and trace.features.urgency >= 0.7) or (not spam and lane is Lane.PUSH):
                ev = trace.evidence
                print(f"{folder.name}/{path.name[:5]} {lane.value:7} u={trace.features.urgency}"
                      f" {message.subject[:60]!r} <{message.from_addr}>\n"
                      f"    {trace.scorer_reason[:110]}\n"
                      f"    spam shapes {ev['spam_reasons']} phishing {ev['phishing_reasons']}")


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{x:.1%}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--inspect", action="store_true",
                        help="list the tuning half's urgent spam and pushed ham")
    args = parser.parse_args()
    if args.inspect:
        inspect()
        return
    data = {which: {"corpus": corpus_figures(which), "klorn": klorn_figures(which)}
            for which in HALVES}
    for path in labelled_sets():
        items = load_items(path)
        found = label_metrics(items, evaluate(path.name, items))
        data[path.name] = {k: v for k, v in found.items() if k != "by_label"}
    if args.json:
        print(json.dumps(data, indent=2))
        return
    print("| measure | " + " | ".join(HALVES) + " |")
    print("|---|---|---|---|")
    rows = [("spam in PUSH", lambda c: f"{c['spam_in_push']} of {c['spam_total']}"),
            ("easy-ham-1 SILENT", lambda c: f"{_pct(c['easy_ham_1_silent'])} of "
                                            f"{c['easy_ham_1']}"),
            ("ham in PUSH", lambda c: f"{c['ham_in_push']} of {c['ham_total']}")]
    for name, cell in rows:
        print(f"| {name} | " + " | ".join(cell(data[w]["corpus"]) for w in HALVES) + " |")
    for stem in data["all"]["klorn"]:
        cells = [data[w]["klorn"][stem] for w in HALVES]
        print(f"| Klorn {stem}: accuracy, urgent in PUSH | " + " | ".join(
            f"{_pct(c['accuracy'])} ({c['items']}), {c['urgent']}" for c in cells) + " |")
    print()
    for path in labelled_sets():
        d = data[path.name]
        print(f"{path.name} ({d['items']} items, not split): accepted "
              f"{_pct(d['lane_accepted'])}, urgent in PUSH/MEETING "
              f"{_pct(d['urgent_push_or_meeting'])}, PUSH precision {_pct(d['push_precision'])}"
              f" ({d['push_total']}), scams/phishing in PUSH {d['suspect_in_push']}, promotions"
              f" SILENT/INFO {_pct(d['promotions_silent_or_info'])}, visible mail hidden "
              f"{_pct(d['visible_hidden'])}")


if __name__ == "__main__":
    main()
