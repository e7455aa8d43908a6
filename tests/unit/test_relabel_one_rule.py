"""One human relabel (services/relabel.py, core/relabel.py): the web move, the JSON API,
`mailmoat correct` and a pin's re-filing give the same decision for the same relabel."""

from __future__ import annotations

import email
import email.policy
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from mailmoat.entrypoints.cli.main import app
from mailmoat.entrypoints.web.app import create_app
from mailmoat.services.bootstrap import open_store
from mailmoat.store import Store
from tests.support.webhelpers import make_user, sign_in

DEMO = Path(__file__).resolve().parents[2] / "src" / "mailmoat" / "demo"
URGENT = (DEMO / "01-prod-down.eml").read_bytes()
runner = CliRunner()


def _decision(store: Store, mid: int) -> dict[str, object]:
    message = store.get_message(mid)
    assert message is not None
    trace = message["trace"]
    return {"lane": message["lane"], "branch": trace["branch"],
            "auto_eligible": trace["auto_eligible"],
            "reason": str(trace["reason"]).replace("cli-person", "ACTOR").replace("ann", "ACTOR"),
            "features": trace["features"]}


def _copy(n: int) -> bytes:
    message = email.message_from_bytes(URGENT, policy=email.policy.default)
    del message["From"], message["Message-ID"]
    message["From"] = f"Ops Pager {n} <pager{n}@ops.example>"
    message["Message-ID"] = f"<copy{n}@ops.example>"
    return message.as_bytes()


@pytest.mark.parametrize("asked", ["SILENT", "INFO", "QUEUE"])
def test_web_move_api_move_cli_correct_and_pin_refile_agree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, asked: str
) -> None:
    url = f"sqlite:///{tmp_path / 'm.db'}"
    monkeypatch.setenv("MAILMOAT_DATABASE_URL", url)
    store = open_store(url)
    # The same urgent message four times, from four senders: one per way to relabel it.
    ids = [store.ingest(_copy(n), f"copy{n}").message_id for n in range(4)]
    assert len(set(ids)) == 4
    assert {store.get_message(i)["lane"] for i in ids} == {"PUSH"}  # type: ignore[index]
    make_user(store, "ann", ["local"])
    client = TestClient(create_app(store))
    token = sign_in(client, "ann")

    page = client.post(f"/message/{ids[0]}/move", data={"lane": asked, "csrf": token},
                       follow_redirects=False)
    assert page.status_code in (200, 303), page.text
    api = client.post(f"/api/messages/{ids[1]}/move", json={"lane": asked},
                      headers={"X-CSRF-Token": token})
    assert api.status_code == 200, api.text
    cli = runner.invoke(app, ["correct", str(ids[2]), asked, "--actor", "cli-person"])
    assert cli.exit_code == 0, cli.output
    pin = client.post(f"/api/messages/{ids[3]}/pin", json={"lane": asked},
                      headers={"X-CSRF-Token": token})
    assert pin.status_code == 200, pin.text

    decisions = [_decision(store, mid) for mid in ids]
    assert decisions[0] == decisions[1] == decisions[2] == decisions[3], decisions
    want = "QUEUE" if asked in ("SILENT", "INFO") else asked  # urgent mail stays visible
    assert decisions[0]["lane"] == want
    assert decisions[0]["branch"] == "human" and decisions[0]["auto_eligible"] is False
    # The person is told the same thing on every path.
    assert api.json()["note"] in cli.output
