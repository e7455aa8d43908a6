"""Helpers for mcp-probe's end-to-end tests: the CLI in-process, servers on free ports."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from mcp_probe.cli import main

REPO = Path(__file__).resolve().parents[2]
TEST_SERVERS = REPO / "tests" / "support" / "probe_servers.py"
NODE_MODULES = REPO / "tools" / "mcp-servers" / "node_modules" / "@modelcontextprotocol"
EVERYTHING = NODE_MODULES / "server-everything" / "dist" / "index.js"
MEMORY = NODE_MODULES / "server-memory" / "dist" / "index.js"
PY = sys.executable


def require_reference_servers() -> None:
    """The npm reference servers are part of the test set-up (`make test` runs `npm ci`)."""
    if not EVERYTHING.exists() or not MEMORY.exists():
        raise AssertionError(
            "the MCP reference servers are not installed: run "
            "`npm ci --prefix tools/mcp-servers` (make test does)"
        )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for_port(port: int, proc: subprocess.Popen[Any], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the server exited early with {proc.returncode}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return
        time.sleep(0.2)
    raise AssertionError(f"nothing listens on port {port} after {timeout}s")


@contextlib.contextmanager
def server_process(args: list[str], port: int, env: dict[str, str] | None = None,
                   log: Path | None = None) -> Iterator[subprocess.Popen[Any]]:
    """Start a server that listens on `port`; stop it (and only it) afterwards."""
    out = open(log, "w") if log else subprocess.DEVNULL  # noqa: SIM115
    proc = subprocess.Popen(args, env={**os.environ, **(env or {})}, stdout=out,
                            stderr=subprocess.STDOUT)
    try:
        wait_for_port(port, proc)
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
        if log:
            out.close()  # type: ignore[union-attr]


def run_cli(argv: list[str], capsys: Any) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def edit_json(path: Path, change: Callable[[Any], None]) -> None:
    doc = read_json(path)
    change(doc)
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")


def only_enable(sidecar: Path, tools: dict[str, dict[str, Any]]) -> None:
    """Enable exactly these tools (with these extra settings), disable every other entry."""

    def change(doc: Any) -> None:
        for name, entry in doc["tools"].items():
            entry["enabled"] = name in tools
            entry.update(tools.get(name, {}))

    edit_json(sidecar, change)


def calls_by_tool(receipt: Any, server: int = 0) -> dict[str, Any]:
    return {c["tool"]: c for c in receipt["servers"][server]["calls"]}


def finding_codes(receipt: Any, server: int = 0) -> set[tuple[str, str]]:
    return {(f["level"], f["code"]) for f in receipt["servers"][server]["findings"]}
