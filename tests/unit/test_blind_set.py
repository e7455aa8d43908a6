"""The blind evaluation set: its structure, not the judge's score on it.

The set was written without reading the judge, so these checks only hold it to its own
format: unique ids, known categories, labels that follow the category, notes, and a first
part (business mail as collected from people) that carries no headers.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mailmoat.eval.runner import load_items

SET = Path(__file__).resolve().parents[2] / "src/mailmoat/eval/sets/blind-set.json"

# category -> (primary lane, other acceptable lanes)
LANES_BY_CATEGORY = {
    "urgent": ("PUSH", {"MEETING"}),
    "needs-response": ("QUEUE", {"MEETING"}),
    "personal": ("QUEUE", {"MEETING", "PUSH", "INFO"}),
    "fyi": ("INFO", {"QUEUE"}),
    "notification": ("INFO", {"QUEUE"}),
    "list": ("INFO", {"QUEUE"}),
    "auto-reply": ("INFO", {"QUEUE"}),
    "promotion": ("SILENT", {"INFO"}),
    "scam": ("QUEUE", {"SILENT"}),
    "phishing": ("QUEUE", {"SILENT"}),
}
PART1_LAST = 181  # blind-001 .. blind-181 are part 1 (no headers); the rest are part 2
HEADER_NAMES = {"Authentication-Results", "List-Id", "Auto-Submitted", "Reply-To",
                "List-Unsubscribe", "Precedence"}
ADDRESS = re.compile(r"^\S.* <[^<>\s@]+@[^<>\s@]+\.[a-z]{2,}>$")  # Display Name <addr@domain>


@pytest.fixture(scope="module")
def data() -> dict:
    return json.loads(SET.read_text(encoding="utf-8"))


def test_top_level(data: dict) -> None:
    assert data["name"] == "blind-set"
    assert data["about"].strip()
    assert len(data["items"]) >= 250


def test_ids_unique_and_numbered(data: dict) -> None:
    ids = [item["id"] for item in data["items"]]
    assert len(ids) == len(set(ids))
    assert ids == [f"blind-{n:03d}" for n in range(1, len(ids) + 1)]


def test_every_item_is_complete(data: dict) -> None:
    for item in data["items"]:
        where = item["id"]
        assert item["category"] in LANES_BY_CATEGORY, where
        assert item["lang"] in {"en", "ko"}, where
        assert ADDRESS.match(item["from"]), where
        assert ADDRESS.match(item["to"]), where
        assert item["subject"].strip(), where
        assert item["body"].strip(), where
        assert item["note"].strip(), where


def test_labels_follow_category(data: dict) -> None:
    for item in data["items"]:
        label, accept = LANES_BY_CATEGORY[item["category"]]
        assert item["label"] == label, item["id"]
        assert set(item["accept"]) == accept, item["id"]


def test_part1_has_no_headers_and_part2_has_them(data: dict) -> None:
    for n, item in enumerate(data["items"], 1):
        if n <= PART1_LAST:
            assert "headers" not in item, item["id"]
        else:
            headers = item["headers"]
            assert headers and set(headers) <= HEADER_NAMES, item["id"]
            assert all(isinstance(v, str) and v for v in headers.values()), item["id"]


def test_part2_authentication_mix(data: dict) -> None:
    part2 = data["items"][PART1_LAST:]
    results = [i["headers"].get("Authentication-Results", "") for i in part2]
    with_results = [r for r in results if r]
    failing = [r for r in with_results if re.search(r"\b(spf=(soft)?fail|dmarc=fail)\b", r)]
    assert len(with_results) > len(part2) * 0.8
    assert 0.15 < len(failing) / len(with_results) < 0.35
    bad = {"scam", "phishing"}
    assert sum(i["category"] in bad for i in part2) >= 60
    assert sum(i["category"] not in bad for i in part2) >= 10


def test_korean_spread(data: dict) -> None:
    korean = [i for i in data["items"] if i["lang"] == "ko"]
    assert len(korean) >= 20
    assert len({i["category"] for i in korean}) >= 5
    assert all(re.search("[가-힣]", i["subject"] + i["body"]) for i in korean)


def test_runner_loads_every_item_with_its_lanes(data: dict) -> None:
    items = load_items(SET)
    assert len(items) == len(data["items"])
    for loaded, raw in zip(items, data["items"], strict=True):
        assert loaded.id == raw["id"]
        assert loaded.expected.value == raw["label"]
        assert {lane.value for lane in loaded.accept} == {raw["label"], *raw["accept"]}
        assert loaded.category == raw["category"]
