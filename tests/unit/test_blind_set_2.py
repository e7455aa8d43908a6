"""Structure of the second blind eval set (data only; the judge is not run here)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

SET = Path(__file__).resolve().parents[2] / "src/mailmoat/eval/sets/blind-set-2.json"

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
LANGS = {"en", "ko", "de", "fr", "es"}
PART_ONE_LAST = 150
ADDRESS = re.compile(r"^.+ <[^<>@\s]+@[^<>@\s]+\.[a-z]{2,}>$")


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(SET.read_text(encoding="utf-8"))
    return loaded


def test_set_has_name_about_and_enough_items(data: dict[str, Any]) -> None:
    assert data["name"] == "blind-set-2"
    assert data["about"].strip()
    assert len(data["items"]) >= 200


def test_ids_are_unique_and_sequential(data: dict[str, Any]) -> None:
    ids = [item["id"] for item in data["items"]]
    assert len(ids) == len(set(ids))
    assert ids == [f"b2-{n:03d}" for n in range(1, len(ids) + 1)]


def test_each_item_is_complete_and_labelled_by_its_category(data: dict[str, Any]) -> None:
    for item in data["items"]:
        where = item["id"]
        assert item["category"] in LANES_BY_CATEGORY, where
        label, accept = LANES_BY_CATEGORY[item["category"]]
        assert item["label"] == label, where
        assert set(item["accept"]) == accept, where
        assert item["lang"] in LANGS, where
        assert ADDRESS.match(item["from"]) and ADDRESS.match(item["to"]), where
        assert isinstance(item["subject"], str), where
        assert item["body"].strip(), where
        assert item["note"].strip() and "\n" not in item["note"], where


def test_part_one_has_no_headers_and_part_two_only_string_headers(
    data: dict[str, Any],
) -> None:
    for item in data["items"]:
        number = int(item["id"].removeprefix("b2-"))
        if number <= PART_ONE_LAST:
            assert "headers" not in item, item["id"]
        else:
            headers = item["headers"]
            assert headers and all(
                isinstance(k, str) and isinstance(v, str) for k, v in headers.items()
            ), item["id"]
