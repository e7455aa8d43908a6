"""`mailmoat classify` and `mailmoat policy` as a user runs them."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from mailmoat.core.policy import describe_policy
from mailmoat.entrypoints.cli.main import app

DEMO = Path(__file__).resolve().parents[1] / "src" / "mailmoat" / "demo"
runner = CliRunner()


def test_classify_json_has_the_documented_fields() -> None:
    result = runner.invoke(app, ["classify", str(DEMO / "01-prod-down.eml"), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    for key in ("lane", "reason", "auto_eligible", "features", "signals", "source",
                "input_hash", "policy_version"):
        assert key in data
    assert data["lane"] == "PUSH"
    assert len(data["input_hash"]) == 64


def test_classify_reads_stdin() -> None:
    raw = (DEMO / "13-promo.eml").read_bytes()
    result = runner.invoke(app, ["classify", "-", "--json"], input=raw)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["lane"] == "SILENT"


def test_classify_missing_file_is_a_clear_error() -> None:
    result = runner.invoke(app, ["classify", "/nonexistent/x.eml"])
    assert result.exit_code == 2
    assert "no such file" in result.output


def test_policy_prints_what_runs() -> None:
    result = runner.invoke(app, ["policy"])
    assert result.exit_code == 0
    assert describe_policy()["version"] in result.output
    assert "min_confidence" in result.output


def test_demo_mailbox_covers_every_lane() -> None:
    lanes = set()
    for eml in sorted(DEMO.glob("*.eml")):
        result = runner.invoke(app, ["classify", str(eml), "--json"])
        assert result.exit_code == 0, eml
        lanes.add(json.loads(result.output)["lane"])
    assert lanes == {"PUSH", "MEETING", "QUEUE", "INFO", "SILENT"}
