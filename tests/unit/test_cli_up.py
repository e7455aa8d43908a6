"""`mailmoat up` on a port that is taken: it says so before announcing anything (or touching
the database) and names the three ways to choose another; MAILMOAT_PORT and `make run PORT=`
reach the same option."""

from __future__ import annotations

import shutil
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mailmoat.entrypoints.cli.main import app

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


@pytest.fixture
def taken() -> Iterator[int]:
    with socket.create_server(("127.0.0.1", 0)) as sock:
        yield sock.getsockname()[1]


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "db.sqlite"
    monkeypatch.setenv("MAILMOAT_DATABASE_URL", f"sqlite:///{path}")
    monkeypatch.delenv("MAILMOAT_PORT", raising=False)
    return path


def test_a_taken_port_is_refused_before_anything_is_announced(taken: int, db: Path) -> None:
    result = runner.invoke(app, ["up", "--port", str(taken)])
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert f"port {taken} on 127.0.0.1 is already in use" in text
    assert "mailmoat up --port" in text and "MAILMOAT_PORT=" in text
    assert "make run PORT=" in text
    assert "mailmoat is up" not in text
    assert not db.exists()  # refused before the store was opened or the demo imported


def test_the_suggested_port_is_free(taken: int, db: Path) -> None:
    result = runner.invoke(app, ["up", "--port", str(taken)])
    suggested = int(" ".join(result.output.split()).split("mailmoat up --port ")[1].split(",")[0])
    assert suggested != taken
    with socket.create_server(("127.0.0.1", suggested)):
        pass


def test_mailmoat_port_sets_the_port(taken: int, db: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MAILMOAT_PORT", str(taken))
    result = runner.invoke(app, ["up"])
    assert result.exit_code == 2, result.output
    assert f"port {taken} on 127.0.0.1 is already in use" in " ".join(result.output.split())


def test_an_address_this_machine_lacks_is_named(db: Path) -> None:
    result = runner.invoke(app, ["up", "--host", "192.0.2.1", "--port", "8025"])
    assert result.exit_code == 2, result.output
    assert "cannot serve on 192.0.2.1" in " ".join(result.output.split())


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_make_run_passes_port() -> None:
    dry = subprocess.run(["make", "-n", "-C", str(ROOT), "run", "PORT=9123"],
                         capture_output=True, text=True, check=True).stdout
    assert "mailmoat up --port 9123" in dry
    plain = subprocess.run(["make", "-n", "-C", str(ROOT), "run"],
                           capture_output=True, text=True, check=True).stdout
    assert "--port" not in plain
