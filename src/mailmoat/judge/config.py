"""mailmoat configuration: a TOML file plus environment variables for the common case.

File: `$MAILMOAT_CONFIG`, else `config.toml` in the user config directory. The LLM section:

    [llm]
    cooldown_hours = 24            # a gone / out-of-credit model is skipped this long
    [[llm.providers]]
    name = "ollama"
    base_url = "http://127.0.0.1:11434/v1"
    models = ["qwen2.5:3b"]        # walked in order
    [[llm.providers]]
    name = "openrouter"
    base_url = "https://openrouter.ai/api/v1"
    api_key_env = "OPENROUTER_API_KEY"   # the key itself never goes in the file
    models = ["openai/gpt-4o-mini"]

The environment variables MAILMOAT_LLM_BASE_URL, MAILMOAT_LLM_MODEL (one model or a
comma-separated chain) and MAILMOAT_LLM_API_KEY (optional) configure one provider; it goes
first, ahead of any providers from the file. docs/judge.md lists every key.
"""

from __future__ import annotations

import ipaddress
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from platformdirs import user_config_dir

ENV_CONFIG = "MAILMOAT_CONFIG"
ENV_BASE_URL = "MAILMOAT_LLM_BASE_URL"
ENV_MODEL = "MAILMOAT_LLM_MODEL"
ENV_API_KEY = "MAILMOAT_LLM_API_KEY"


class ConfigError(ValueError):
    """The configuration cannot be used; the message names the key to fix."""


@dataclass(frozen=True, slots=True)
class RateRow:
    """USD per million tokens for models matching `pattern` (fnmatch, case-insensitive)."""

    pattern: str
    input_per_mtok: float
    output_per_mtok: float


@dataclass(frozen=True, slots=True)
class ProviderConfig:
    name: str
    base_url: str
    models: tuple[str, ...]
    api_key_env: str | None = None  # the NAME of the variable holding the key
    timeout_s: float = 30.0
    local: bool | None = None  # None: decided from the URL (loopback / private = local)
    json_schema_hint: bool = False  # llama.cpp: send the contract schema inside json_object

    @property
    def is_local(self) -> bool:
        if self.local is not None:
            return self.local
        return is_local_url(self.base_url)

    def api_key(self, environ: Mapping[str, str] | None = None) -> str | None:
        env = os.environ if environ is None else environ
        return env.get(self.api_key_env) if self.api_key_env else None


@dataclass(frozen=True, slots=True)
class BudgetConfig:
    global_daily_usd: float | None = None  # None: no cap
    user_daily_usd: float | None = None


@dataclass(frozen=True, slots=True)
class EscalationConfig:
    """A stronger model asked only when the first answer's confidence is below the floor."""

    provider: str
    model: str


@dataclass(frozen=True, slots=True)
class LLMConfig:
    providers: tuple[ProviderConfig, ...] = ()
    cooldown_hours: float = 24.0
    provider_backoff_s: float = 60.0  # a provider that is down is not retried before this
    rate_limit_default_s: float = 60.0  # 429 without a usable Retry-After
    max_inline_wait_s: float = 2.0  # a Retry-After this short is waited out, then retried
    # A model whose answers broke the contract for this many messages in a row (each one
    # asked twice) is cooled down for bad_output_cooldown_s, instead of costing two calls
    # per message forever.
    bad_output_streak: int = 3
    bad_output_cooldown_s: float = 1800.0
    body_chars: int = 600
    max_completion_tokens: int = 120
    budget: BudgetConfig = field(default_factory=BudgetConfig)
    escalation: EscalationConfig | None = None
    pricing: tuple[RateRow, ...] = ()  # checked before the built-in table

    @property
    def configured(self) -> bool:
        return any(p.models for p in self.providers)

    def provider(self, name: str) -> ProviderConfig:
        for p in self.providers:
            if p.name == name:
                return p
        raise ConfigError(f"no provider named {name!r}")


def is_local_url(url: str) -> bool:
    host = (urlsplit(url).hostname or "").lower()
    if host in ("localhost", "host.docker.internal") or host.endswith(".local"):
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    return ip.is_loopback or ip.is_private or ip.is_link_local


def config_path(environ: Mapping[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    if env.get(ENV_CONFIG):
        return Path(env[ENV_CONFIG])
    return Path(user_config_dir("mailmoat", appauthor=False)) / "config.toml"


def _number(section: Mapping[str, Any], key: str, default: float | None, where: str) -> Any:
    value = section.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise ConfigError(f"{where}.{key} must be a non-negative number, got {value!r}")
    return float(value)


def _models(value: Any, where: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = value.split(",")
    if not isinstance(value, list) or not all(isinstance(m, str) for m in value):
        raise ConfigError(f"{where}.models must be a list of model names")
    models = tuple(m.strip() for m in value if m.strip())
    if not models:
        raise ConfigError(f"{where}.models is empty")
    return models


def _provider(raw: Any, n: int) -> ProviderConfig:
    where = f"llm.providers[{n}]"
    if not isinstance(raw, dict):
        raise ConfigError(f"{where} must be a table")
    base_url = raw.get("base_url")
    if not isinstance(base_url, str) or not base_url.startswith(("http://", "https://")):
        raise ConfigError(f"{where}.base_url must be an http(s) URL")
    if "api_key" in raw:
        raise ConfigError(f"{where}: put the key in an environment variable and name it "
                          "with api_key_env; keys do not belong in the config file")
    local = raw.get("local")
    hint = raw.get("json_schema_hint", False)
    for key, value in (("local", local), ("json_schema_hint", hint)):
        if value is not None and not isinstance(value, bool):
            raise ConfigError(f"{where}.{key} must be true or false")
    return ProviderConfig(
        name=str(raw.get("name") or urlsplit(base_url).hostname or f"provider{n}"),
        base_url=base_url.rstrip("/"),
        models=_models(raw.get("models"), where),
        api_key_env=raw.get("api_key_env") or None,
        timeout_s=_number(raw, "timeout_s", 30.0, where),
        local=local,
        json_schema_hint=bool(hint),
    )


def _rates(raw: Any) -> tuple[RateRow, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise ConfigError("llm.pricing must be an array of tables")
    rows = []
    for n, row in enumerate(raw):
        where = f"llm.pricing[{n}]"
        if not isinstance(row, dict) or not isinstance(row.get("pattern"), str):
            raise ConfigError(f"{where} needs a pattern")
        rows.append(RateRow(row["pattern"], _number(row, "input_per_mtok", None, where),
                            _number(row, "output_per_mtok", None, where)))
        if rows[-1].input_per_mtok is None or rows[-1].output_per_mtok is None:
            raise ConfigError(f"{where} needs input_per_mtok and output_per_mtok")
    return tuple(rows)


def _env_provider(env: Mapping[str, str]) -> ProviderConfig | None:
    base_url = env.get(ENV_BASE_URL, "").strip()
    models = env.get(ENV_MODEL, "").strip()
    if not base_url and not models:
        return None
    if not base_url or not models:
        raise ConfigError(f"set both {ENV_BASE_URL} and {ENV_MODEL} (or neither)")
    if not base_url.startswith(("http://", "https://")):
        raise ConfigError(f"{ENV_BASE_URL} must be an http(s) URL")
    return ProviderConfig(
        name="env",
        base_url=base_url.rstrip("/"),
        models=_models(models, ENV_MODEL),
        api_key_env=ENV_API_KEY if env.get(ENV_API_KEY) else None,
    )


def llm_config_from(data: Mapping[str, Any], environ: Mapping[str, str]) -> LLMConfig:
    """Build the LLM configuration from parsed TOML and an environment (pure)."""
    llm = data.get("llm", {})
    if not isinstance(llm, dict):
        raise ConfigError("[llm] must be a table")
    providers = [_provider(p, n) for n, p in enumerate(llm.get("providers", []) or [])]
    env_provider = _env_provider(environ)
    if env_provider is not None:
        providers.insert(0, env_provider)
    names = [p.name for p in providers]
    if len(set(names)) != len(names):
        raise ConfigError(f"provider names must be unique: {names}")
    budget_raw = llm.get("budget", {}) or {}
    escalation_raw = llm.get("escalation")
    escalation = None
    if escalation_raw is not None:
        if not isinstance(escalation_raw, dict) or not escalation_raw.get("model"):
            raise ConfigError("llm.escalation needs provider and model")
        escalation = EscalationConfig(str(escalation_raw.get("provider") or names[0]),
                                      str(escalation_raw["model"]))
    config = LLMConfig(
        providers=tuple(providers),
        cooldown_hours=_number(llm, "cooldown_hours", 24.0, "llm"),
        provider_backoff_s=_number(llm, "provider_backoff_s", 60.0, "llm"),
        rate_limit_default_s=_number(llm, "rate_limit_default_s", 60.0, "llm"),
        max_inline_wait_s=_number(llm, "max_inline_wait_s", 2.0, "llm"),
        body_chars=int(_number(llm, "body_chars", 600, "llm")),
        max_completion_tokens=int(_number(llm, "max_completion_tokens", 120, "llm")),
        budget=BudgetConfig(
            global_daily_usd=_number(budget_raw, "global_daily_usd", None, "llm.budget"),
            user_daily_usd=_number(budget_raw, "user_daily_usd", None, "llm.budget"),
        ),
        escalation=escalation,
        pricing=_rates(llm.get("pricing")),
    )
    if escalation is not None:
        config.provider(escalation.provider)  # raises when it names no provider
    return config


def load_llm_config(environ: Mapping[str, str] | None = None) -> LLMConfig:
    env = os.environ if environ is None else environ
    path = config_path(env)
    data: dict[str, Any] = {}
    if path.is_file():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"cannot read {path}: {exc}") from exc
    elif env.get(ENV_CONFIG):
        raise ConfigError(f"{ENV_CONFIG} points at {path}, which is not a file")
    return llm_config_from(data, env)
