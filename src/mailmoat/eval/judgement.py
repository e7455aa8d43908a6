"""The issue-22 measures of judgement with no model: lane acceptance by human label on the
development set, and the SpamAssassin corpus split by folder.

Pure reporting over `runner.evaluate` results; reads files only where told to.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from mailmoat.core.lanes import HIDDEN_LANES, Lane
from mailmoat.core.message import Message, parse_message
from mailmoat.eval.runner import EvalItem, EvalReport

DEV_SET = Path(__file__).resolve().parent / "sets" / "dev-set.json"
# Sets written by someone who never read the judge's code nor the other sets (issue 22):
# less flattering than the development set. Each one's first measurement, before anything
# was tuned on it, is kept in docs/results.md.
BLIND_SETS = tuple(Path(__file__).resolve().parent / "sets" / name
                   for name in ("blind-set.json", "blind-set-2.json", "blind-set-3.json",
                                "blind-set-4.json", "blind-set-5.json", "blind-set-6.json",
                                "blind-set-7.json", "blind-set-8.json", "blind-set-9.json",
                                "blind-set-10.json", "blind-set-11.json", "blind-set-12.json",
                                "blind-set-13.json", "blind-set-14.json", "blind-set-15.json",
                                "blind-set-16.json", "blind-set-17.json", "blind-set-18.json",
                                "blind-set-19.json", "blind-set-20.json",
                                "blind-set-21.json", "blind-set-22.json",
                                "blind-set-23.json", "blind-set-24.json",
                                "blind-set-25.json", "blind-set-26.json",
                                "blind-set-27.json", "blind-set-28.json",
                                "blind-set-29.json", "blind-set-30.json",
                                "blind-set-31.json", "blind-set-32.json",
                                "blind-set-33.json", "blind-set-34.json",
                                "blind-set-35.json", "blind-set-36.json",
                                "blind-set-37.json", "blind-set-38.json",
                                "blind-set-39.json", "blind-set-40.json",
                                "blind-set-41.json", "blind-set-42.json",
                                "blind-set-43.json", "blind-set-44.json",
                                "blind-set-45.json", "blind-set-46.json",
                                "blind-set-47.json", "blind-set-48.json",
                                "blind-set-49.json", "blind-set-50.json",
                                "blind-set-51.json", "blind-set-52.json",
                                "blind-set-53.json", "blind-set-54.json",
                                "blind-set-55.json", "blind-set-56.json",
                                "blind-set-57.json", "blind-set-58.json",
                                "blind-set-59.json", "blind-set-60.json",
                                "blind-set-61.json", "blind-set-62.json",
                                "blind-set-63.json", "blind-set-64.json",
                                "blind-set-65.json", "blind-set-66.json",
                                "blind-set-67.json", "blind-set-68.json",
                                "blind-set-69.json", "blind-set-70.json",
                                "blind-set-71.json", "blind-set-72.json",
                                "blind-set-73.json", "blind-set-74.json",
                                "blind-set-75.json", "blind-set-76.json",
                                "blind-set-77.json", "blind-set-78.json",
                                "blind-set-79.json", "blind-set-80.json",
                                "blind-set-81.json", "blind-set-82.json",
                                "blind-set-83.json", "blind-set-84.json",
                                "blind-set-85.json", "blind-set-86.json",
                                "blind-set-87.json", "blind-set-88.json",
                                "blind-set-89.json", "blind-set-90.json",
                                "blind-set-91.json", "blind-set-92.json",
                                "blind-set-93.json", "blind-set-94.json",
                                "blind-set-95.json", "blind-set-96.json",
                                "blind-set-97.json", "blind-set-98.json",
                                "blind-set-99.json", "blind-set-100.json",
                                "blind-set-101.json", "blind-set-102.json",
                                "blind-set-103.json", "blind-set-104.json",
                                "blind-set-105.json", "blind-set-106.json",
                                "blind-set-107.json", "blind-set-108.json",
                                "blind-set-109.json", "blind-set-110.json",
                                "blind-set-111.json", "blind-set-112.json",
                                "blind-set-113.json", "blind-set-114.json",
                                "blind-set-115.json", "blind-set-116.json",
                                "blind-set-117.json", "blind-set-118.json",
                                "blind-set-119.json", "blind-set-120.json",
                                "blind-set-121.json", "blind-set-122.json",
                                "blind-set-123.json", "blind-set-124.json",
                                "blind-set-125.json", "blind-set-126.json",
                                "blind-set-127.json", "blind-set-128.json",
                                "blind-set-129.json", "blind-set-130.json",
                                "blind-set-131.json", "blind-set-132.json",
                                "blind-set-133.json", "blind-set-134.json",
                                "blind-set-135.json", "blind-set-136.json",
                                "blind-set-137.json", "blind-set-138.json",
                                "blind-set-139.json", "blind-set-140.json",
                                "blind-set-141.json", "blind-set-142.json",
                                "blind-set-143.json", "blind-set-144.json",
                                "blind-set-145.json", "blind-set-146.json",
                                "blind-set-147.json", "blind-set-148.json",
                                "blind-set-149.json", "blind-set-150.json",
                                "blind-set-151.json", "blind-set-152.json",
                                "blind-set-153.json", "blind-set-154.json",
                                "blind-set-155.json", "blind-set-156.json",
                                *(f"blind-set-{i}.json" for i in range(157, 273))))


def labelled_sets() -> list[Path]:
    """The sets with a human label per item: the development set and the blind sets present."""
    return [DEV_SET, *(p for p in BLIND_SETS if p.is_file())]
VISIBLE_LABELS = frozenset({"urgent", "needs-response", "personal"})
SUSPECT_LABELS = frozenset({"scam", "phishing"})
PROMO_LABELS = frozenset({"promotion"})


def _share(num: int, den: int) -> float | None:
    return num / den if den else None


def label_metrics(items: Sequence[EvalItem], report: EvalReport) -> dict[str, Any]:
    """The issue's table for a set whose items carry a human `category`."""
    rows = [(i.category, r.predicted, r.correct, r.id)
            for i, r in zip(items, report.items, strict=True) if i.category]
    by_label: dict[str, dict[str, Any]] = {}
    for label in sorted({c for c, *_ in rows}):
        mine = [r for r in rows if r[0] == label]
        lanes = Counter(p.value for _, p, _, _ in mine)
        by_label[label] = {"items": len(mine), "accepted": sum(ok for _, _, ok, _ in mine),
                           "lanes": dict(sorted(lanes.items()))}
    urgent = [r for r in rows if r[0] == "urgent"]
    pushed = [r for r in rows if r[1] is Lane.PUSH]
    promos = [r for r in rows if r[0] in PROMO_LABELS]
    visible = [r for r in rows if r[0] in VISIBLE_LABELS]
    return {
        "items": len(rows),
        "lane_accepted": _share(sum(ok for *_, ok, _ in rows), len(rows)),
        "urgent_push_or_meeting": _share(
            sum(p in (Lane.PUSH, Lane.MEETING) for _, p, _, _ in urgent), len(urgent)),
        "push_precision": _share(sum(c == "urgent" for c, *_ in pushed), len(pushed)),
        "push_total": len(pushed),
        "suspect_in_push": sum(c in SUSPECT_LABELS for c, *_ in pushed),
        "suspect_in_push_ids": [i for c, p, _, i in pushed if c in SUSPECT_LABELS],
        "promotions_silent_or_info": _share(
            sum(p in (Lane.SILENT, Lane.INFO) for _, p, _, _ in promos), len(promos)),
        "visible_hidden": _share(sum(p in HIDDEN_LANES for _, p, _, _ in visible), len(visible)),
        "by_label": by_label,
    }


# The goals for the figures above. Scams and phishing in PUSH are counted per 1,000
# labelled mails when sets are pooled (the "at most 2" was of 307 business mails).
GOALS: dict[str, tuple[str, float]] = {
    "lane_accepted": (">=", 0.80), "urgent_push_or_meeting": (">=", 0.90),
    "push_precision": (">=", 0.80), "suspect_in_push_per_1000": ("<=", 2 / 307 * 1000),
    "promotions_silent_or_info": (">=", 0.70), "visible_hidden": ("<=", 0.01),
}


def meets(key: str, value: float | None) -> bool | None:
    """Whether `value` meets the goal GOALS names for `key` (None: no value or no goal)."""
    if value is None or key not in GOALS:
        return None
    op, goal = GOALS[key]
    return value >= goal if op == ">=" else value <= goal


def pool_label_metrics(found: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The figures of `label_metrics` over the union of several sets, from each set's counts
    (not an average of their shares: a set of 250 and one of 300 weigh as many mails)."""
    labels: dict[str, dict[str, Any]] = {}
    for one in found:
        for label, row in one["by_label"].items():
            mine = labels.setdefault(label, {"items": 0, "accepted": 0, "lanes": Counter()})
            mine["items"] += row["items"]
            mine["accepted"] += row["accepted"]
            mine["lanes"].update(row["lanes"])

    def count(names: frozenset[str] | set[str], lanes: set[str]) -> tuple[int, int]:
        rows = [labels[n] for n in names if n in labels]
        return (sum(r["lanes"][lane] for r in rows for lane in lanes),
                sum(r["items"] for r in rows))

    items = sum(r["items"] for r in labels.values())
    push_total = sum(one["push_total"] for one in found)
    suspects = sum(one["suspect_in_push"] for one in found)
    hidden = {lane.value for lane in HIDDEN_LANES}
    return {
        "sets": len(found), "items": items,
        "lane_accepted": _share(sum(r["accepted"] for r in labels.values()), items),
        "urgent_push_or_meeting": _share(*count({"urgent"}, {"PUSH", "MEETING"})),
        "push_precision": _share(count({"urgent"}, {"PUSH"})[0], push_total),
        "push_total": push_total, "suspect_in_push": suspects,
        "suspect_in_push_per_1000": suspects * 1000 / items if items else None,
        "promotions_silent_or_info": _share(*count(PROMO_LABELS, {"SILENT", "INFO"})),
        "visible_hidden": _share(*count(VISIBLE_LABELS, hidden)),
    }


def half(key: str) -> str:
    """'tuning' or 'held-out': a fixed split of public items by the sha256 of a key that
    names them (`folder/file` in a corpus, `set:id` in an eval set), the same on every
    machine and run. Judges are tuned on the tuning half; the held-out half is measured only
    (bench/judgement_split.py)."""
    return "tuning" if hashlib.sha256(key.encode("utf-8")).digest()[0] % 2 == 0 else "held-out"


def corpus_split(root: Path, judge: Callable[[Message, bytes], Lane],
                 select: Callable[[str], bool] | None = None) -> dict[str, Any]:
    """Lane counts per folder of an RFC 822 corpus (the SpamAssassin layout: one folder per
    kind, one message per file). `judge` gets the parsed message and its raw bytes;
    `select`, when given, keeps only the files whose `folder/file` key it accepts."""
    folders: dict[str, Any] = {}
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        lanes: Counter[str] = Counter()
        for path in sorted(folder.iterdir()):
            if path.is_file() and (select is None or select(f"{folder.name}/{path.name}")):
                raw = path.read_bytes()
                lanes[judge(parse_message(raw), raw).value] += 1
        total = sum(lanes.values())
        folders[folder.name] = {"total": total, "lanes": dict(sorted(lanes.items())),
                                "silent_share": _share(lanes["SILENT"], total),
                                "push": lanes["PUSH"]}
    spam = [v for k, v in folders.items() if k.startswith("spam")]
    return {"folders": folders, "spam_in_push": sum(v["push"] for v in spam),
            "spam_total": sum(v["total"] for v in spam),
            "easy_ham_1_silent": (folders.get("easy-ham-1") or {}).get("silent_share")}
