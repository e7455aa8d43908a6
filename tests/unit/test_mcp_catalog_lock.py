"""The CI lock (.ci/mcp-probe.config.json) is mailmoat's MCP catalog as the server builds it:
the same tool names in expectedTools and allowedTools, and the same catalog hash mcp-probe
computes from `tools/list`. A tool added, removed or reworded without re-locking fails here
before the gate (tools/mcp-gate.sh) does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

import anyio

from mailmoat.mcp.gateway import Gateway
from mailmoat.mcp.server import TOOL_NAMES, build_server
from mcp_probe.catalog import catalog_sha256

LOCK = Path(__file__).resolve().parents[2] / ".ci" / "mcp-probe.config.json"
SIDECAR = LOCK.parent / "mcp-probe.tools.json"


def _catalog() -> list[dict[str, Any]]:
    # Building the server only wires the tools; no call reaches the gateway here.
    server = build_server(cast(Gateway, object()), lambda ctx: None)  # type: ignore[arg-type,return-value]
    tools = anyio.run(server.list_tools)
    return [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools]


def test_the_lock_is_the_servers_catalog() -> None:
    lock = json.loads(LOCK.read_text())
    tools = _catalog()
    names = sorted(t["name"] for t in tools)
    assert names == sorted(TOOL_NAMES)
    assert sorted(lock["expectedTools"]) == names
    assert sorted(lock["allowedTools"]) == names
    assert lock["catalogSha256"] == catalog_sha256(tools), (
        "the MCP catalog changed: re-lock it (see tools/mcp-gate.sh)")


def test_every_tool_has_a_sidecar_entry_and_only_reads_are_called() -> None:
    sidecar = json.loads(SIDECAR.read_text())["tools"]
    assert sorted(sidecar) == sorted(TOOL_NAMES)
    for name, entry in sidecar.items():
        assert entry["enabled"] is not name.startswith("propose_"), name
