"""`mailmoat rules ...` / `mailmoat correct` and the learning JSON API, on a real store."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from mailmoat.entrypoints.cli.main import app
from mailmoat.entrypoints.web.app import create_app
from mailmoat.services.bootstrap import open_store
from mailmoat.store import Store
from tests.support.learn_mail import QUESTION, eml
from tests.support.webhelpers import make_user, sign_in

runner = CliRunner()


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    url = f"sqlite:///{tmp_path / 'learn.db'}"
    monkeypatch.setenv("MAILMOAT_DATABASE_URL", url)
    return url


def _two_from(store: Store, sender: str) -> list[int]:
    return [store.ingest(eml(sender, f"Draft {n}", QUESTION), "eml").message_id
            for n in range(2)]


def test_cli_correct_push_refused_for_a_cold_sender_says_why(db: str) -> None:
    # A nameless free-mail stranger is a cold contact (core/evidence.py): the policy keeps a
    # person's PUSH away from it, and the relabel says so rather than "urgent".
    mid = _two_from(open_store(db), "ann@gmail.com")[0]
    result = runner.invoke(app, ["correct", str(mid), "push", "--actor", "me"])
    assert result.exit_code == 0, result.output
    assert "moved to QUEUE: evidence speaks against this sender" in result.output
    assert "urgent" not in result.output


def test_cli_correct_then_rules_list_show_remove(db: str) -> None:
    ids = _two_from(open_store(db), "Ann <ann@gmail.com>")
    for mid in ids:
        result = runner.invoke(app, ["correct", str(mid), "push", "--actor", "me"])
        assert result.exit_code == 0, result.output
        assert "moved to PUSH" in result.output
    listed = runner.invoke(app, ["rules", "list", "--json"])
    assert listed.exit_code == 0, listed.output
    data = json.loads(listed.output)
    assert [(r["key"], r["lane"]) for r in data["rules"]] == [("ann@gmail.com", "PUSH")]
    assert [c["message_id"] for c in data["rules"][0]["corrections"]] == ids
    shown = runner.invoke(app, ["rules", "show", "ann@gmail.com"])
    assert shown.exit_code == 0 and "learned rule: PUSH" in shown.output
    assert "human_corrections=2" in shown.output
    removed = runner.invoke(app, ["rules", "remove", "ann@gmail.com"])
    assert removed.exit_code == 0 and "removed learned rule" in removed.output
    again = runner.invoke(app, ["rules", "remove", "ann@gmail.com"])
    assert again.exit_code == 2 and "no learned rule" in again.output
    assert json.loads(runner.invoke(app, ["rules", "list", "--json"]).output)["rules"] == []


def test_cli_pin_unpin_and_clear_errors(db: str) -> None:
    open_store(db)
    assert runner.invoke(app, ["rules", "pin", "acme.example", "silent"]).exit_code == 0
    table = runner.invoke(app, ["rules", "list"])
    assert "acme.example" in table.output and "SILENT" in table.output
    bad_lane = runner.invoke(app, ["rules", "pin", "acme.example", "later"])
    assert bad_lane.exit_code == 2 and "unknown lane" in bad_lane.output
    public = runner.invoke(app, ["rules", "pin", "gmail.com", "SILENT"])
    assert public.exit_code == 2 and "public mail domain" in public.output
    assert runner.invoke(app, ["rules", "unpin", "acme.example"]).exit_code == 0
    missing = runner.invoke(app, ["rules", "unpin", "acme.example"])
    assert missing.exit_code == 2 and "not pinned" in missing.output
    assert runner.invoke(app, ["correct", "999", "PUSH"]).exit_code == 2


def test_api_corrections_rules_pins_facts_examples(db: str) -> None:
    store = open_store(db)
    client = TestClient(create_app(store))
    ids = _two_from(store, "ann@gmail.com")
    assert client.get("/api/rules").status_code == 401  # nothing without signing in
    make_user(store, "owner", ["local"])
    client.headers["X-CSRF-Token"] = sign_in(client, "owner")
    for mid in ids:
        made = client.post(f"/api/messages/{mid}/corrections", json={"lane": "MEETING"})
        assert made.status_code == 201, made.text
    assert client.post(f"/api/messages/{ids[0]}/corrections",
                       json={"kind": "dismissal"}).status_code == 201
    assert client.post(f"/api/messages/{ids[0]}/corrections", json={}).status_code == 422
    assert client.post("/api/messages/999/corrections", json={"lane": "PUSH"}).status_code \
        == 404
    page = client.get(f"/message/{ids[0]}")
    assert page.status_code == 200 and "MEETING" in page.text  # the page shows the person's lane
    rules = client.get("/api/rules").json()
    assert [(r["key"], r["lane"], r["cites"]) for r in rules["rules"]] == [
        ("ann@gmail.com", "MEETING", [1, 2])]
    one = client.get("/api/rules/ANN@gmail.com").json()
    assert one["rule"]["lane"] == "MEETING" and one["pin"] is None
    assert client.get("/api/rules/gmail.com").status_code == 409  # a public domain: no rule

    facts = client.get("/api/senders/ann@gmail.com/facts").json()
    assert facts["messages_received"] == 2 and facts["human_corrections"] == 3
    assert facts["rule_lane"] == "MEETING" and facts["rule_cites"] == [1, 2]

    third = store.ingest(eml("ann@gmail.com", "Draft 3", QUESTION), "eml").message_id
    examples = client.get(f"/api/messages/{third}/examples").json()
    assert [(e["correction"], e["why"], e["lane"]) for e in examples] == [
        (2, "same sender", "MEETING"), (1, "same sender", "MEETING")]

    assert client.put("/api/pins/ann@gmail.com", json={"lane": "SILENT"}).json()["lane"] \
        == "SILENT"
    assert client.get("/api/rules").json()["pins"][0]["key"] == "ann@gmail.com"
    assert client.delete("/api/pins/ann@gmail.com").status_code == 200
    assert client.delete("/api/pins/ann@gmail.com").status_code == 404
    assert client.delete("/api/rules/ann@gmail.com").json()["removed"]["cites"] == [1, 2]
    assert client.get("/api/rules").json() == {"rules": [], "pins": []}
    history = client.get("/api/corrections?sender=ann@gmail.com").json()
    kinds = [c["kind"] for c in history]
    assert kinds == ["lane_change", "lane_change", "dismissal", "pin", "unpin", "rule_removed"]
    assert {c["actor"] for c in history} == {"owner"}  # the session names the actor

    # Another person, another account: none of this is theirs to read or change.
    make_user(store, "other", ["elsewhere"])
    stranger = TestClient(create_app(store))
    stranger.headers["X-CSRF-Token"] = sign_in(stranger, "other")
    assert stranger.get("/api/corrections").json() == []
    assert stranger.post(f"/api/messages/{ids[0]}/corrections",
                         json={"lane": "PUSH"}).status_code == 404
