"""`mailmoat --version`, and the command starts without loading the store or the model SDK
(what makes `--help` fast; the figures are in bench/bench_cli_start.py)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

from typer.testing import CliRunner

import mailmoat
from mailmoat.entrypoints.cli.main import app

ROOT = Path(__file__).resolve().parents[2]


def test_version_prints_the_package_version() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0, result.output
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert mailmoat.__version__ == project["version"]
    assert result.output.startswith(f"mailmoat {project['version']} ")


def test_building_the_command_loads_no_database_web_or_model_library() -> None:
    probe = ("import sys, mailmoat.entrypoints.cli.main as m; "
             "m.app(['--help'], prog_name='mailmoat', standalone_mode=False); "
             "print(' '.join(sorted(k for k in ('sqlalchemy', 'alembic', 'openai', "
             "'cryptography', 'fastapi', 'httpx', 'uvicorn') if k in sys.modules)))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, env={"PYTHONPATH": str(ROOT / "src")}).stdout
    assert out.splitlines()[-1] == "", out
