"""Structure of the third blind eval set (the data only; the judge is not run here)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

SET_PATH = (Path(__file__).resolve().parents[2]
            / "src" / "mailmoat" / "eval" / "sets" / "blind-set-3.json")

# category -> (primary lane, other acceptable lanes)
MAPPING: dict[str, tuple[str, set[str]]] = {
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
REQUIRED = ("id", "category", "lang", "from", "to", "subject", "body", "label", "accept",
            "note")


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(SET_PATH.read_text(encoding="utf-8"))
    return loaded


def test_top_level(data: dict[str, Any]) -> None:
    assert data["name"] == "blind-set-3"
    assert isinstance(data["about"], str) and data["about"].strip()
    assert len(data["items"]) >= 220


def test_items_fields_and_ids(data: dict[str, Any]) -> None:
    ids = [item["id"] for item in data["items"]]
    assert len(ids) == len(set(ids))
    for item in data["items"]:
        for key in REQUIRED:
            assert key in item, (item.get("id"), key)
        assert item["id"].startswith("b3-")
        for key in ("from", "to", "subject", "body", "note", "lang"):
            assert isinstance(item[key], str) and item[key].strip(), (item["id"], key)
        assert "<" in item["from"] and "@" in item["from"], item["id"]


def test_labels_follow_the_category_mapping(data: dict[str, Any]) -> None:
    for item in data["items"]:
        assert item["category"] in MAPPING, item["id"]
        label, accept = MAPPING[item["category"]]
        assert item["label"] == label, item["id"]
        assert set(item["accept"]) == accept, item["id"]


def test_headers_only_in_part_two(data: dict[str, Any]) -> None:
    items = data["items"]
    first_with_headers = next(n for n, item in enumerate(items) if "headers" in item)
    assert first_with_headers >= 150
    for item in items[:first_with_headers]:
        assert "headers" not in item, item["id"]
    for item in items[first_with_headers:]:
        headers = item.get("headers")
        assert isinstance(headers, dict) and headers, item["id"]
        assert all(isinstance(k, str) and isinstance(v, str) for k, v in headers.items())
