"""mcp-probe end to end on servers no one here wrote: the MCP reference servers from the npm
registry (`@modelcontextprotocol/server-everything` over stdio and streamable HTTP,
`@modelcontextprotocol/server-memory` over stdio), driven by the real `mcp` SDK client."""

from __future__ import annotations

import yaml

from tests.support.probe_support import (
    EVERYTHING,
    MEMORY,
    calls_by_tool,
    edit_json,
    finding_codes,
    free_port,
    read_json,
    require_reference_servers,
    run_cli,
    server_process,
)

READ_TOOLS = {"echo", "get-annotated-message", "get-resource-links", "get-resource-reference",
              "get-structured-content", "get-sum", "get-tiny-image",
              "trigger-long-running-operation"}
REVIEW_TOOLS = {"get-env", "gzip-file-as-resource", "simulate-research-query",
                "toggle-simulated-logging", "toggle-subscriber-updates"}


def _shorten_long_operation(sidecar):
    # A person trims the 10-second demo operation; everything else is as init wrote it.
    edit_json(sidecar, lambda d: d["tools"]["trigger-long-running-operation"].update(
        arguments={"duration": 1, "steps": 1}))


def test_everything_over_stdio_init_lock_and_probe(tmp_path, monkeypatch, capsys):
    require_reference_servers()
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(["init", "--target", f"node {EVERYTHING} stdio", "--lock-tools",
                              "--github-actions"], capsys)
    assert code == 0, err
    config = read_json(tmp_path / "mcp-probe.config.json")
    sidecar_path = tmp_path / ".mcp-probe.json"
    sidecar = read_json(sidecar_path)
    tools = set(config["expectedTools"])
    assert tools >= READ_TOOLS | REVIEW_TOOLS
    assert config["allowedTools"] == config["expectedTools"]
    assert config["servers"][0]["command"] == "node"
    assert config["toolsFile"] == ".mcp-probe.json" and config["timeoutMs"] == 15000
    # Review marks: environment inspection, export / open world and toggles stay disabled.
    for name in REVIEW_TOOLS:
        assert sidecar["tools"][name]["enabled"] is False, name
        assert sidecar["tools"][name]["review"], name
    env_reasons = sidecar["tools"]["get-env"]["review"]
    assert any(r.startswith("environment-inspection") for r in env_reasons)
    for name in READ_TOOLS:
        assert sidecar["tools"][name]["enabled"] is True, name
    # Samples from the schemas: the required enum and numbers, never zero or empty.
    assert sidecar["tools"]["get-structured-content"]["arguments"] == {"location": "New York"}
    assert sidecar["tools"]["get-sum"]["arguments"]["a"] != 0
    assert sidecar["tools"]["echo"]["arguments"]["message"]
    workflow = yaml.safe_load((tmp_path / ".github/workflows/mcp-probe.yml").read_text())
    assert any(s.get("uses", "").startswith("actions/setup-node")
               for s in workflow["jobs"]["mcp-probe"]["steps"])
    assert "get-env" in out  # init names the tools a person must review

    _shorten_long_operation(sidecar_path)
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    receipt_path = tmp_path / "artifacts" / "receipt.json"
    code, out, err = run_cli(["--config", "mcp-probe.config.json", "--github-summary",
                              "--fail-on-warn", "--receipt-file", str(receipt_path)], capsys)
    assert code == 0, out + err
    receipt = read_json(receipt_path)
    server = receipt["servers"][0]
    assert receipt["result"] == "pass" and receipt["exitCode"] == 0
    assert server["server"]["name"] == "mcp-servers/everything"
    assert server["catalog"]["sha256"] == config["catalogSha256"]
    assert [s["step"] for s in server["steps"]] == ["initialize", "tools/list", "validate",
                                                    "tools/call"]
    calls = calls_by_tool(receipt)
    for name in READ_TOOLS:
        assert calls[name]["status"] == "pass", calls[name]
        assert len(calls[name]["attempts"]) == 1
        assert calls[name]["attempts"][0]["durationMs"] >= 0
    for name in REVIEW_TOOLS:
        assert calls[name]["status"] == "skipped" and "attempts" not in calls[name]
    assert calls["get-structured-content"]["attempts"][0]["result"]["structuredContent"] is True
    text = summary.read_text()
    assert "| server | transport | result |" in text
    assert f"| mcp-servers-everything | stdio | ✅ pass | {len(tools)} |" in text
    assert "`get-env` | ⏭️ skipped" in text

    # The result shape is checked against an output schema in the sidecar: a wrong one fails.
    edit_json(sidecar_path, lambda d: d["tools"]["get-structured-content"].update(expect={
        "status": "ok", "outputSchema": {"type": "object", "required": ["pressure"]}}))
    code, out, _ = run_cli(["--config", "mcp-probe.config.json", "--receipt-file",
                            str(receipt_path)], capsys)
    assert code == 2
    failed = calls_by_tool(read_json(receipt_path))["get-structured-content"]
    assert failed["status"] == "fail" and "pressure" in failed["reason"]
    assert failed["attempts"][0]["error"]["kind"] == "shape"
    assert len(failed["attempts"]) == 1  # a wrong shape is the tool's answer, never retried


def test_everything_over_streamable_http(tmp_path, monkeypatch, capsys):
    require_reference_servers()
    monkeypatch.chdir(tmp_path)
    port = free_port()
    with server_process(["node", str(EVERYTHING), "streamableHttp"], port,
                        env={"PORT": str(port)}):
        url = f"http://127.0.0.1:{port}/mcp"
        code, _, err = run_cli(["init", "--target", url, "--lock-tools"], capsys)
        assert code == 0, err
        config = read_json(tmp_path / "mcp-probe.config.json")
        assert config["servers"][0]["url"] == url
        _shorten_long_operation(tmp_path / ".mcp-probe.json")
        code, out, err = run_cli(["--config", "mcp-probe.config.json", "--receipt-file",
                                  "r.json"], capsys)
    assert code == 0, out + err
    receipt = read_json(tmp_path / "r.json")
    server = receipt["servers"][0]
    assert server["transport"] == "http" and server["target"] == url
    assert server["catalog"]["sha256"] == config["catalogSha256"]
    calls = calls_by_tool(receipt)
    assert {n for n, c in calls.items() if c["status"] == "pass"} == READ_TOOLS
    assert {n for n, c in calls.items() if c["status"] == "skipped"} == REVIEW_TOOLS


def test_memory_server_mutating_tools_wait_for_a_person(tmp_path, monkeypatch, capsys):
    require_reference_servers()
    monkeypatch.chdir(tmp_path)
    memory_file = tmp_path / "memory.jsonl"
    code, out, err = run_cli(["init", "--target", f"node {MEMORY}", "--env",
                              f"MEMORY_FILE_PATH={memory_file}", "--lock-tools"], capsys)
    assert code == 0, err
    sidecar_path = tmp_path / ".mcp-probe.json"
    sidecar = read_json(sidecar_path)
    mutating = {"create_entities", "create_relations", "add_observations", "delete_entities",
                "delete_observations", "delete_relations"}
    assert {n for n, e in sidecar["tools"].items() if not e["enabled"]} == mutating
    # Nested samples: arrays of objects with their required fields.
    entities = sidecar["tools"]["create_entities"]["arguments"]["entities"]
    assert len(entities) == 1 and set(entities[0]) == {"name", "entityType", "observations"}

    code, out, err = run_cli(["--config", "mcp-probe.config.json", "--receipt-file", "r.json"],
                             capsys)
    assert code == 0, out + err
    calls = calls_by_tool(read_json(tmp_path / "r.json"))
    assert {n for n, c in calls.items() if c["status"] == "pass"} == {
        "open_nodes", "read_graph", "search_nodes"}
    assert not memory_file.exists()  # nothing that writes was called

    # A person enables create_entities: now it runs, and the memory file has the probe entity.
    edit_json(sidecar_path, lambda d: d["tools"]["create_entities"].update(enabled=True))
    code, out, err = run_cli(["--config", "mcp-probe.config.json", "--receipt-file", "r.json"],
                             capsys)
    assert code == 0, out + err
    assert calls_by_tool(read_json(tmp_path / "r.json"))["create_entities"]["status"] == "pass"
    assert '"name":"probe"' in memory_file.read_text().replace(" ", "")
    # The env value (the memory file's path) never appears in the receipt.
    assert str(memory_file) not in (tmp_path / "r.json").read_text()


def test_a_locked_reference_catalog_fails_on_a_tool_outside_the_lock(tmp_path, monkeypatch,
                                                                     capsys):
    require_reference_servers()
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(["init", "--target", f"node {MEMORY}", "--env",
                            f"MEMORY_FILE_PATH={tmp_path / 'm.jsonl'}", "--lock-tools"], capsys)
    assert code == 0, err
    config_path = tmp_path / "mcp-probe.config.json"
    locked = read_json(config_path)
    # As if the server had grown read_graph since the lock was written: it is not allowed.
    edit_json(config_path, lambda d: (d["allowedTools"].remove("read_graph"),
                                      d["expectedTools"].remove("read_graph")))
    code, out, _ = run_cli(["--config", str(config_path), "--receipt-file", "r.json"], capsys)
    receipt = read_json(tmp_path / "r.json")
    assert code == 2 and receipt["result"] == "fail"
    assert ("fail", "tool-unexpected") in finding_codes(receipt)
    assert "read_graph" in out
    # A tool the lock expects but the server does not list fails too.
    edit_json(config_path, lambda d: (d.update(allowedTools=locked["allowedTools"]),
                                      d["expectedTools"].extend(["read_graph", "gone_tool"])))
    code, out, _ = run_cli(["--config", str(config_path), "--receipt-file", "r.json"], capsys)
    receipt = read_json(tmp_path / "r.json")
    assert code == 2 and ("fail", "tool-missing") in finding_codes(receipt)
    assert "gone_tool" in out
    # The receipt's catalog hash is the one the lock recorded: the server did not change.
    assert receipt["servers"][0]["catalog"]["sha256"] == locked["catalogSha256"]


def test_init_with_several_targets_writes_one_lock_and_sidecar_per_server(tmp_path, monkeypatch,
                                                                         capsys):
    require_reference_servers()
    monkeypatch.chdir(tmp_path)
    memory = f"node {MEMORY}"
    code, out, err = run_cli(["init", "--target", memory, "--target", memory, "--env",
                              f"MEMORY_FILE_PATH={tmp_path / 'm.jsonl'}", "--discover"], capsys)
    assert code == 0, err
    config = read_json(tmp_path / "mcp-probe.config.json")
    first, second = config["servers"]
    assert (first["name"], second["name"]) == ("memory-server", "memory-server-2")
    assert "expectedTools" not in config and "allowedTools" not in first  # --discover only
    assert first["expectedTools"] == second["expectedTools"] and "read_graph" in first[
        "expectedTools"]
    assert first["toolsFile"] == ".mcp-probe.memory-server.json"
    assert read_json(tmp_path / second["toolsFile"])["server"] == "memory-server-2"
    edit_json(tmp_path / "mcp-probe.config.json",
              lambda d: d["servers"][1].update(timeoutMs=5000, probeTools=False))
    code, out, err = run_cli(["--config", "mcp-probe.config.json", "--receipt-file", "r.json"],
                             capsys)
    assert code == 0, out + err
    receipt = read_json(tmp_path / "r.json")
    assert [s["name"] for s in receipt["servers"]] == ["memory-server", "memory-server-2"]
    assert [s["timeoutMs"] for s in receipt["servers"]] == [15000, 5000]
    assert len(receipt["servers"][0]["calls"]) == 9
    assert receipt["servers"][1]["calls"] == []  # probeTools false: catalog checks only
    assert receipt["servers"][0]["catalog"]["sha256"] == receipt["servers"][1]["catalog"][
        "sha256"]
