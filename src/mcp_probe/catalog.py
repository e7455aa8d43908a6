"""The tool catalog: its canonical form and hash, schema checks, and the lock (pure).

Tools come in as plain JSON objects, as the server sent them in `tools/list` (camelCase keys).
The canonical form keeps, per tool, `name`, `title`, `description`, `inputSchema`,
`outputSchema` and `annotations` (absent keys stay absent, `_meta` and `icons` are left out),
sorts the tools by name and serialises with sorted keys, no whitespace and UTF-8 text; the
catalog hash is the sha256 of those bytes. The same catalog always hashes the same, whatever
order the server listed it in; any change to a name, a description, a schema or a hint changes
the hash.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from jsonschema.exceptions import SchemaError
from jsonschema.validators import validator_for

CANONICAL_KEYS = ("name", "title", "description", "inputSchema", "outputSchema", "annotations")
TOOL_NAME_RE = re.compile(r"^[A-Za-z0-9._-]{1,128}$")

FAIL = "fail"
WARN = "warn"


@dataclass(frozen=True, slots=True)
class Finding:
    level: str  # FAIL or WARN
    code: str  # stable, machine-readable: "tool-missing", "schema-invalid", ...
    message: str
    tool: str | None = None

    def as_json(self) -> dict[str, Any]:
        out = {"level": self.level, "code": self.code, "message": self.message}
        if self.tool is not None:
            out["tool"] = self.tool
        return out


def canonical_tool(tool: Mapping[str, Any]) -> dict[str, Any]:
    return {k: tool[k] for k in CANONICAL_KEYS if k in tool and tool[k] is not None}


def canonical_bytes(tools: Sequence[Mapping[str, Any]]) -> bytes:
    body = sorted((canonical_tool(t) for t in tools), key=lambda t: str(t.get("name", "")))
    text = json.dumps({"tools": body}, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8")


def catalog_sha256(tools: Sequence[Mapping[str, Any]]) -> str:
    return hashlib.sha256(canonical_bytes(tools)).hexdigest()


def schema_problem(schema: Any, what: str) -> str | None:
    """Why `schema` is not a usable tool schema (an object schema valid under its dialect)."""
    if not isinstance(schema, dict):
        return f"{what} is not a JSON object"
    if schema.get("type") != "object":
        return f"{what} must have type 'object' (has {schema.get('type')!r})"
    try:
        validator_for(schema).check_schema(schema)
    except SchemaError as e:
        return f"{what} is not a valid JSON Schema: {e.message}"
    return None


def check_schemas(tools: Sequence[Mapping[str, Any]]) -> list[Finding]:
    findings: list[Finding] = []
    seen: set[str] = set()
    for tool in tools:
        name = tool.get("name")
        if not isinstance(name, str) or not name:
            findings.append(Finding(FAIL, "tool-name-missing", "a tool has no name"))
            continue
        if name in seen:
            findings.append(Finding(FAIL, "tool-duplicate", f"tool {name!r} is listed twice", name))
        seen.add(name)
        if not TOOL_NAME_RE.match(name):
            findings.append(Finding(
                WARN, "tool-name-format",
                f"tool name {name!r} is outside the MCP name rule (1-128 of A-Z a-z 0-9 _ - .)",
                name))
        if (problem := schema_problem(tool.get("inputSchema"), "inputSchema")) is not None:
            findings.append(Finding(FAIL, "schema-invalid", f"{name}: {problem}", name))
        if "outputSchema" in tool and tool["outputSchema"] is not None and (
            problem := schema_problem(tool["outputSchema"], "outputSchema")
        ) is not None:
            findings.append(Finding(FAIL, "schema-invalid", f"{name}: {problem}", name))
        if not (isinstance(tool.get("description"), str) and tool["description"].strip()):
            findings.append(Finding(WARN, "tool-undescribed", f"{name}: no description", name))
    return findings


def check_lock(
    names: Sequence[str],
    expected: Sequence[str] | None,
    allowed: Sequence[str] | None,
    digest: str,
    locked_digest: str | None,
) -> list[Finding]:
    """The live catalog against the lock: a missing expected tool or a tool outside the allowed
    list fails; a new tool with no allowed list, or a changed hash with the same names, warns."""
    findings: list[Finding] = []
    live = set(names)
    for name in expected or ():
        if name not in live:
            findings.append(Finding(
                FAIL, "tool-missing", f"expected tool {name!r} is not in the catalog", name))
    if allowed is not None:
        permitted = set(allowed)
        for name in sorted(live - permitted):
            findings.append(Finding(
                FAIL, "tool-unexpected",
                f"tool {name!r} is not in allowedTools (the catalog is locked); review it and "
                "add it to allowedTools and expectedTools if it belongs", name))
    elif expected is not None:
        for name in sorted(live - set(expected)):
            findings.append(Finding(
                WARN, "tool-new", f"tool {name!r} is new (not in expectedTools)", name))
    if locked_digest is not None and locked_digest != digest and not findings:
        findings.append(Finding(
            WARN, "catalog-changed",
            f"the catalog hash changed ({locked_digest[:12]} -> {digest[:12]}): a description, "
            "schema or hint differs from the locked catalog"))
    return findings
