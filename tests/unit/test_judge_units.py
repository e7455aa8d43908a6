"""Config loading, failure classification and the rate table (pure parts of the judge)."""

from __future__ import annotations

import tomllib
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mailmoat.judge.config import (
    ConfigError,
    RateRow,
    is_local_url,
    llm_config_from,
    load_llm_config,
)
from mailmoat.judge.failures import Failure, classify_status, retry_after_seconds
from mailmoat.judge.pricing import DEFAULT_RATE, FREE, cost_usd, rate_for

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "judge.example.toml"
NOW = datetime(2026, 12, 3, 8, 0, tzinfo=UTC)


def test_env_vars_configure_one_provider_with_a_chain() -> None:
    config = llm_config_from({}, {"MAILMOAT_LLM_BASE_URL": "http://127.0.0.1:8080/v1/",
                                  "MAILMOAT_LLM_MODEL": "small, big ,",
                                  "MAILMOAT_LLM_API_KEY": "sk-test"})
    (provider,) = config.providers
    assert provider.models == ("small", "big")
    assert provider.base_url == "http://127.0.0.1:8080/v1"
    assert provider.api_key({"MAILMOAT_LLM_API_KEY": "sk-test"}) == "sk-test"
    assert provider.is_local


def test_env_provider_goes_ahead_of_file_providers() -> None:
    data = tomllib.loads(EXAMPLE.read_text())
    config = llm_config_from(data, {"MAILMOAT_LLM_BASE_URL": "http://localhost:1/v1",
                                    "MAILMOAT_LLM_MODEL": "m"})
    assert [p.name for p in config.providers] == ["env", "ollama", "openrouter", "openai"]
    assert config.budget.user_daily_usd == 0.5
    assert config.escalation is not None and config.escalation.model == "gpt-4.1-mini"


@pytest.mark.parametrize(
    ("data", "env", "needle"),
    [
        ({}, {"MAILMOAT_LLM_BASE_URL": "http://x/v1"}, "MAILMOAT_LLM_MODEL"),
        ({}, {"MAILMOAT_LLM_BASE_URL": "ftp://x", "MAILMOAT_LLM_MODEL": "m"}, "http"),
        ({"llm": {"providers": [{"base_url": "http://x", "models": []}]}}, {}, "models"),
        ({"llm": {"providers": [{"base_url": "http://x", "models": ["m"], "api_key": "k"}]}},
         {}, "api_key_env"),
        ({"llm": {"cooldown_hours": -1}}, {}, "cooldown_hours"),
        ({"llm": {"budget": {"global_daily_usd": "lots"}}}, {}, "global_daily_usd"),
        ({"llm": {"providers": [{"base_url": "http://x", "models": ["m"]}],
                  "escalation": {"provider": "nope", "model": "m"}}}, {}, "nope"),
    ],
)
def test_bad_config_says_what_to_fix(data: dict, env: dict, needle: str) -> None:
    with pytest.raises(ConfigError, match=needle):
        llm_config_from(data, env)


def test_unreadable_config_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "config.toml"
    bad.write_text("[llm\n")
    with pytest.raises(ConfigError, match="cannot read"):
        load_llm_config({"MAILMOAT_CONFIG": str(bad)})
    with pytest.raises(ConfigError, match="not a file"):
        load_llm_config({"MAILMOAT_CONFIG": str(tmp_path / "missing.toml")})


def test_no_config_means_not_configured(tmp_path: Path) -> None:
    assert not load_llm_config({"MAILMOAT_CONFIG": str(_empty(tmp_path))}).configured


def _empty(tmp_path: Path) -> Path:
    path = tmp_path / "empty.toml"
    path.write_text("")
    return path


@pytest.mark.parametrize(("url", "local"), [
    ("http://127.0.0.1:11434/v1", True), ("http://localhost:8080", True),
    ("http://192.168.1.5/v1", True), ("https://openrouter.ai/api/v1", False),
    ("https://api.openai.com/v1", False),
])
def test_local_endpoints_are_recognised(url: str, local: bool) -> None:
    assert is_local_url(url) is local


@pytest.mark.parametrize(
    ("status", "body", "headers", "failure"),
    [
        (402, {"error": {"message": "Insufficient credits"}}, {}, Failure.CREDIT),
        (403, {"error": {"message": "Key limit exceeded"}}, {}, Failure.QUOTA),
        (429, {"error": {"message": "Rate limit"}}, {"Retry-After": "7"}, Failure.RATE_LIMIT),
        (404, {"error": {"message": "No endpoints found for x/y."}}, {}, Failure.MODEL_GONE),
        (400, {"error": {"message": "bad", "code": "model_not_found"}}, {}, Failure.MODEL_GONE),
        (400, {"error": {"message": "The model `gpt-9` does not exist"}}, {},
         Failure.MODEL_GONE),
        (410, None, {}, Failure.MODEL_GONE),
        (404, {"error": {"message": "not here"}}, {}, Failure.MODEL_GONE),
        (404, {"message": "not here", "type": "invalid_request_error"}, {}, Failure.MODEL_GONE),
        (404, 'model "qwen3" not found, try pulling it first', {}, Failure.MODEL_GONE),
        (404, "404 page not found", {}, Failure.PROVIDER_DOWN),  # wrong path, not the model
        (404, {"detail": "Not Found"}, {}, Failure.PROVIDER_DOWN),
        (500, {"error": {"message": "oops"}}, {}, Failure.PROVIDER_DOWN),
        (503, "Service Unavailable", {}, Failure.PROVIDER_DOWN),
        (401, {"error": {"message": "invalid key"}}, {}, Failure.PROVIDER_DOWN),
        (400, {"error": {"message": "response_format is not supported"}}, {},
         Failure.BAD_REQUEST),
        (422, {"detail": "bad"}, {}, Failure.BAD_REQUEST),
    ],
)
def test_failures_are_classified(status: int, body: object, headers: dict,
                                 failure: Failure) -> None:
    assert classify_status(status, body, headers, NOW).failure == failure


def test_retry_after_seconds_and_dates() -> None:
    assert retry_after_seconds({"retry-after": "12"}, NOW) == 12
    assert retry_after_seconds({"Retry-After": "Thu, 03 Dec 2026 08:01:00 GMT"}, NOW) == 60
    assert retry_after_seconds({"Retry-After": "Wed, 02 Dec 2026 08:00:00 GMT"}, NOW) == 0
    assert retry_after_seconds({"Retry-After": "soon"}, NOW) is None
    assert retry_after_seconds({}, NOW) is None
    assert retry_after_seconds({"Retry-After": "1e12"}, NOW) == 7 * 24 * 3600


def test_every_configured_paid_model_has_its_own_rate_row() -> None:
    """Adding a chain entry without a rate row fails here (the default row does not count)."""
    config = llm_config_from(tomllib.loads(EXAMPLE.read_text()), {})
    models = [(p, m) for p in config.providers for m in p.models]
    esc = config.escalation
    assert esc is not None
    models.append((config.provider(esc.provider), esc.model))
    assert len(models) >= 8
    for provider, model in models:
        priced = rate_for(model, provider.is_local, config.pricing)
        assert not priced.generic, f"{provider.name}/{model} has no rate row"
        if provider.is_local:
            assert priced.rate == FREE
        else:
            assert priced.rate.input_per_mtok > 0


def test_rate_table_first_match_wins_and_unknown_paid_is_conservative() -> None:
    assert rate_for("openai/gpt-4o-mini-2024-07-18", False).rate.input_per_mtok == 0.15
    assert rate_for("openai/gpt-4o-2024-08-06", False).rate.input_per_mtok == 2.5
    unknown = rate_for("someone/new-model", False)
    assert unknown.generic and unknown.rate == DEFAULT_RATE
    assert rate_for("someone/new-model", True).rate == FREE
    custom = (RateRow("someone/*", 1.0, 2.0),)
    assert rate_for("someone/new-model", False, custom).rate.output_per_mtok == 2.0
    assert cost_usd(RateRow("x", 1.0, 2.0), 1_000_000, 500_000) == pytest.approx(2.0)


@given(status=st.integers(min_value=400, max_value=599), message=st.text(max_size=60),
       retry=st.one_of(st.none(), st.integers(min_value=0, max_value=10**6).map(str)))
def test_every_error_status_has_exactly_one_meaning(status: int, message: str,
                                                    retry: str | None) -> None:
    headers = {"Retry-After": retry} if retry is not None else {}
    classified = classify_status(status, {"error": {"message": message}}, headers, NOW)
    assert isinstance(classified.failure, Failure)
    if status >= 500:
        # A server error is the provider's trouble: it never puts a model on the long hold.
        assert classified.failure == Failure.PROVIDER_DOWN
    if classified.retry_after_s is not None:
        assert 0 <= classified.retry_after_s <= 7 * 24 * 3600
