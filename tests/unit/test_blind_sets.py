"""The blind-written eval sets (issue 22; docs/results.md): each is well formed, its labels
map to lanes as the issue's table says, and its part 1 (business mail as the issue's
held-out set has it: sender, recipients, subject, body) carries no headers."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from mailmoat.eval.judgement import BLIND_SETS
from mailmoat.eval.runner import load_items

# category -> (label, accepted lanes besides it)
LANES: dict[str, tuple[str, frozenset[str]]] = {
    "urgent": ("PUSH", frozenset({"MEETING"})),
    "needs-response": ("QUEUE", frozenset({"MEETING"})),
    "personal": ("QUEUE", frozenset({"MEETING", "PUSH", "INFO"})),
    **{c: ("INFO", frozenset({"QUEUE"})) for c in ("fyi", "notification", "list", "auto-reply")},
    "promotion": ("SILENT", frozenset({"INFO"})),
    **{c: ("QUEUE", frozenset({"SILENT"})) for c in ("scam", "phishing")},
}
# The last id of each set's part 1 (no headers); min items.
SHAPE = {"blind-set.json": (181, 250), "blind-set-2.json": (150, 200),
         "blind-set-3.json": (182, 220), "blind-set-4.json": (182, 220),
         "blind-set-5.json": (182, 220), "blind-set-6.json": (175, 230),
         "blind-set-7.json": (183, 230), "blind-set-8.json": (180, 230),
         "blind-set-9.json": (181, 230), "blind-set-10.json": (198, 230),
         "blind-set-11.json": (177, 230), "blind-set-12.json": (185, 230),
         "blind-set-13.json": (188, 230), "blind-set-14.json": (183, 230),
         "blind-set-15.json": (192, 230), "blind-set-16.json": (183, 230),
         "blind-set-17.json": (190, 230), "blind-set-18.json": (184, 230),
         "blind-set-19.json": (188, 230), "blind-set-20.json": (146, 230),
         "blind-set-21.json": (144, 230), "blind-set-22.json": (145, 230),
         "blind-set-23.json": (148, 230), "blind-set-24.json": (139, 230),
         "blind-set-25.json": (137, 230), "blind-set-26.json": (145, 230),
         "blind-set-27.json": (162, 230), "blind-set-28.json": (146, 230),
         "blind-set-29.json": (153, 230), "blind-set-30.json": (150, 230),
         "blind-set-31.json": (150, 230), "blind-set-32.json": (151, 230),
         "blind-set-33.json": (148, 230), "blind-set-34.json": (143, 230),
         "blind-set-35.json": (139, 230), "blind-set-36.json": (140, 230),
         "blind-set-37.json": (138, 230), "blind-set-38.json": (138, 230),
         "blind-set-39.json": (137, 230), "blind-set-40.json": (140, 230),
         "blind-set-41.json": (145, 230), "blind-set-42.json": (145, 230),
         "blind-set-43.json": (139, 230), "blind-set-44.json": (138, 230),
         "blind-set-45.json": (141, 230), "blind-set-46.json": (145, 230),
         "blind-set-47.json": (146, 230), "blind-set-48.json": (141, 230),
         "blind-set-49.json": (140, 230), "blind-set-50.json": (144, 230),
         "blind-set-51.json": (145, 230), "blind-set-52.json": (145, 230),
         "blind-set-53.json": (142, 230), "blind-set-54.json": (144, 230),
         "blind-set-55.json": (145, 230), "blind-set-56.json": (145, 230),
         "blind-set-57.json": (142, 230), "blind-set-58.json": (143, 230),
         "blind-set-59.json": (147, 230), "blind-set-60.json": (148, 230),
         "blind-set-61.json": (157, 230), "blind-set-62.json": (145, 230),
         "blind-set-63.json": (145, 230), "blind-set-64.json": (144, 230),
         "blind-set-65.json": (143, 230), "blind-set-66.json": (141, 230),
         "blind-set-67.json": (143, 230), "blind-set-68.json": (145, 230),
         "blind-set-69.json": (145, 230), "blind-set-70.json": (145, 230),
         "blind-set-71.json": (150, 230), "blind-set-72.json": (145, 230),
         "blind-set-73.json": (145, 230), "blind-set-74.json": (146, 230),
         "blind-set-75.json": (147, 230), "blind-set-76.json": (152, 230),
         "blind-set-77.json": (145, 230), "blind-set-78.json": (143, 230),
         "blind-set-79.json": (142, 230), "blind-set-80.json": (145, 230),
         "blind-set-81.json": (145, 230), "blind-set-82.json": (146, 230),
         "blind-set-83.json": (145, 230), "blind-set-84.json": (145, 230),
         "blind-set-85.json": (145, 230), "blind-set-86.json": (150, 230),
         "blind-set-87.json": (140, 230), "blind-set-88.json": (145, 230),
         "blind-set-89.json": (145, 230), "blind-set-90.json": (144, 230),
         "blind-set-91.json": (140, 230), "blind-set-92.json": (145, 230),
         "blind-set-93.json": (142, 230), "blind-set-94.json": (145, 230),
         "blind-set-95.json": (144, 230), "blind-set-96.json": (153, 230),
         "blind-set-97.json": (145, 230), "blind-set-98.json": (144, 230),
         "blind-set-99.json": (143, 230), "blind-set-100.json": (147, 230),
         "blind-set-101.json": (145, 230),
         "blind-set-102.json": (145, 230),
         "blind-set-103.json": (145, 230),
         "blind-set-104.json": (145, 230),
         "blind-set-105.json": (144, 230),
         "blind-set-106.json": (145, 230),
         "blind-set-107.json": (145, 230),
         "blind-set-108.json": (145, 230),
         "blind-set-109.json": (144, 230),
         "blind-set-110.json": (145, 230),
         "blind-set-111.json": (145, 230),
         "blind-set-112.json": (145, 230),
         "blind-set-113.json": (145, 230),
         "blind-set-114.json": (145, 230),
         "blind-set-115.json": (145, 230),
         "blind-set-116.json": (144, 230),
         "blind-set-117.json": (143, 230),
         "blind-set-118.json": (143, 230),
         "blind-set-119.json": (145, 230),
         "blind-set-120.json": (145, 230),
         "blind-set-121.json": (145, 230),
         "blind-set-122.json": (145, 230),
         "blind-set-123.json": (145, 230),
         "blind-set-124.json": (142, 230),
         **{f"blind-set-{i}.json": (145, 230) for i in range(125, 132)},
         "blind-set-132.json": (146, 230),
         "blind-set-133.json": (145, 230),
         "blind-set-134.json": (143, 230),
         "blind-set-135.json": (145, 230),
         "blind-set-136.json": (145, 230),
         "blind-set-137.json": (150, 230),
         **{f"blind-set-{i}.json": (145, 230) for i in range(138, 141)},
         "blind-set-141.json": (145, 230), "blind-set-142.json": (144, 230),
         "blind-set-143.json": (143, 230), "blind-set-144.json": (150, 230),
         **{f"blind-set-{i}.json": (150, 230) for i in range(145, 149)},
         "blind-set-149.json": (150, 230), "blind-set-150.json": (150, 230),
         "blind-set-151.json": (148, 230), "blind-set-152.json": (141, 230),
         **{f"blind-set-{i}.json": (150, 230) for i in range(153, 157)},
         "blind-set-157.json": (146, 230), "blind-set-158.json": (145, 230),
         **{f"blind-set-{i}.json": (150, 230) for i in (159, 160, 161, 163)},
         "blind-set-162.json": (151, 230), "blind-set-164.json": (146, 230),
         "blind-set-165.json": (150, 230), "blind-set-166.json": (150, 230),
         "blind-set-167.json": (145, 230), "blind-set-168.json": (148, 230),
         "blind-set-169.json": (145, 230), "blind-set-170.json": (139, 230),
         "blind-set-171.json": (150, 230), "blind-set-172.json": (150, 230),
         "blind-set-173.json": (155, 240), "blind-set-174.json": (151, 240),
         "blind-set-175.json": (145, 240), "blind-set-176.json": (165, 240),
         "blind-set-177.json": (152, 240), "blind-set-178.json": (148, 240),
         "blind-set-179.json": (159, 240), "blind-set-180.json": (146, 240),
         "blind-set-181.json": (144, 240), "blind-set-182.json": (147, 240),
         "blind-set-183.json": (158, 240), "blind-set-184.json": (145, 240),
         "blind-set-185.json": (150, 240), "blind-set-186.json": (152, 240),
         "blind-set-187.json": (152, 240), "blind-set-188.json": (148, 240),
         "blind-set-189.json": (136, 240), "blind-set-190.json": (150, 240),
         "blind-set-191.json": (145, 240), "blind-set-192.json": (153, 240),
         "blind-set-193.json": (148, 240), "blind-set-194.json": (145, 240),
         "blind-set-195.json": (150, 240), "blind-set-196.json": (150, 240),
         "blind-set-197.json": (140, 240), "blind-set-198.json": (146, 240),
         "blind-set-199.json": (144, 240), "blind-set-200.json": (145, 240),
         "blind-set-201.json": (150, 240), "blind-set-202.json": (150, 240),
         "blind-set-203.json": (140, 240), "blind-set-204.json": (141, 240),
         "blind-set-205.json": (138, 240), "blind-set-206.json": (137, 240),
         "blind-set-207.json": (137, 240), "blind-set-208.json": (140, 240),
         "blind-set-209.json": (145, 240), "blind-set-210.json": (140, 240),
         "blind-set-211.json": (148, 240), "blind-set-212.json": (135, 240),
         "blind-set-213.json": (145, 240), "blind-set-214.json": (148, 240),
         "blind-set-215.json": (142, 240), "blind-set-216.json": (150, 240),
         "blind-set-217.json": (142, 240), "blind-set-218.json": (150, 240),
         "blind-set-219.json": (145, 240), "blind-set-220.json": (150, 240),
         "blind-set-221.json": (143, 240), "blind-set-222.json": (139, 240),
         "blind-set-223.json": (141, 240), "blind-set-224.json": (140, 240),
         "blind-set-225.json": (136, 240), "blind-set-226.json": (141, 240),
         "blind-set-227.json": (145, 240), "blind-set-228.json": (140, 240),
         "blind-set-229.json": (147, 240), "blind-set-230.json": (145, 240),
         "blind-set-231.json": (151, 240), "blind-set-232.json": (150, 240),
         "blind-set-233.json": (145, 240), "blind-set-234.json": (146, 240),
         "blind-set-235.json": (145, 240), "blind-set-236.json": (140, 240),
         "blind-set-237.json": (150, 240), "blind-set-238.json": (147, 240),
         "blind-set-239.json": (150, 240), "blind-set-240.json": (137, 240),
         "blind-set-241.json": (150, 240), "blind-set-242.json": (145, 240),
         "blind-set-243.json": (137, 240), "blind-set-244.json": (145, 240),
         "blind-set-245.json": (139, 240), "blind-set-246.json": (150, 240),
         "blind-set-247.json": (139, 240), "blind-set-248.json": (145, 240),
         "blind-set-249.json": (150, 240), "blind-set-250.json": (146, 240),
         "blind-set-251.json": (144, 240), "blind-set-252.json": (133, 240),
         "blind-set-253.json": (138, 240), "blind-set-254.json": (145, 240),
         "blind-set-255.json": (150, 240), "blind-set-256.json": (150, 240),
         "blind-set-257.json": (145, 240), "blind-set-258.json": (152, 240),
         "blind-set-259.json": (151, 240), "blind-set-260.json": (146, 240),
         "blind-set-261.json": (163, 240), "blind-set-262.json": (144, 240),
         "blind-set-263.json": (150, 240), "blind-set-264.json": (149, 240),
         "blind-set-265.json": (148, 240), "blind-set-266.json": (153, 240),
         "blind-set-267.json": (141, 240), "blind-set-268.json": (140, 240),
         "blind-set-269.json": (145, 240), "blind-set-270.json": (138, 240),
         "blind-set-271.json": (148, 240), "blind-set-272.json": (150, 240)}
# "Name <addr>", or an address with no name, bare or in angle brackets (a spoofed mail "from
# yourself" carries no name; an export writes "<addr>")
_ADDR = r"[^<>@\s]+@[^<>@\s]+\.[a-z]{2,}"
ADDRESS = re.compile(rf"^(?:[^<>]+ <{_ADDR}>|<{_ADDR}>|{_ADDR})$")
HEADERS = {"Authentication-Results", "List-Id", "Auto-Submitted", "Reply-To",
           "List-Unsubscribe", "Precedence", "X-Autoreply", "Return-Path",
           "List-Unsubscribe-Post", "Received", "Received-SPF", "X-Auto-Response-Suppress"}


def _items(path: Path) -> list[dict[str, Any]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["name"] == path.stem and data["about"].strip()
    items: list[dict[str, Any]] = data["items"]
    return items


@pytest.mark.parametrize("path", BLIND_SETS, ids=lambda p: p.name)
def test_a_blind_set_is_well_formed(path: Path) -> None:
    part_one_last, at_least = SHAPE[path.name]
    items = _items(path)
    assert len(items) >= at_least
    ids = [i["id"] for i in items]
    assert len(set(ids)) == len(ids)
    numbers = [int(i.rpartition("-")[2]) for i in ids]
    assert numbers == list(range(1, len(items) + 1))
    for n, item in zip(numbers, items, strict=True):
        label, accept = LANES[item["category"]]
        assert (item["label"], set(item["accept"])) == (label, accept), item["id"]
        assert item["note"].strip() and item["body"].strip()  # a subject may be empty
        # To may name several recipients, split by "," or ";" as mail programs export them
        assert ADDRESS.match(item["from"]) and all(
            ADDRESS.match(r.strip()) for r in re.split(r"[,;](?=[^,;]*@)", item["to"])), \
            item["id"]
        headers = item.get("headers") or {}
        if n <= part_one_last:
            assert not headers, f"{item['id']} is part 1: no headers"
        assert set(headers) <= HEADERS and all(isinstance(v, str) for v in headers.values())
    assert any(i.get("headers") for i in items)  # part 2 exists


@pytest.mark.parametrize("path", BLIND_SETS, ids=lambda p: p.name)
def test_a_blind_set_loads_through_the_runner(path: Path) -> None:
    loaded = load_items(path)
    raw = _items(path)
    assert [i.id for i in loaded] == [i["id"] for i in raw]
    assert [i.category for i in loaded] == [i["category"] for i in raw]


def test_the_structure_check_can_fail(tmp_path: Path) -> None:
    item = dict(_items(BLIND_SETS[0])[0])
    item["label"] = "SILENT" if item["label"] != "SILENT" else "PUSH"
    label, accept = LANES[item["category"]]
    assert (item["label"], set(item["accept"])) != (label, accept)
