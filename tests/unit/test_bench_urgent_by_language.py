"""bench/urgent_by_language.py: urgent recall split by the language each item is written in."""

from __future__ import annotations

import json
from types import ModuleType

from mailmoat.eval.judgement import labelled_sets
from mailmoat.services.eval_report import set_kind
from tests.conftest import bench_script


def _script() -> ModuleType:
    return bench_script("urgent_by_language")


def test_every_urgent_item_of_the_pool_is_counted_once_under_its_language() -> None:
    found = _script().urgent_by_language("never tuned")
    expected: dict[str, int] = {}
    for path in labelled_sets():
        if set_kind(path.name) == "never tuned":
            for raw in json.loads(path.read_text(encoding="utf-8"))["items"]:
                if raw["category"] == "urgent":
                    group = raw["lang"] if raw["lang"] in ("en", "ko") else "local"
                    expected[group] = expected.get(group, 0) + 1
    assert {g: row["urgent"] for g, row in found.items()} == expected
    for row in found.values():
        assert 0 <= row["reached"] <= row["urgent"]
        assert row["recall"] == row["reached"] / row["urgent"]


def test_languages_are_grouped_as_english_korean_and_local() -> None:
    group = _script()._group
    assert (group("en"), group("ko"), group("sl"), group("pt")) == ("en", "ko", "local", "local")
