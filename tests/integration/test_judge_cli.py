"""`mailmoat classify`, `import`, `status`, `heal` and `eval --scorer llm` with a model
configured by environment variables, against the scripted server on loopback."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mailmoat.entrypoints.cli.main import app
from tests.support.llm_server import LLMServer, error, ok

DEMO = Path(__file__).resolve().parents[2] / "src" / "mailmoat" / "demo"
KLORN = Path(__file__).resolve().parents[3] / "shared" / "eval" / "klorn"
runner = CliRunner()


@pytest.fixture(scope="module")
def server() -> Iterator[LLMServer]:
    with LLMServer() as running:
        yield running


@pytest.fixture
def llm_env(server: LLMServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> LLMServer:
    server.reset()
    empty = tmp_path / "config.toml"
    empty.write_text("")
    monkeypatch.setenv("MAILMOAT_CONFIG", str(empty))
    monkeypatch.setenv("MAILMOAT_DATABASE_URL", f"sqlite:///{tmp_path / 'mm.db'}")
    monkeypatch.setenv("MAILMOAT_LLM_BASE_URL", server.base_url)
    monkeypatch.setenv("MAILMOAT_LLM_MODEL", "first,second")
    monkeypatch.setenv("MAILMOAT_LLM_API_KEY", "sk-scripted-secret-123")
    return server


def test_classify_uses_the_configured_model(llm_env: LLMServer) -> None:
    llm_env.enqueue(ok(confidence=0.95, sender_trust=0.9, reversibility=0.3, urgency=0.95,
                       reason="production is down"))
    result = runner.invoke(app, ["classify", str(DEMO / "01-prod-down.eml"), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["source"] == "llm:first" and data["lane"] == "PUSH"
    (request,) = llm_env.chat_requests()
    assert request.headers["authorization"] == "Bearer sk-scripted-secret-123"


def test_classify_falls_back_down_the_chain_then_to_local(llm_env: LLMServer) -> None:
    llm_env.enqueue(error(402, "no credit"), model="first")
    result = runner.invoke(app, ["classify", str(DEMO / "13-promo.eml"), "--json"])
    assert json.loads(result.output)["source"] == "llm:second"
    llm_env.respond_with(lambda _: error(500, "down"))
    result = runner.invoke(app, ["classify", str(DEMO / "15-newsletter.eml"), "--json"])
    data = json.loads(result.output)
    assert data["source"] == "local:degraded" and data["degraded"] is True
    assert data["lane"] in {"PUSH", "MEETING", "QUEUE", "INFO", "SILENT"}


def test_status_shows_providers_cooldowns_and_never_the_key(llm_env: LLMServer) -> None:
    llm_env.enqueue(error(404, "No endpoints found for first."), model="first")
    runner.invoke(app, ["classify", str(DEMO / "07-question.eml")])
    result = runner.invoke(app, ["status", "--json"])
    assert result.exit_code == 0, result.output
    assert "sk-scripted-secret-123" not in result.output
    data = json.loads(result.output)
    (env_provider,) = data["providers"]
    assert env_provider["health"] == "ok" and env_provider["local"] is True
    assert env_provider["api_key"] == "$MAILMOAT_LLM_API_KEY set"
    first, second = env_provider["models"]
    assert first["cooldown"]["reason"] == "model_gone" and second["cooldown"] is None
    assert data["usage_today"]["calls"] == 1
    (use,) = data["budget"]["per_user"]
    assert (use["user"], use["calls"], use["calls_blocked"]) == ("local", 1, 0)
    human = runner.invoke(app, ["status"])
    assert human.exit_code == 0 and "model_gone" in human.output
    assert "user local: 1 answers" in human.output
    assert "sk-scripted-secret-123" not in human.output


def test_import_and_heal_use_the_judge(llm_env: LLMServer, tmp_path: Path) -> None:
    llm_env.respond_with(lambda _: error(503, "down"))
    result = runner.invoke(app, ["import", str(DEMO)])
    assert result.exit_code == 0, result.output
    status = json.loads(runner.invoke(app, ["status", "--json", "--no-check"]).output)
    degraded = status["degraded_decisions"]
    assert degraded > 10
    # Recovered, and the provider backoff has passed: `heal` re-judges them.
    llm_env.reset()
    import os

    from sqlalchemy import create_engine, text
    engine = create_engine(os.environ["MAILMOAT_DATABASE_URL"])
    with engine.begin() as conn:
        conn.execute(text("DELETE FROM llm_cooldowns"))
    engine.dispose()
    result = runner.invoke(app, ["heal"])
    assert result.exit_code == 0, result.output
    assert f"re-judged {degraded}" in result.output
    status = json.loads(runner.invoke(app, ["status", "--json", "--no-check"]).output)
    assert status["degraded_decisions"] == 0


def test_eval_compares_models_with_tokens_and_cost(llm_env: LLMServer) -> None:
    path = KLORN / "judge-eval-set.json"
    if not path.is_file():
        pytest.skip("../shared/eval/klorn is not present")
    table = runner.invoke(app, ["eval", str(path), "--scorer", "llm", "--model", "first"])
    assert table.exit_code == 0, table.output
    assert "first" in table.output and "0/56" in table.output  # none degraded
    llm_env.enqueue(*[error(500, "down")] * 200, model="second")
    result = runner.invoke(app, ["eval", str(path), "--scorer", "llm", "--json",
                                 "--model", "first", "--model", "second"])
    assert result.exit_code == 0, result.output
    first, second = json.loads(result.output)
    assert (first["model"], second["model"]) == ("first", "second")
    assert first["total"] == 56 and first["degraded"] == 0
    assert 100 < first["median_prompt_tokens"] < 600
    assert first["cost_per_1000_emails_usd"] == 0.0  # a loopback endpoint is free
    assert second["degraded"] == 56 and second["median_prompt_tokens"] is None


def test_bad_config_is_a_clear_error(llm_env: LLMServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MAILMOAT_LLM_MODEL")
    result = runner.invoke(app, ["classify", str(DEMO / "07-question.eml")])
    assert result.exit_code == 2 and "MAILMOAT_LLM_MODEL" in result.output


def test_web_api_exposes_status_and_the_metering_metric(llm_env: LLMServer) -> None:
    import os

    from fastapi.testclient import TestClient

    from mailmoat.entrypoints.web.app import create_app
    from mailmoat.services.bootstrap import open_store

    runner.invoke(app, ["classify", str(DEMO / "07-question.eml")])
    store = open_store(os.environ["MAILMOAT_DATABASE_URL"])
    from tests.support.webhelpers import make_user, sign_in

    client = TestClient(create_app(store))
    assert client.get("/api/judge/status").status_code == 401  # signed-in users only
    make_user(store, "owner", ["local"])
    sign_in(client, "owner")
    data = client.get("/api/judge/status").json()
    assert data["configured"] and data["usage_today"]["calls"] == 1
    page = client.get("/status").text  # the status page shows the judge's figures too
    assert "A language model reads each message" in page
    assert "spent on the model for all accounts" in page and "for this account" in page
    assert "Approved, waiting to go out" in page
    metrics = client.get("/api/judge/metrics").text
    assert "mailmoat_llm_metering_ratio NaN" in metrics  # a free local model bills nothing
    assert "mailmoat_llm_calls_today 1" in metrics
    store.engine.dispose()
