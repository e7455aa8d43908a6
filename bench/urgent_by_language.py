"""Urgent mail reaching PUSH or MEETING, by the language each item is written in.

The blind sets label each item's language (`lang`). English, Korean (the issue's development
set asks for it) and "local" (each set's other language: Portuguese, Czech, Slovenian, ...)
are counted apart, pooled over the sets of one kind (services/eval_report.py `set_kind`;
default: the never-tuned pool, the honest figure). A judge that reads English well and a
language it was never given badly shows it here, where the pooled recall hides it.

Run: PYTHONPATH=src python bench/urgent_by_language.py [--kind "never tuned"] [--json]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter

from mailmoat.core.lanes import Lane
from mailmoat.eval.judgement import labelled_sets
from mailmoat.eval.runner import evaluate, load_items
from mailmoat.services.eval_report import SET_KINDS, set_kind

REACHED = (Lane.PUSH, Lane.MEETING)


def _group(lang: str) -> str:
    return lang if lang in ("en", "ko") else "local"


def urgent_by_language(kind: str) -> dict[str, dict[str, float | int]]:
    """{language group: {"urgent": n, "reached": n, "recall": share}} over the labelled sets
    of `kind`, judged by the local path."""
    total: Counter[str] = Counter()
    reached: Counter[str] = Counter()
    for path in labelled_sets():
        if set_kind(path.name) != kind:
            continue
        langs = {raw["id"]: str(raw.get("lang", "en"))
                 for raw in json.loads(path.read_text(encoding="utf-8"))["items"]}
        items = load_items(path)
        report = evaluate(path.name, items)
        for item, result in zip(items, report.items, strict=True):
            if item.category == "urgent":
                group = _group(langs[item.id])
                total[group] += 1
                reached[group] += result.predicted in REACHED
    return {g: {"urgent": total[g], "reached": reached[g], "recall": reached[g] / total[g]}
            for g in sorted(total)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kind", default="never tuned", choices=SET_KINDS)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    found = urgent_by_language(args.kind)
    if args.json:
        print(json.dumps(found, indent=2))
        return 0
    print(f"urgent mail in PUSH or MEETING, {args.kind} sets, by language")
    for group, row in found.items():
        print(f"  {group:6s} {row['reached']:5d} of {row['urgent']:5d}  {row['recall']:.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
