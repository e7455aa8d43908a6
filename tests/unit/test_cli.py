"""`mailmoat classify` and `mailmoat policy` as a user runs them."""

from __future__ import annotations

import json
from email import message_from_bytes
from email.utils import parseaddr
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mailmoat.act.service import ActionService
from mailmoat.core.policy import describe_policy
from mailmoat.entrypoints.cli.main import app
from mailmoat.services.bootstrap import open_store

DEMO = Path(__file__).resolve().parents[2] / "src" / "mailmoat" / "demo"
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


def test_list_and_show_give_ids_decisions_facts_and_pending_actions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MAILMOAT_DATABASE_URL", f"sqlite:///{tmp_path / 'm.db'}")
    assert runner.invoke(app, ["import", str(DEMO)]).exit_code == 0
    listed = runner.invoke(app, ["list", "--json"])
    assert listed.exit_code == 0, listed.output
    everything = json.loads(listed.stdout)
    assert len(everything) == len(list(DEMO.glob("*.eml")))
    assert [m["id"] for m in everything] == sorted((m["id"] for m in everything), reverse=True)
    push = json.loads(runner.invoke(app, ["list", "--lane", "PUSH", "--account", "local",
                                          "--json"]).stdout)
    assert push and {m["lane"] for m in push} == {"PUSH"}
    assert json.loads(runner.invoke(app, ["list", "--account", "nobody", "--json"]).stdout) == []
    mid = push[0]["id"]
    store = open_store(f"sqlite:///{tmp_path / 'm.db'}")
    ActionService(store.engine).propose(
        "local", {"action": "send_email", "to": push[0]["from_addr"], "subject": "Re: on it",
                  "body": "Looking now."}, "sam", "cli", reply_to_message=mid)
    shown = runner.invoke(app, ["show", str(mid), "--json"])
    assert shown.exit_code == 0, shown.output
    detail = json.loads(shown.stdout)
    assert detail["id"] == mid and detail["lane"] == "PUSH"
    assert detail["decision"]["lane"] == "PUSH" and detail["decision"]["reason"]
    assert detail["trace"]["input_hash"] and set(detail["trace"]["features"]) == {
        "confidence", "sender_trust", "reversibility", "urgency"}
    assert detail["facts"]["address"] == push[0]["from_addr"]
    assert [a["subject"] for a in detail["pending_actions"]] == ["Re: on it"]
    text = runner.invoke(app, ["show", str(mid)])
    assert "PUSH" in text.stdout and "pending actions: 1" in text.stdout
    missing = runner.invoke(app, ["show", "999999"])
    assert missing.exit_code == 1 and "no message 999999" in missing.output


def test_classify_with_an_account_applies_its_pins_and_says_so_without(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same file, imported, would respect the account's pin; `classify --account` judges
    it the same way, and without --account the output says it judged the file alone."""
    url = f"sqlite:///{tmp_path / 'm.db'}"
    monkeypatch.setenv("MAILMOAT_DATABASE_URL", url)
    promo = DEMO / "13-promo.eml"
    alone = json.loads(runner.invoke(app, ["classify", str(promo), "--json"]).stdout)
    assert alone["lane"] == "SILENT"
    sender = _sender(promo)
    pinned = runner.invoke(app, ["rules", "pin", sender, "QUEUE", "--account", "work"])
    assert pinned.exit_code == 0, pinned.output
    as_work = runner.invoke(app, ["classify", str(promo), "--account", "work", "--json"])
    assert as_work.exit_code == 0, as_work.output
    assert json.loads(as_work.stdout)["lane"] == "QUEUE"
    assert json.loads(as_work.stdout)["branch"] == "pin"
    other = runner.invoke(app, ["classify", str(promo), "--account", "home", "--json"])
    assert json.loads(other.stdout)["lane"] == "SILENT"  # another account's pins do not apply
    imported = open_store(url)
    mid = imported.ingest(promo.read_bytes(), "eml", account="work").message_id
    assert imported.get_message(mid, "work")["lane"] == "QUEUE"  # type: ignore[index]
    text = runner.invoke(app, ["classify", str(promo)])
    assert "judged alone" in text.stdout
    assert "judged as account work" in runner.invoke(
        app, ["classify", str(promo), "--account", "work"]).stdout


def _sender(path: Path) -> str:
    return parseaddr(str(message_from_bytes(path.read_bytes())["From"]))[1].lower()
