"""End to end against a real model: llama-cpp-python's OpenAI-compatible server with
SmolLM2-135M-Instruct, driven through the `mailmoat classify` command in a subprocess.

The tiny model's numbers are poor; this proves the plumbing (the real openai SDK against a
real server), the JSON contract (every answer is either valid or rejected, never half-used),
usage metering from the server's own token counts, and the fallback (a dead provider first,
then the real server)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import create_engine, select

from mailmoat.store.tables.judge import LLMUsageRow
from tests.support.llama_server import MODEL_ALIAS, LlamaServer
from tests.support.mailserver import free_port

pytestmark = pytest.mark.slow
DEMO = Path(__file__).resolve().parents[2] / "src" / "mailmoat" / "demo"
LANES = {"PUSH", "MEETING", "QUEUE", "INFO", "SILENT"}


def _classify(eml: Path, env: dict[str, str]) -> dict:
    mailmoat = [sys.executable, "-m", "mailmoat"]
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


def _usage(env: dict[str, str]) -> list:  # type: ignore[type-arg]
    engine = create_engine(env["MAILMOAT_DATABASE_URL"])
    with engine.connect() as conn:
        rows = conn.execute(select(LLMUsageRow.provider, LLMUsageRow.outcome,
                                   LLMUsageRow.prompt_tokens, LLMUsageRow.completion_tokens,
                                   LLMUsageRow.tokens_estimated)).all()
    engine.dispose()
    return list(rows)


def test_classify_through_a_real_model_with_fallback(
    llama_server: LlamaServer, tmp_path: Path
) -> None:
    """A dead provider first, then the real server with the contract's schema as a decoding
    hint: the model's answer passes validation and decides (source llm:<model>)."""
    dead = f"http://127.0.0.1:{free_port()}/v1"
    env = _env(tmp_path, f"""
[[llm.providers]]
name = "dead"
base_url = "{dead}"
models = ["{MODEL_ALIAS}"]
timeout_s = 2
[[llm.providers]]
name = "llama"
base_url = "{llama_server.base_url}"
models = ["{MODEL_ALIAS}"]
timeout_s = 300
json_schema_hint = true
""")
    data = _classify(DEMO / "01-prod-down.eml", env)
    rows = _usage(env)
    assert [(r.provider, r.outcome) for r in rows] == [("dead", "provider_down"),
                                                      ("llama", "ok")], rows
    assert data["source"] == f"llm:{MODEL_ALIAS}" and not data["degraded"]
    assert data["lane"] in LANES
    assert all(0.0 <= v <= 1.0 for v in data["features"].values())
    # Usage comes from the real server's own token counts, not an estimate.
    assert rows[1].prompt_tokens > 100 and not rows[1].tokens_estimated
    print("real-model prompt tokens:", rows[1].prompt_tokens, "completion:",
          rows[1].completion_tokens, "features:", data["features"])


def test_plain_json_object_replies_are_validated_not_trusted(
    llama_server: LlamaServer, tmp_path: Path
) -> None:
    """Without the hint the tiny model writes JSON of its own shape: whatever it writes is
    either within the contract (and decides) or rejected (retry, then the local scorer)."""
    env = _env(tmp_path, f"""
[[llm.providers]]
name = "llama"
base_url = "{llama_server.base_url}"
models = ["{MODEL_ALIAS}"]
timeout_s = 300
""")
    data = _classify(DEMO / "13-promo.eml", env)
    rows = _usage(env)
    assert data["lane"] in LANES
    outcomes = [r.outcome for r in rows]
    if data["source"] == f"llm:{MODEL_ALIAS}":
        assert outcomes[-1] == "ok"
    else:
        assert data["source"] == "local:degraded" and data["degraded"]
        assert outcomes == ["bad_output", "bad_output"]  # one retry, then degrade
    print("real-model plain json_object outcomes:", outcomes)
