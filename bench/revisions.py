"""Another revision's `src/` in a temporary folder, for benchmarks that compare before and
after in one run (`git archive REV src`, extracted with the tar data filter)."""

from __future__ import annotations

import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from io import BytesIO
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


@contextmanager
def revision_src(rev: str) -> Iterator[Path]:
    """Yield the `src` folder of `rev`, removed again on exit."""
    archive = subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", rev, "src"],
                             capture_output=True, check=True).stdout
    with tempfile.TemporaryDirectory(prefix="bench-rev-") as tmp:
        with tarfile.open(fileobj=BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
        yield Path(tmp) / "src"
