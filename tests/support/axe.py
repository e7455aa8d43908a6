"""axe-core accessibility checks in a real browser: the npm package (tools/e2e, pinned by its
lock file) injected by Playwright into a page; serious and critical violations fail."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

AXE = Path(__file__).resolve().parents[2] / "tools" / "e2e" / "node_modules" / "axe-core" / \
    "axe.min.js"


def require_axe() -> Path:
    if AXE.is_file():
        return AXE
    message = f"{AXE} is missing: npm ci --prefix tools/e2e (make test does)"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message)
    pytest.skip(message)


def serious_violations(page: Any) -> list[str]:
    """Run axe on the page as it is (the context must bypass the page's CSP to inject it)."""
    page.add_script_tag(path=str(require_axe()))
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return [f"{v['id']} ({v['impact']}): {v['help']} at "
            + ", ".join(n["target"][0] for n in v["nodes"][:3])
            for v in result["violations"] if v["impact"] in ("serious", "critical")]
