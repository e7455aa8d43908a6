"""`mailmoat actions ...` and the /api/actions routes, as a user and a client use them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from mailmoat.act.executor import Executor
from mailmoat.entrypoints.cli.main import app
from mailmoat.entrypoints.web.app import create_app
from tests.support import act_support
from tests.support.act_support import (
    add_mail_account,
    body_bytes,
    delivered,
    rig,
    secret_key,
    send_payload,
    transport,
    wipe,
)
from tests.support.mailserver import MailServer

server = act_support.server  # a fixture of tests/support/act_support.py

runner = CliRunner()


@pytest.fixture
def db_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("MAILMOAT_DATABASE_URL", url)
    return url


def cli(*args: str) -> Any:
    return runner.invoke(app, ["actions", *args])


def test_cli_propose_show_approve_run_delivers_once(
    server: MailServer, db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    wipe(server)
    ring = secret_key(monkeypatch)  # the key ring that seals secrets also signs receipts
    body = tmp_path / "body.txt"
    body.write_text("Hello Ana,\nsee you Thursday.\n", encoding="utf-8")
    result = cli("propose", "--to", " Ana@Client.Example ", "--subject", "Thursday",
                 "--body-file", str(body), "--account", "acct", "--json")
    assert result.exit_code == 0, result.output
    view = json.loads(result.output)
    assert view["payload"]["to"] == "ana@client.example"  # normalised before hashing
    shown = cli("show", str(view["id"]))
    assert shown.exit_code == 0 and "see you Thursday." in shown.output
    assert view["payload_sha256"] in shown.output
    refused = cli("approve", str(view["id"]), "--expect", "0" * 64)
    assert refused.exit_code == 1 and "changed since" in refused.output
    ok = cli("approve", str(view["id"]), "--expect", view["payload_sha256"])
    assert ok.exit_code == 0, ok.output
    r = rig(db_url)
    assert cli("run").exit_code == 0 and delivered(server) == []  # no account can send yet
    add_mail_account(r.store, ring, server)
    ran = cli("run")
    assert ran.exit_code == 0, ran.output
    inbox = delivered(server)
    assert len(inbox) == 1 and body_bytes(inbox[0]) == body.read_bytes()
    listed = json.loads(cli("list", "--json").output)
    assert [(a["id"], a["status"], a["outbox"]) for a in listed] == [(view["id"], "done", "done")]


def test_cli_bad_input_is_a_clear_error_and_stores_nothing(db_url: str) -> None:
    result = cli("propose", "--to", "a@x.example, b@y.example", "--subject", "s",
                 "--body", "b")
    assert result.exit_code == 1 and "exactly one" in result.output
    assert json.loads(cli("list", "--json").output) == []
    missing = cli("approve", "999")
    assert missing.exit_code == 1 and "no action 999" in missing.output


def test_cli_reject_and_mode(db_url: str) -> None:
    view = json.loads(cli("propose", "--to", "a@x.example", "--body", "b", "--json").output)
    assert cli("reject", str(view["id"]), "--note", "not now").exit_code == 0
    assert json.loads(cli("list", "--json").output)[0]["status"] == "rejected"
    shown = cli("mode", "acct", "AUTO", "--cap", "3", "--guidelines", "Short replies.")
    assert shown.exit_code == 0 and "AUTO, daily cap 3" in shown.output
    assert "SUGGEST" in cli("mode", "acct", "suggest").output
    assert cli("mode", "acct", "YOLO").exit_code == 1


def signed_in(store: Any, name: str = "sam", accounts: tuple[str, ...] = ("acct",)
              ) -> TestClient:
    """A browser-like client of a person who may read `accounts` (the first is current)."""
    from tests.support.webhelpers import make_user, sign_in

    make_user(store, name, list(accounts))
    client = TestClient(create_app(store))
    client.headers["X-CSRF-Token"] = sign_in(client, name)
    return client


def test_api_round_trip(server: MailServer, tmp_path: Path) -> None:
    wipe(server)
    r = rig(f"sqlite:///{tmp_path / 'api.db'}")
    client = signed_in(r.store)
    created = client.post("/api/actions", json={"payload": send_payload()})
    assert created.status_code == 201, created.text
    view = created.json()
    assert view["proposed_by"] == "sam" and view["account"] == "acct"
    assert client.get(f"/api/actions/{view['id']}").json()["payload"] == view["payload"]
    pending = client.get("/api/approvals").json()
    assert [p["payload_sha256"] for p in pending] == [view["payload_sha256"]]
    stale = client.post(f"/api/approvals/{view['id']}/approve",
                        json={"expected_sha256": "f" * 64})
    assert stale.status_code == 409
    ok = client.post(f"/api/approvals/{view['id']}/approve",
                     json={"expected_sha256": view["payload_sha256"]})
    assert ok.status_code == 200, ok.text
    assert client.get(f"/api/actions/{view['id']}").json()["receipt"]["approved_by"] == "sam"
    again = client.post(f"/api/approvals/{view['id']}/approve", json={})
    assert again.status_code == 409
    assert [o.state for o in Executor(r.store.engine, {"acct": transport(server)})
            .run_until_idle()] == ["done"]
    assert len(delivered(server)) == 1
    events = [e["event"] for e in client.get(f"/api/actions/{view['id']}/audit").json()]
    assert events == ["proposed", "approved", "executed"]


def test_api_errors_are_clear(tmp_path: Path) -> None:
    r = rig(f"sqlite:///{tmp_path / 'api.db'}")
    client = signed_in(r.store)
    bad = client.post("/api/actions", json={"payload": send_payload(subject="a\r\nBcc: x@y")})
    assert bad.status_code == 400 and "CR or LF" in bad.json()["detail"]
    assert client.get("/api/actions/42").status_code == 404
    assert client.get("/api/actions").json() == []
    mode = client.put("/api/settings/mode", json={"mode": "AUTO", "daily_cap": 2})
    assert mode.status_code == 200 and mode.json()["mode"] == "AUTO"
    assert r.service.mode("acct").daily_cap == 2  # the switch act/ enforces, not a copy
    assert client.put("/api/settings/mode", json={"mode": "ON"}).status_code == 422
    assert client.get("/api/triage").json() == []


def test_api_approval_view_flags_lookalike_recipients(tmp_path: Path) -> None:
    from tests.support.act_support import incoming

    r = rig(f"sqlite:///{tmp_path / 'api.db'}")
    r.store.ingest(incoming("Pay <billing@paypal.com>"), "imap", account="acct")
    client = signed_in(r.store)
    view = client.post("/api/actions", json={
        "payload": send_payload(to="billing@pаypal.com")}).json()
    assert view["flags"]["lookalike_of"] == "paypal.com"
    assert view["flags"]["mixed_script"] is True
    assert view["payload"]["to"].startswith("billing@xn--")  # what is hashed and sent


def test_reply_view_flags_a_display_name_that_shows_another_address(tmp_path: Path) -> None:
    from tests.support.act_support import incoming

    r = rig(f"sqlite:///{tmp_path / 'api.db'}")
    mid = r.store.ingest(incoming('"ceo@company.example" <mallory@evil.example>'), "imap",
                         account="acct").message_id
    client = signed_in(r.store)
    view = client.post("/api/actions", json={
        "reply_to_message": mid,
        "payload": {"action": "send_email", "subject": "Re: hi", "body": "ok"}}).json()
    assert view["payload"]["to"] == "mallory@evil.example"  # the real sender, shown as such
    assert view["flags"]["display_name_mismatch"] is True
    assert view["replying_to"]["message_id"] == "<orig-1@client.example>"
    assert view["payload"]["in_reply_to"] == "<orig-1@client.example>"
    other = client.post("/api/actions", json={
        "reply_to_message": mid,
        "payload": {"action": "send_email", "to": "ceo@company.example", "subject": "Re: hi",
                    "body": "ok"}})
    assert other.status_code == 400 and "original sender" in other.json()["detail"]


def test_api_needs_a_session_csrf_and_the_right_account(tmp_path: Path) -> None:
    r = rig(f"sqlite:///{tmp_path / 'api.db'}")
    anonymous = TestClient(create_app(r.store))
    assert anonymous.get("/api/actions").status_code == 401
    owner = signed_in(r.store)
    view = owner.post("/api/actions", json={"payload": send_payload()}).json()
    # A cross-site page can post a form, but it cannot read or send our CSRF token.
    forged = TestClient(create_app(r.store))
    forged.cookies = owner.cookies
    assert forged.post(f"/api/approvals/{view['id']}/approve", json={}).status_code == 403
    assert forged.put("/api/settings/mode", json={"mode": "AUTO"}).status_code == 403
    # Someone signed in on another account sees nothing of this one.
    other = signed_in(r.store, "eve", ("elsewhere",))
    assert other.get(f"/api/actions/{view['id']}").status_code == 404
    assert other.post(f"/api/approvals/{view['id']}/approve", json={}).status_code == 404
    assert other.get("/api/approvals").json() == []
    assert r.service.show(view["id"])["status"] == "pending"
    assert r.service.mode("acct").mode.value == "SUGGEST"


def test_cli_run_with_a_bad_config_is_a_clear_error(db_url: str, tmp_path: Path) -> None:
    missing = cli("run", str(tmp_path / "nope.json"))
    assert missing.exit_code == 2
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"accounts": {"acct": {"smtp": {"host": "x"}, "imap": {}}}}))
    bad.chmod(0o600)
    result = cli("run", str(bad))
    assert result.exit_code == 2
