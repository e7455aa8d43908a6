"""Every judgement the local path gives, written down, so a speed change can be shown to
change no answer.

`dump OUT.json` classifies (no model) every mail of the SpamAssassin corpus, every item of
the Klorn sets, of the development set and of the blind set, and writes each full trace
(`Trace.as_dict()`: lane, branch, reason, features, signals, evidence, input hash, source,
scorer reason). Eval items are judged twice: with no facts, and with the facts of their
context.
`compare A.json B.json` prints how many traces differ (and the first few) and exits 1 when
any does.

Run: PYTHONPATH=src python bench/judgement_snapshot.py dump /tmp/before.json
     PYTHONPATH=src python bench/judgement_snapshot.py compare /tmp/before.json /tmp/after.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
CORPUS = SHARED / "corpora" / "spamassassin"
KLORN = SHARED / "eval" / "klorn"


def traces() -> dict[str, dict[str, Any]]:
    from mailmoat.core.message import parse_message
    from mailmoat.core.policy import Facts
    from mailmoat.eval.judgement import DEV_SET
    from mailmoat.eval.runner import load_items
    from mailmoat.judge.cascade import classify

    out: dict[str, dict[str, Any]] = {}
    paths = [p for p in sorted(CORPUS.rglob("*")) if p.is_file()]
    if not paths:
        raise SystemExit(f"no mail under {CORPUS}")
    for path in paths:
        out[f"corpus/{path.relative_to(CORPUS)}"] = classify(
            parse_message(path.read_bytes())).as_dict()
    blind = DEV_SET.with_name("blind-set.json")
    for set_path in [DEV_SET, *([blind] if blind.is_file() else []),
                     *sorted(KLORN.glob("*.json"))]:
        for n, item in enumerate(load_items(set_path)):
            key = f"{set_path.name}/{n}/{item.id}"
            out[key] = classify(item.message).as_dict()
            if item.facts != Facts():
                out[f"{key}/facts"] = classify(item.message, item.facts).as_dict()
    return out


def compare(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    keys = sorted(set(a) | set(b))
    return [k for k in keys if a.get(k) != b.get(k)]


def main() -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("dump").add_argument("out", type=Path)
    cmp = sub.add_parser("compare")
    cmp.add_argument("a", type=Path)
    cmp.add_argument("b", type=Path)
    args = parser.parse_args()
    if args.command == "dump":
        found = traces()
        args.out.write_text(json.dumps(found, sort_keys=True, ensure_ascii=False))
        print(f"{len(found)} traces written to {args.out}")
        return
    a, b = (json.loads(p.read_text()) for p in (args.a, args.b))
    differ = compare(a, b)
    print(f"{len(a)} and {len(b)} traces; {len(differ)} differ")
    for key in differ[:5]:
        print(f"  {key}:\n    {a.get(key)}\n    {b.get(key)}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
