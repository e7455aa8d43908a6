"""Structure of blind-set-5: a hand-labelled eval set written without reading the judge."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

SET = Path(__file__).resolve().parents[2] / "src/mailmoat/eval/sets/blind-set-5.json"

LANES_BY_CATEGORY: dict[str, tuple[str, set[str]]] = {
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
FIELDS = ("id", "category", "lang", "from", "to", "subject", "body", "label", "accept", "note")


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(SET.read_text(encoding="utf-8"))
    return loaded


@pytest.fixture(scope="module")
def items(data: dict[str, Any]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = data["items"]
    return found


def test_header(data: dict[str, Any]) -> None:
    assert data["name"] == "blind-set-5"
    assert data["about"].strip()


def test_size_and_unique_ids(items: list[dict[str, Any]]) -> None:
    assert len(items) >= 220
    ids = [item["id"] for item in items]
    assert len(ids) == len(set(ids))
    assert all(i.startswith("b5-") for i in ids)


def test_fields_present(items: list[dict[str, Any]]) -> None:
    for item in items:
        missing = [f for f in FIELDS if f not in item]
        assert not missing, (item.get("id"), missing)
        assert item["note"].strip(), item["id"]
        assert item["body"].strip(), item["id"]
        display = item["from"].split("<", 1)[0]
        assert "<" in item["from"] and "@" not in display, item["id"]


def test_label_matches_category(items: list[dict[str, Any]]) -> None:
    for item in items:
        assert item["category"] in LANES_BY_CATEGORY, item["id"]
        label, accept = LANES_BY_CATEGORY[item["category"]]
        assert item["label"] == label, item["id"]
        assert set(item["accept"]) == accept, item["id"]


def test_headers_only_in_part_two(items: list[dict[str, Any]]) -> None:
    with_headers = [n for n, item in enumerate(items) if "headers" in item]
    assert with_headers, "part 2 (honeypot items with headers) is missing"
    first = with_headers[0]
    assert with_headers == list(range(first, len(items))), "part 1 items must carry no headers"
    assert first >= 150
    for item in items[first:]:
        headers = item["headers"]
        assert isinstance(headers, dict) and headers, item["id"]
        assert all(isinstance(v, str) for v in headers.values()), item["id"]


def test_every_category_present(items: list[dict[str, Any]]) -> None:
    assert {item["category"] for item in items} == set(LANES_BY_CATEGORY)
