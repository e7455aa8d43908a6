"""docs/ against the code: every MAILMOAT_* variable the code reads is documented, and every
package says what lives there and what it may import."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "mailmoat"
NAME = re.compile(r"MAILMOAT_[A-Z0-9_]*[A-Z0-9]")


def _read_in_code() -> set[str]:
    found: set[str] = set()
    for path in SRC.rglob("*.py"):
        found |= set(NAME.findall(path.read_text(encoding="utf-8")))
    return found


def test_every_environment_variable_the_code_reads_is_documented() -> None:
    documented = set(NAME.findall((ROOT / "docs" / "configuration.md").read_text()))
    read = _read_in_code()
    assert len(read) >= 19  # the scan itself finds them
    assert sorted(read - documented) == []
    assert sorted(documented - read) == []  # and nothing documented that no code reads


def test_every_package_states_what_lives_there_and_what_it_may_import() -> None:
    packages = [p for p in SRC.rglob("__init__.py") if "migrations" not in p.parts]
    assert len(packages) >= 15
    missing = [str(p.relative_to(SRC)) for p in packages if p.parent != SRC
               and "may import" not in p.read_text(encoding="utf-8").lower()]
    assert missing == []
