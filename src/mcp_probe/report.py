"""The verdict, the receipt, the GitHub step summary and the console lines (pure).

Exit codes: 0 pass (warnings allowed), 1 warnings with `--fail-on-warn`, 2 failures (a check
failed, a call failed, a server could not be reached or timed out), 3 the configuration or the
sidecar cannot be used (nothing ran). Everything leaving this module went through the redactor.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from . import __version__
from .redact import Redactor

EXIT_PASS = 0
EXIT_WARN = 1
EXIT_FAIL = 2
EXIT_CONFIG = 3

RECEIPT_VERSION = 1


def server_result(server: Mapping[str, Any]) -> str:
    levels = {f["level"] for f in server.get("findings", [])}
    if "fail" in levels or any(c.get("status") == "fail" for c in server.get("calls", [])):
        return "fail"
    return "warn" if "warn" in levels else "pass"


def overall_result(servers: Sequence[Mapping[str, Any]]) -> str:
    results = {server_result(s) for s in servers}
    return "fail" if "fail" in results else "warn" if "warn" in results else "pass"


def exit_code(result: str, fail_on_warn: bool) -> int:
    if result == "fail":
        return EXIT_FAIL
    if result == "warn" and fail_on_warn:
        return EXIT_WARN
    return EXIT_PASS


def build_receipt(run: Mapping[str, Any], *, config_path: str, config_bytes: bytes,
                  fail_on_warn: bool, redactor: Redactor) -> dict[str, Any]:
    """The receipt: which servers, which catalogs, which calls, how long; redacted throughout."""
    servers = []
    for server in run["servers"]:
        s = dict(server)
        s["result"] = server_result(server)
        servers.append(s)
    result = overall_result(servers)
    receipt = {
        "receiptVersion": RECEIPT_VERSION,
        "tool": {"name": "mcp-probe", "version": __version__},
        "config": {"path": config_path, "sha256": hashlib.sha256(config_bytes).hexdigest()},
        "startedAt": run["startedAt"],
        "durationMs": run["durationMs"],
        "result": result,
        "failOnWarn": fail_on_warn,
        "exitCode": exit_code(result, fail_on_warn),
        "servers": servers,
    }
    return redactor.data(receipt)


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ").strip()


_MARK = {"pass": "✅ pass", "warn": "⚠️ warn", "fail": "❌ fail", "skipped": "⏭️ skipped"}


def summary_markdown(receipt: Mapping[str, Any]) -> str:
    """A Markdown section for `$GITHUB_STEP_SUMMARY` (already redacted input)."""
    lines = [
        f"## mcp-probe: {_MARK.get(receipt['result'], receipt['result'])}",
        "",
        "| server | transport | result | tools | catalog sha256 | calls pass / fail / skipped "
        "| duration |",
        "|---|---|---|---|---|---|---|",
    ]
    for s in receipt["servers"]:
        calls = s.get("calls", [])
        counts = [sum(1 for c in calls if c.get("status") == k) for k in ("pass", "fail",
                                                                           "skipped")]
        cat = s.get("catalog") or {}
        digest = f"`{cat['sha256'][:16]}`" if cat.get("sha256") else "—"
        lines.append(
            f"| {_cell(s['name'])} | {s['transport']} | {_MARK.get(s['result'], s['result'])} "
            f"| {cat.get('toolCount', '—')} | {digest} | {counts[0]} / {counts[1]} / {counts[2]} "
            f"| {s.get('durationMs', 0)} ms |"
        )
    findings = [(s["name"], f) for s in receipt["servers"] for f in s.get("findings", [])]
    if findings:
        lines += ["", "| server | level | check | detail |", "|---|---|---|---|"]
        for name, f in findings:
            lines.append(f"| {_cell(name)} | {f['level']} | {_cell(f['code'])} "
                         f"| {_cell(f['message'])} |")
    calls = [(s["name"], c) for s in receipt["servers"] for c in s.get("calls", [])]
    if calls:
        lines += ["", "| server | tool | result | attempts | duration | note |",
                  "|---|---|---|---|---|---|"]
        for name, c in calls:
            attempts = c.get("attempts", [])
            errors = [a["error"]["message"] for a in attempts if a.get("error")]
            note = c.get("reason") or ("; ".join(errors) if errors else "")
            lines.append(
                f"| {_cell(name)} | `{_cell(c['tool'])}` | {_MARK.get(c['status'], c['status'])} "
                f"| {len(attempts)} | {c.get('durationMs', 0)} ms | {_cell(note)[:200]} |"
            )
    lines.append("")
    return "\n".join(lines) + "\n"


def console_lines(receipt: Mapping[str, Any]) -> list[str]:
    """A short human report for the terminal (already redacted input)."""
    out: list[str] = []
    for s in receipt["servers"]:
        cat = s.get("catalog") or {}
        head = f"{s['result'].upper():5} {s['name']} ({s['transport']})"
        if cat:
            head += f": {cat['toolCount']} tools, catalog {cat['sha256'][:16]}"
        out.append(head + f", {s.get('durationMs', 0)} ms")
        for f in s.get("findings", []):
            out.append(f"  {f['level']:4} {f['code']}: {f['message']}")
        for c in s.get("calls", []):
            n = len(c.get("attempts", []))
            extra = f" ({n} attempts)" if n > 1 else ""
            reason = f": {c['reason']}" if c.get("reason") and c["status"] != "pass" else ""
            out.append(f"  call {c['status']:7} {c['tool']}{extra}{reason}")
    out.append(f"mcp-probe: {receipt['result']} (exit {receipt['exitCode']})")
    return out
