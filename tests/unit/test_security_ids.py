"""SECURITY.md lists each claim once: every row has a unique ID and names tests that exist."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ROW = re.compile(r"^\| ([A-Z][A-Za-z0-9-]*) \|")


def _rows() -> list[tuple[str, str]]:
    rows = []
    for line in (ROOT / "SECURITY.md").read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match:
            rows.append((match.group(1), line))
    return rows


def test_every_claim_has_one_unique_id() -> None:
    ids = [rid for rid, _ in _rows()]
    assert len(ids) > 50
    duplicates = sorted({rid for rid in ids if ids.count(rid) > 1})
    assert duplicates == [], f"IDs used more than once in SECURITY.md: {duplicates}"


def test_every_named_test_file_exists() -> None:
    missing = set()
    for rid, line in _rows():
        for path in re.findall(r"`(tests/[\w/]+\.py)", line):
            if not (ROOT / path).is_file():
                missing.add((rid, path))
    assert missing == set(), f"rows naming test files that do not exist: {sorted(missing)}"
