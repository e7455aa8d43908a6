"""End to end against a real model: llama-cpp-python's OpenAI-compatible server with
SmolLM2-135M-Instruct, driven through the `mailmoat classify` command in a subprocess.

The tiny model's numbers are poor; this proves the plumbing (the real openai SDK against a
real server), the JSON contract (every answer is either valid or rejected, never half-used),
usage metering from the server's own token counts, and the fallback (a dead provider first,
then a model the server does not serve)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import create_engine, select

from llama_server import MODEL_ALIAS, LlamaServer, llama_server  # noqa: F401
from mailmoat.store.judge_models import LLMUsageRow
from mailserver import free_port

pytestmark = pytest.mark.slow
DEMO = Path(__file__).resolve().parents[1] / "src" / "mailmoat" / "demo"
LANES = {"PUSH", "MEETING", "QUEUE", "INFO", "SILENT"}


def _classify(eml: Path, env: dict[str, str]) -> dict:
    mailmoat = [sys.executable, "-m", "mailmoat.cli"]
    done = subprocess.run([*mailmoat, "classify", str(eml), "--json"], env=env,
                          capture_output=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    return json.loads(done.stdout)


def _env(tmp_path: Path, config: str) -> dict[str, str]:
    path = tmp_path / "config.toml"
    path.write_text(config)
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAILMOAT_")}
    env.update(MAILMOAT_CONFIG=str(path),
               MAILMOAT_DATABASE_URL=f"sqlite:///{tmp_path / 'mm.db'}")
    return env


def test_classify_through_a_real_model_with_fallback(
    llama_server: LlamaServer, tmp_path: Path  # noqa: F811
) -> None:
    dead = f"http://127.0.0.1:{free_port()}/v1"
    env = _env(tmp_path, f"""
[llm]
max_completion_tokens = 120
[[llm.providers]]
name = "dead"
base_url = "{dead}"
models = ["{MODEL_ALIAS}"]
timeout_s = 2
[[llm.providers]]
name = "llama"
base_url = "{llama_server.base_url}"
models = ["{MODEL_ALIAS}"]
timeout_s = 120
""")
    results = {eml.name: _classify(eml, env) for eml in
               (DEMO / "01-prod-down.eml", DEMO / "13-promo.eml", DEMO / "09-receipt.eml")}
    engine = create_engine(env["MAILMOAT_DATABASE_URL"])
    with engine.connect() as conn:
        rows = conn.execute(select(LLMUsageRow.provider, LLMUsageRow.outcome,
                                   LLMUsageRow.prompt_tokens, LLMUsageRow.completion_tokens,
                                   LLMUsageRow.tokens_estimated)).all()
    engine.dispose()
    # The dead provider was tried first, then skipped (backoff) for later messages.
    assert rows[0].provider == "dead" and rows[0].outcome == "provider_down"
    llama_rows = [r for r in rows if r.provider == "llama"]
    assert llama_rows, rows
    # Every answer the real server gave carried real token counts.
    assert all(r.prompt_tokens > 100 and not r.tokens_estimated for r in llama_rows)
    for name, data in results.items():
        assert data["lane"] in LANES, name
        # Either the model's reply met the contract, or it was rejected and the local
        # scorer stood in: never anything in between.
        if data["source"] == f"llm:{MODEL_ALIAS}":
            assert not data["degraded"]
            assert all(0.0 <= v <= 1.0 for v in data["features"].values())
        else:
            assert data["source"] == "local:degraded" and data["degraded"], data
            assert {r.outcome for r in llama_rows} & {"bad_output"}
    print("real-model outcomes:", [(r.provider, r.outcome, r.prompt_tokens,
                                    r.completion_tokens) for r in rows])
