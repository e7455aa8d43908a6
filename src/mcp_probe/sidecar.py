"""The sidecar contract (`.mcp-probe.json`): one dry-run call per tool (pure, but for `load`).

    {"version": 1, "server": "NAME", "tools": {
       "TOOL": {"enabled": true, "arguments": {...},
                "expect": {"status": "ok", "outputSchema": {...}},
                "retry": {"attempts": 3, "delayMs": 200, "retryOn": [503, "timeout"]},
                "timeoutMs": 5000},
       "OTHER": {"enabled": false, "review": ["mutating: name has 'delete'"], ...}}}

`expect.status` is "ok" (a result that is not an error), "error" (the tool must refuse: an
error result or a JSON-RPC error) or "any". Retry is opt-in per tool; without `retry` a call
runs once. A tool marked for review is written disabled; only a person flips `enabled`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jsonschema.exceptions import SchemaError
from jsonschema.validators import validator_for

from .catalog import schema_problem
from .config import ConfigError
from .retry import RetryPolicy, parse_retry_on
from .review import review_reasons
from .samples import sample_input

STATUSES = ("ok", "error", "any")
ENTRY_KEYS = frozenset({"enabled", "review", "arguments", "expect", "retry", "timeoutMs", "note"})
EXPECT_KEYS = frozenset({"status", "outputSchema"})
RETRY_KEYS = frozenset({"attempts", "delayMs", "retryOn"})
TOP_KEYS = frozenset({"$schema", "version", "server", "note", "tools"})


@dataclass(frozen=True, slots=True)
class ToolCall:
    tool: str
    enabled: bool
    arguments: Mapping[str, Any]
    expect_status: str = "ok"
    output_schema: Mapping[str, Any] | None = None
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    timeout_ms: int | None = None
    review: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Sidecar:
    path: Path
    server: str | None
    calls: Mapping[str, ToolCall]


def _fail(where: str, problem: str) -> ConfigError:
    return ConfigError(f"{where}: {problem}")


def _int(value: Any, where: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise _fail(where, f"must be a whole number from {lo} to {hi}")
    return value


def parse_entry(tool: str, raw: Any, where: str) -> ToolCall:
    if not isinstance(raw, dict):
        raise _fail(where, "must be an object")
    extra = sorted(set(raw) - ENTRY_KEYS)
    if extra:
        raise _fail(where, f"unknown key {extra[0]!r} (known: {', '.join(sorted(ENTRY_KEYS))})")
    enabled = raw.get("enabled", True)
    if not isinstance(enabled, bool):
        raise _fail(f"{where}.enabled", "must be true or false")
    arguments = raw.get("arguments", {})
    if not isinstance(arguments, dict):
        raise _fail(f"{where}.arguments", "must be an object")
    review = raw.get("review", [])
    if isinstance(review, str):
        review = [review]
    if not isinstance(review, list) or not all(isinstance(r, str) for r in review):
        raise _fail(f"{where}.review", "must be a list of reasons")
    expect = raw.get("expect", {})
    if not isinstance(expect, dict):
        raise _fail(f"{where}.expect", "must be an object")
    extra = sorted(set(expect) - EXPECT_KEYS)
    if extra:
        raise _fail(f"{where}.expect", f"unknown key {extra[0]!r} (known: status, outputSchema)")
    status = expect.get("status", "ok")
    if status not in STATUSES:
        raise _fail(f"{where}.expect.status", f"must be one of {', '.join(STATUSES)}")
    output_schema = expect.get("outputSchema")
    if output_schema is not None:
        if not isinstance(output_schema, dict):
            raise _fail(f"{where}.expect.outputSchema", "must be a JSON Schema object")
        try:
            validator_for(output_schema).check_schema(output_schema)
        except SchemaError as e:
            raise _fail(f"{where}.expect.outputSchema", f"not a valid JSON Schema: {e.message}"
                        ) from None
    retry = RetryPolicy()
    if "retry" in raw:
        r = raw["retry"]
        if not isinstance(r, dict):
            raise _fail(f"{where}.retry", "must be an object")
        extra = sorted(set(r) - RETRY_KEYS)
        if extra:
            raise _fail(f"{where}.retry", f"unknown key {extra[0]!r} (known: attempts, delayMs, "
                        "retryOn)")
        retry = RetryPolicy(
            attempts=_int(r.get("attempts", 1), f"{where}.retry.attempts", 1, 10),
            delay_ms=_int(r.get("delayMs", 0), f"{where}.retry.delayMs", 0, 60_000),
            retry_on=parse_retry_on(r.get("retryOn", []), f"{where}.retry.retryOn"),
        )
    timeout_ms = None
    if "timeoutMs" in raw:
        timeout_ms = _int(raw["timeoutMs"], f"{where}.timeoutMs", 100, 3_600_000)
    return ToolCall(
        tool=tool, enabled=enabled, arguments=arguments, expect_status=status,
        output_schema=output_schema, retry=retry, timeout_ms=timeout_ms, review=tuple(review),
    )


def parse_sidecar(data: Any, path: Path) -> Sidecar:
    where = str(path)
    if not isinstance(data, dict):
        raise _fail(where, "must hold a JSON object")
    extra = sorted(set(data) - TOP_KEYS)
    if extra:
        raise _fail(where, f"unknown key {extra[0]!r} (known: {', '.join(sorted(TOP_KEYS))})")
    if data.get("version", 1) != 1:
        raise _fail(f"{where}: version", "only version 1 is known")
    tools = data.get("tools", {})
    if not isinstance(tools, dict):
        raise _fail(f"{where}: tools", "must be an object keyed by tool name")
    calls = {name: parse_entry(name, raw, f"{where}: tools.{name}") for name, raw in tools.items()}
    server = data.get("server")
    return Sidecar(path=path, server=server if isinstance(server, str) else None, calls=calls)


def load_sidecar(path: Path) -> Sidecar | None:
    """The sidecar at `path`, or None when there is none; a broken one is a ConfigError."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as e:
        raise ConfigError(f"{path}: cannot read ({e.strerror})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ConfigError(f"{path}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})"
                          ) from None
    return parse_sidecar(data, path)


def arguments_problem(arguments: Mapping[str, Any], input_schema: Any) -> str | None:
    """Why `arguments` do not satisfy the tool's input schema (None when they do)."""
    if schema_problem(input_schema, "inputSchema") is not None:
        return None  # the schema itself is reported by the catalog check
    validator = validator_for(input_schema)(input_schema)
    errors = sorted(validator.iter_errors(dict(arguments)), key=lambda e: list(e.path))
    if not errors:
        return None
    e = errors[0]
    at = "/".join(str(p) for p in e.path) or "(arguments)"
    return f"{at}: {e.message}"


def entry_for(tool: Mapping[str, Any]) -> dict[str, Any]:
    """A fresh sidecar entry: a schema-made sample, disabled when the tool needs review or
    the sample does not satisfy the schema."""
    schema = tool.get("inputSchema")
    arguments = sample_input(schema)
    reasons = review_reasons(
        str(tool.get("name", "")), tool.get("description"), tool.get("annotations")
    )
    problem = arguments_problem(arguments, schema)
    if problem is not None:
        reasons.append(f"sample: the generated arguments do not satisfy the schema ({problem}); "
                       "edit them")
    entry: dict[str, Any] = {"enabled": not reasons, "arguments": arguments}
    if reasons:
        entry["review"] = reasons
    entry["expect"] = {"status": "ok"}
    return entry


def build_sidecar(server: str, tools: Sequence[Mapping[str, Any]],
                  existing: Mapping[str, Any] | None) -> tuple[dict[str, Any], list[str]]:
    """The sidecar document for this catalog. Entries a person already has are kept as they
    are; only tools without an entry get a new one. Returns the document and the added names."""
    kept: dict[str, Any] = dict((existing or {}).get("tools", {}))
    added: list[str] = []
    for tool in sorted(tools, key=lambda t: str(t.get("name", ""))):
        name = str(tool.get("name", ""))
        if name and name not in kept:
            kept[name] = entry_for(tool)
            added.append(name)
    doc: dict[str, Any] = dict(existing or {})
    doc["version"] = 1
    doc["server"] = doc.get("server", server)
    doc["tools"] = dict(sorted(kept.items()))
    return doc, added
