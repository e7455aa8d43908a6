"""One probe run: for each server, connect, list, check, dry-run the sidecar calls (the shell).

The result is the receipt's raw material, plain JSON-ready dicts: per server its steps, catalog
(hash and names), findings and calls with every attempt. Redaction and the verdict happen in
`report`; this module only records what ran and how long it took.
"""

from __future__ import annotations

import hashlib
import json
import shlex
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import anyio
from jsonschema.validators import validator_for

from .catalog import FAIL, WARN, Finding, catalog_sha256, check_lock, check_schemas
from .client import CallResult, Connection, ProbeError, connect, elapsed_ms
from .config import Config, ServerSpec
from .retry import JSONRPC, SHAPE, TOOL_ERROR, UNEXPECTED, AttemptError, should_retry
from .sidecar import Sidecar, ToolCall, arguments_problem, load_sidecar


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def target_of(spec: ServerSpec) -> str:
    """What the receipt names as the server: the command line, or the URL without its query."""
    if spec.transport == "stdio":
        return shlex.join([spec.command, *spec.args])
    parts = urlsplit(spec.url)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


def result_digest(raw: Mapping[str, Any]) -> str:
    text = json.dumps(raw, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def shape_problem(structured: Any, schema: Mapping[str, Any]) -> str | None:
    if structured is None:
        return "the result has no structured content to check against expect.outputSchema"
    errors = list(validator_for(schema)(schema).iter_errors(structured))
    if not errors:
        return None
    e = min(errors, key=lambda err: len(list(err.path)))
    at = "/".join(str(p) for p in e.path) or "(result)"
    return f"structured content does not match expect.outputSchema at {at}: {e.message}"


def judge_result(result: CallResult, call: ToolCall) -> AttemptError | None:
    """None when the answer is what the sidecar expects, else why not."""
    if result.is_error:
        if call.expect_status in ("error", "any"):
            return None
        text = result.error_text.strip() or "no error text"
        return AttemptError(TOOL_ERROR, f"the tool answered with an error: {text[:300]}")
    if call.expect_status == "error":
        return AttemptError(UNEXPECTED, "expected the tool to refuse, it answered normally")
    if call.output_schema is not None:
        problem = shape_problem(result.structured, call.output_schema)
        if problem is not None:
            return AttemptError(SHAPE, problem)
    return None


def result_summary(result: CallResult) -> dict[str, Any]:
    return {
        "isError": result.is_error,
        "contentTypes": list(result.content_types),
        "structuredContent": result.structured is not None,
        "sha256": result_digest(result.raw),
    }


async def run_call(conn: Connection, call: ToolCall, spec: ServerSpec) -> dict[str, Any]:
    timeout_s = (call.timeout_ms or spec.timeout_ms) / 1000.0
    attempts: list[dict[str, Any]] = []
    record: dict[str, Any] = {
        "tool": call.tool,
        "expect": call.expect_status,
        "argumentsSha256": result_digest(dict(call.arguments)),
        "arguments": dict(call.arguments),
        "timeoutMs": int(timeout_s * 1000),
        "retry": {"attempts": call.retry.attempts, "delayMs": call.retry.delay_ms,
                  "retryOn": list(call.retry.retry_on)},
        "attempts": attempts,
    }
    started = time.perf_counter()
    for n in range(1, call.retry.attempts + 1):
        at = now_iso()
        t0 = time.perf_counter()
        error: AttemptError | None
        entry: dict[str, Any] = {"attempt": n, "startedAt": at}
        try:
            result = await conn.call_tool(call.tool, call.arguments, timeout_s)
        except ProbeError as e:
            error = e.error
            if call.expect_status in ("error", "any") and error.kind == JSONRPC:
                error = None  # a JSON-RPC refusal is the refusal the sidecar expects
        else:
            entry["result"] = result_summary(result)
            error = judge_result(result, call)
        entry["durationMs"] = elapsed_ms(t0)
        entry["outcome"] = "ok" if error is None else "error"
        if error is not None:
            entry["error"] = error.as_json()
        attempts.append(entry)
        if error is None:
            record["status"] = "pass"
            break
        if not should_retry(error, n, call.retry):
            record["status"] = "fail"
            record["reason"] = error.message
            break
        if call.retry.delay_ms:
            await anyio.sleep(call.retry.delay_ms / 1000.0)
    record["durationMs"] = elapsed_ms(started)
    return record


def _tool_by_name(tools: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {str(t.get("name")): t for t in tools}


async def probe_server(spec: ServerSpec, sidecar: Sidecar | None) -> dict[str, Any]:
    rec: dict[str, Any] = {
        "name": spec.name,
        "transport": spec.transport,
        "target": target_of(spec),
        "timeoutMs": spec.timeout_ms,
        "startedAt": now_iso(),
        "steps": [],
        "findings": [],
        "calls": [],
    }
    findings: list[Finding] = []
    started = time.perf_counter()
    step_start = started
    step = "initialize"
    try:
        async with connect(spec) as conn:
            rec["steps"].append({"step": "initialize", "ok": True,
                                 "durationMs": elapsed_ms(step_start)})
            rec["server"] = conn.server_info
            rec["protocolVersion"] = conn.protocol_version
            if "tools" not in conn.capabilities:
                findings.append(Finding(WARN, "no-tools-capability",
                                        "the server does not declare the tools capability"))
            step, step_start = "tools/list", time.perf_counter()
            tools = await conn.list_tools()
            rec["steps"].append({"step": "tools/list", "ok": True,
                                 "durationMs": elapsed_ms(step_start)})
            names = [str(t.get("name")) for t in tools]
            digest = catalog_sha256(tools)
            rec["catalog"] = {"sha256": digest, "toolCount": len(tools), "tools": sorted(names)}
            step, step_start = "validate", time.perf_counter()
            findings += check_schemas(tools)
            findings += check_lock(names, spec.expected_tools, spec.allowed_tools, digest,
                                   spec.catalog_sha256)
            rec["steps"].append({"step": "validate", "ok": True,
                                 "durationMs": elapsed_ms(step_start)})
            if spec.probe_tools:
                step, step_start = "tools/call", time.perf_counter()
                findings += await _run_calls(conn, spec, sidecar, tools, rec["calls"])
                rec["steps"].append({"step": "tools/call", "ok": True,
                                     "durationMs": elapsed_ms(step_start)})
    except ProbeError as e:
        rec["steps"].append({"step": e.step if step == "initialize" else step, "ok": False,
                             "durationMs": elapsed_ms(step_start), "error": e.error.as_json()})
        failed = f"{step.replace('/', '-')}-failed"
        code = "unreachable" if e.step in ("start", "connect") else failed
        findings.append(Finding(FAIL, code, f"{e.step}: {e.error.message}"))
    rec["findings"] = [f.as_json() for f in findings]
    rec["durationMs"] = elapsed_ms(started)
    return rec


async def _run_calls(conn: Connection, spec: ServerSpec, sidecar: Sidecar | None,
                     tools: list[dict[str, Any]], out: list[dict[str, Any]]) -> list[Finding]:
    findings: list[Finding] = []
    by_name = _tool_by_name(tools)
    if sidecar is None:
        findings.append(Finding(
            WARN, "sidecar-missing",
            f"no sidecar at {spec.tools_file}: no tool was called (write one with "
            "`mcp-probe init`)"))
        return findings
    for name in sorted(by_name):
        if name not in sidecar.calls:
            findings.append(Finding(
                WARN, "tool-unprobed", f"tool {name!r} has no entry in the sidecar", name))
    for name, call in sorted(sidecar.calls.items()):
        tool = by_name.get(name)
        if tool is None:
            findings.append(Finding(
                WARN, "sidecar-stale", f"the sidecar has an entry for {name!r}, which the "
                "server does not list", name))
            continue
        if not call.enabled:
            why = "; ".join(call.review) or "disabled in the sidecar"
            out.append({"tool": name, "status": "skipped", "reason": f"needs review: {why}"})
            continue
        problem = arguments_problem(call.arguments, tool.get("inputSchema"))
        if problem is not None:
            out.append({"tool": name, "status": "fail", "attempts": [],
                        "reason": f"the sidecar arguments do not satisfy the input schema: "
                                  f"{problem}"})
            continue
        out.append(await run_call(conn, call, spec))
    # A pass after retries is a pass: the attempts are in the receipt, not in the verdict.
    for rec in out:
        if rec["status"] == "fail":
            findings.append(Finding(FAIL, "call-failed", f"{rec['tool']}: {rec['reason']}",
                                    rec["tool"]))
    return findings


def load_sidecars(config: Config) -> dict[str, Sidecar | None]:
    """Every server's sidecar, read before any server starts (a broken one is a ConfigError)."""
    return {spec.name: load_sidecar(spec.tools_file) if spec.tools_file else None
            for spec in config.servers}


async def run_probe(config: Config, sidecars: Mapping[str, Sidecar | None]) -> dict[str, Any]:
    started = time.perf_counter()
    at = now_iso()
    servers = [await probe_server(spec, sidecars.get(spec.name)) for spec in config.servers]
    return {"startedAt": at, "durationMs": elapsed_ms(started), "servers": servers}
