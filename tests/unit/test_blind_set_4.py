"""Structure of the fourth blind eval set (data only; the judge is not run here)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

SET = Path(__file__).resolve().parents[2] / "src/mailmoat/eval/sets/blind-set-4.json"

LANES_BY_CATEGORY: dict[str, tuple[str, frozenset[str]]] = {
    "urgent": ("PUSH", frozenset({"MEETING"})),
    "needs-response": ("QUEUE", frozenset({"MEETING"})),
    "personal": ("QUEUE", frozenset({"MEETING", "PUSH", "INFO"})),
    "fyi": ("INFO", frozenset({"QUEUE"})),
    "notification": ("INFO", frozenset({"QUEUE"})),
    "list": ("INFO", frozenset({"QUEUE"})),
    "auto-reply": ("INFO", frozenset({"QUEUE"})),
    "promotion": ("SILENT", frozenset({"INFO"})),
    "scam": ("QUEUE", frozenset({"SILENT"})),
    "phishing": ("QUEUE", frozenset({"SILENT"})),
}
HEADER_NAMES = {"Authentication-Results", "List-Id", "Auto-Submitted", "Reply-To",
                "List-Unsubscribe", "Precedence"}
REQUIRED = ("id", "category", "lang", "from", "to", "subject", "body", "label", "accept", "note")


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(SET.read_text(encoding="utf-8"))
    return loaded


@pytest.fixture(scope="module")
def items(data: dict[str, Any]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = data["items"]
    return found


def test_set_has_name_about_and_enough_items(data: dict[str, Any]) -> None:
    assert data["name"] == "blind-set-4"
    assert data["about"].strip()
    assert len(data["items"]) >= 220


def test_every_item_has_the_required_fields(items: list[dict[str, Any]]) -> None:
    for item in items:
        missing = [k for k in REQUIRED if k not in item]
        assert not missing, (item.get("id"), missing)
        assert item["note"].strip(), item["id"]
        assert item["body"].strip(), item["id"]
        assert "<" in item["from"] and item["from"].endswith(">"), item["id"]


def test_ids_are_unique_and_sequential(items: list[dict[str, Any]]) -> None:
    ids = [item["id"] for item in items]
    assert len(ids) == len(set(ids))
    assert ids == [f"b4-{n:03d}" for n in range(1, len(ids) + 1)]


def test_labels_follow_the_category_mapping(items: list[dict[str, Any]]) -> None:
    for item in items:
        assert item["category"] in LANES_BY_CATEGORY, item["id"]
        label, accept = LANES_BY_CATEGORY[item["category"]]
        assert item["label"] == label, item["id"]
        assert set(item["accept"]) == accept, item["id"]


def test_part_one_carries_no_headers_and_part_two_does(items: list[dict[str, Any]]) -> None:
    with_headers = [n for n, item in enumerate(items) if "headers" in item]
    assert with_headers, "part 2 is missing"
    first = with_headers[0]
    assert with_headers == list(range(first, len(items))), "headers only in a trailing part 2"
    assert first >= 150
    for item in items[first:]:
        headers = item["headers"]
        assert set(headers) <= HEADER_NAMES, item["id"]
        assert all(isinstance(v, str) and v for v in headers.values()), item["id"]
