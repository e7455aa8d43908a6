"""mcp-probe against small servers made to misbehave (tests/probe_servers.py, the `mcp` SDK's
server side): a flaky one (503 twice), a 401 one, one that grows a tool, one that hangs, and
processes that are no MCP server at all. Plus config errors, secrets and the exit codes."""

from __future__ import annotations

import http.server
import json
import os
import socket
import subprocess
import threading
import time

from tests.support.probe_support import (
    PY,
    REPO,
    TEST_SERVERS,
    calls_by_tool,
    edit_json,
    finding_codes,
    free_port,
    only_enable,
    read_json,
    run_cli,
    server_process,
)

RETRY_503 = {"attempts": 3, "delayMs": 50, "retryOn": [503]}


def _http_server(port, log, *extra):
    return server_process([PY, str(TEST_SERVERS), "http", "--port", str(port), *extra], port,
                          env={"PROBE_HTTP_LOG": str(log)})


def _http_log(log):
    return [json.loads(line) for line in log.read_text().splitlines()]


def test_a_flaky_server_passes_with_a_three_attempt_receipt(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    port, log = free_port(), tmp_path / "http.log"
    with _http_server(port, log, "--flaky", "3"):
        code, _, err = run_cli(["init", "--target", f"http://127.0.0.1:{port}/mcp",
                                "--lock-tools"], capsys)
        assert code == 0, err
        sidecar = tmp_path / ".mcp-probe.json"
        # Without a retry block a call runs once: the first 503 fails it.
        only_enable(sidecar, {"lookup": {}})
        code, out, _ = run_cli(["--config", "mcp-probe.config.json", "--receipt-file", "r.json"],
                               capsys)
        assert code == 2
        once = calls_by_tool(read_json(tmp_path / "r.json"))["lookup"]
        assert once["status"] == "fail" and len(once["attempts"]) == 1
        assert once["attempts"][0]["error"]["httpStatus"] == 503
        # Opt in: three attempts on 503. Two more 503s, then the answer.
        only_enable(sidecar, {"lookup": {"retry": RETRY_503}})
        code, out, err = run_cli(["--config", "mcp-probe.config.json", "--receipt-file",
                                  "r.json", "--fail-on-warn"], capsys)
    assert code == 0, out + err  # a pass after retries is a pass, even with --fail-on-warn
    call = calls_by_tool(read_json(tmp_path / "r.json"))["lookup"]
    assert call["status"] == "pass"
    attempts = call["attempts"]
    assert [a["attempt"] for a in attempts] == [1, 2, 3]
    assert [a["outcome"] for a in attempts] == ["error", "error", "ok"]
    assert [a.get("error", {}).get("httpStatus") for a in attempts] == [503, 503, None]
    assert all(a["error"]["message"] == "HTTP 503 Service Unavailable" for a in attempts[:2])
    assert "(3 attempts)" in out
    # The server saw exactly four calls: one for the first run, three for the second.
    calls = [e["status"] for e in _http_log(log) if e["method"] == "tools/call"]
    assert calls == [503, 503, 503, 200]


def test_a_401_is_a_hard_fail_never_retried_and_the_token_never_shows(tmp_path, monkeypatch,
                                                                      capsys):
    monkeypatch.chdir(tmp_path)
    port, log = free_port(), tmp_path / "http.log"
    token = "tok-" + os.urandom(8).hex()
    monkeypatch.setenv("PROBE_TEST_TOKEN", token)
    with _http_server(port, log, "--token", token, "--deny-calls"):
        code, _, err = run_cli(["init", "--target", f"http://127.0.0.1:{port}/mcp", "--header",
                                "Authorization: Bearer ${PROBE_TEST_TOKEN}", "--lock-tools"],
                               capsys)
        assert code == 0, err
        config_text = (tmp_path / "mcp-probe.config.json").read_text()
        assert token not in config_text and "${PROBE_TEST_TOKEN}" in config_text
        # Even a retry block that lists every other failure does not retry a 401.
        only_enable(tmp_path / ".mcp-probe.json", {"lookup": {"retry": {
            "attempts": 5, "retryOn": [503, -32603, "timeout", "unauthorized", "error"]}}})
        code, out, err = run_cli(["--config", "mcp-probe.config.json", "--receipt-file",
                                  "r.json"], capsys)
        assert code == 2
        call = calls_by_tool(read_json(tmp_path / "r.json"))["lookup"]
        assert call["status"] == "fail" and len(call["attempts"]) == 1
        assert call["attempts"][0]["error"]["httpStatus"] == 401
        assert [e["status"] for e in _http_log(log) if e["method"] == "tools/call"] == [401]
        # A wrong token: the handshake itself is refused, a clear failure.
        monkeypatch.setenv("PROBE_TEST_TOKEN", "wrong-" + token)
        code, out2, err2 = run_cli(["--config", "mcp-probe.config.json", "--receipt-file",
                                    "r2.json"], capsys)
    assert code == 2
    receipt2 = read_json(tmp_path / "r2.json")
    assert ("fail", "initialize-failed") in finding_codes(receipt2)
    assert "HTTP 401" in out2
    for text in (out, err, out2, err2, (tmp_path / "r.json").read_text(),
                 (tmp_path / "r2.json").read_text()):
        assert token not in text


def test_a_server_that_grows_a_tool_fails_the_lock(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    grow = tmp_path / "grow"
    # A Python server's start counts toward initialize: generous on a busy machine.
    code, _, err = run_cli(["init", "--timeout-ms", "60000", "--target",
                            f"{PY} {TEST_SERVERS} stdio", "--env",
                            f"PROBE_GROW_FILE={grow}", "--lock-tools"], capsys)
    assert code == 0, err
    config = tmp_path / "mcp-probe.config.json"
    code, out, _ = run_cli(["--config", str(config)], capsys)
    assert code == 0, out
    # The same names with a changed catalog hash (as when a description changes): a warning.
    locked = read_json(config)["catalogSha256"]
    edit_json(config, lambda d: d.update(catalogSha256="0" * 64))
    code, out, _ = run_cli(["--config", str(config), "--fail-on-warn"], capsys)
    assert code == 1 and "catalog-changed" in out
    edit_json(config, lambda d: d.update(catalogSha256=locked))
    grow.touch()  # the server now lists export_everything
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    code, out, _ = run_cli(["--config", str(config), "--receipt-file", "r.json",
                            "--github-summary"], capsys)
    assert code == 2
    receipt = read_json(tmp_path / "r.json")
    unexpected = [f for f in receipt["servers"][0]["findings"] if f["code"] == "tool-unexpected"]
    assert [f["tool"] for f in unexpected] == ["export_everything"]
    assert "export_everything" in summary.read_text() and "tool-unexpected" in summary.read_text()
    # Only discovered (no allowedTools): a new tool warns; --fail-on-warn makes that exit 1.
    edit_json(config, lambda d: (d.pop("allowedTools"), d.pop("catalogSha256")))
    code, _, _ = run_cli(["--config", str(config)], capsys)
    assert code == 0
    code, out, _ = run_cli(["--config", str(config), "--fail-on-warn"], capsys)
    assert code == 1 and "tool-new" in out


def test_a_hanging_server_times_out_per_server_beside_a_healthy_one(tmp_path, monkeypatch,
                                                                    capsys):
    monkeypatch.chdir(tmp_path)
    sleeper = ["-c", "import time; time.sleep(120)"]
    (tmp_path / "healthy.json").write_text(json.dumps({"version": 1, "tools": {
        "lookup": {"arguments": {"query": "abc", "limit": 2}}}}))
    (tmp_path / "hang.json").write_text(json.dumps({"version": 1, "tools": {
        "lookup": {"arguments": {"query": "abc", "limit": 2}, "timeoutMs": 1500,
                   "retry": {"attempts": 2, "retryOn": ["timeout"]}}}}))
    config = {"version": 1, "servers": [
        {"name": "healthy", "command": PY, "args": [str(TEST_SERVERS), "stdio"],
         "toolsFile": "healthy.json"},
        {"name": "hangs-in-call", "command": PY, "args": [str(TEST_SERVERS), "hang"],
         "toolsFile": "hang.json"},
        {"name": "never-answers", "command": PY, "args": sleeper, "timeoutMs": 1000},
    ], "timeoutMs": 30000}
    (tmp_path / "c.json").write_text(json.dumps(config))
    started = time.monotonic()
    code, out, _ = run_cli(["--config", "c.json", "--receipt-file", "r.json"], capsys)
    took = time.monotonic() - started
    assert code == 2
    receipt = read_json(tmp_path / "r.json")
    healthy, _, never = receipt["servers"]
    # Healthy: its call passed; the two tools its sidecar leaves out only warn.
    assert healthy["result"] == "warn"
    assert finding_codes(receipt, 0) == {("warn", "tool-unprobed")}
    assert calls_by_tool(receipt, 0)["lookup"]["status"] == "pass"
    call = calls_by_tool(receipt, 1)["lookup"]
    assert call["status"] == "fail" and len(call["attempts"]) == 2  # retried on timeout
    assert all(a["error"]["kind"] == "timeout" for a in call["attempts"])
    assert all(a["durationMs"] >= 1400 for a in call["attempts"])
    assert never["result"] == "fail"
    assert never["steps"][-1]["error"]["kind"] == "timeout"
    assert "no answer within 1s" in never["findings"][0]["message"]
    assert took < 90  # the 120 s sleeper was given up after its own 1 s timeout
    assert "never-answers" in out


class _HtmlPage(http.server.BaseHTTPRequestHandler):
    def _page(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        self.wfile.write(b"<html>a web page</html>")

    do_GET = do_POST = do_DELETE = _page

    def log_message(self, *args) -> None:
        pass


def test_no_mcp_server_unreachable_url_and_missing_command_are_clear_failures(
        tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    silent = socket.socket()  # accepts connections (the kernel's backlog), never answers
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    web = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _HtmlPage)
    threading.Thread(target=web.serve_forever, daemon=True).start()
    config = {"servers": [
        {"name": "not-mcp", "command": PY, "args": ["-c", "print('hello, I am a web server')"]},
        {"name": "nobody-home", "url": f"http://127.0.0.1:{free_port()}/mcp"},
        {"name": "missing", "command": "no-such-mcp-server-command"},
        {"name": "silent", "url": f"http://127.0.0.1:{silent.getsockname()[1]}/mcp",
         "timeoutMs": 1500},
        {"name": "web-page", "url": f"http://127.0.0.1:{web.server_address[1]}/mcp"},
    ], "timeoutMs": 5000}
    (tmp_path / "c.json").write_text(json.dumps(config))
    try:
        code, _, _ = run_cli(["--config", "c.json", "--receipt-file", "r.json"], capsys)
    finally:
        silent.close()
        web.shutdown()
        web.server_close()
    assert code == 2
    receipt = read_json(tmp_path / "r.json")
    messages = [s["findings"][0]["message"] for s in receipt["servers"]]
    assert "not an MCP server" in messages[0] and "hello, I am a web server" in messages[0]
    assert "cannot reach http://127.0.0.1:" in messages[1]
    assert "command not found" in messages[2]
    assert "no answer within 1.5s" in messages[3]
    assert "text/html" in messages[4] and "is this an MCP server?" in messages[4]
    assert all(s["result"] == "fail" for s in receipt["servers"])
    assert [s["findings"][0]["code"] for s in receipt["servers"]] == [
        "initialize-failed", "unreachable", "unreachable", "initialize-failed",
        "initialize-failed"]


def test_secrets_in_env_values_and_stderr_never_reach_the_receipt(tmp_path, monkeypatch,
                                                                  capsys):
    monkeypatch.chdir(tmp_path)
    secret = "sk-" + os.urandom(10).hex()
    monkeypatch.setenv("PROBE_API_TOKEN", secret)
    config = {"servers": [{"name": "crashes", "command": PY,
                           "args": [str(TEST_SERVERS), "crash"],
                           "env": {"API_TOKEN": "${PROBE_API_TOKEN}"}}]}
    (tmp_path / "c.json").write_text(json.dumps(config))
    summary = tmp_path / "s.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    code, out, err = run_cli(["--config", "c.json", "--receipt-file", "r.json",
                              "--github-summary"], capsys)
    assert code == 2
    receipt_text = (tmp_path / "r.json").read_text()
    message = read_json(tmp_path / "r.json")["servers"][0]["findings"][0]["message"]
    assert "login refused ([redacted])" in message  # the stderr tail, scrubbed
    for text in (out, err, receipt_text, summary.read_text()):
        assert secret not in text


def test_bad_config_exits_3_with_a_clear_error_and_an_error_receipt(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"servers": [\n  {"name": "x", "command": "y"},\n]}')
    code, _, err = run_cli(["--config", str(bad), "--receipt-file",
                              str(tmp_path / "r.json")], capsys)
    assert code == 3
    assert "not valid JSON (line 3" in err
    assert read_json(tmp_path / "r.json")["result"] == "error"
    code, _, err = run_cli(["--config", str(tmp_path / "missing.json")], capsys)
    assert code == 3 and "no such file" in err and "mcp-probe init" in err
    # A broken sidecar is a config error too: nothing starts.
    (tmp_path / "c.json").write_text(json.dumps({"servers": [{"name": "x", "command": "y"}]}))
    (tmp_path / ".mcp-probe.json").write_text(json.dumps({"tools": {"t": {"retry": 3}}}))
    code, _, err = run_cli(["--config", str(tmp_path / "c.json")], capsys)
    assert code == 3 and "tools.t.retry: must be an object" in err


def test_init_keeps_secrets_and_existing_files_out_of_harms_way(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(["init", "--target", "http://127.0.0.1:9/mcp", "--header",
                            "Authorization: Bearer abc123def"], capsys)
    assert code == 3 and "${" in err and "abc123def" not in err
    assert not (tmp_path / "mcp-probe.config.json").exists()
    (tmp_path / "mcp-probe.config.json").write_text("{}")
    code, _, err = run_cli(["init", "--target", f"{PY} {TEST_SERVERS} stdio"], capsys)
    assert code == 3 and "--force" in err
    assert (tmp_path / "mcp-probe.config.json").read_text() == "{}"
    code, _, err = run_cli(["init", "--force", "--target", "http://127.0.0.1:9/mcp"], capsys)
    assert code == 2 and "cannot reach" in err  # unreachable: nothing was written
    assert (tmp_path / "mcp-probe.config.json").read_text() == "{}"


def test_the_console_command_runs_as_a_process(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    done = subprocess.run([PY, "-m", "mcp_probe", "--config", str(tmp_path / "none.json")],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 3 and "no such file" in done.stderr
    done = subprocess.run([PY, "-m", "mcp_probe", "--bogus"], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.returncode == 3  # usage errors share no code with a failed probe


def test_init_into_a_new_folder_and_probe_from_anywhere(tmp_path, monkeypatch, capsys):
    # The command line is relative to where init ran; the config lives in a folder that does
    # not exist yet, and the probe later runs from elsewhere (as in .ci/mcp-probe.config.json).
    (tmp_path / "srv").mkdir()
    (tmp_path / "srv" / "server.py").write_text(TEST_SERVERS.read_text())
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(["init", "--timeout-ms", "60000", "--config", "ci/gate/probe.json",
                              "--target",
                              f"'{PY}' srv/server.py stdio", "--lock-tools"], capsys)
    assert code == 0, err
    config = read_json(tmp_path / "ci/gate/probe.json")
    assert config["servers"][0]["cwd"] == "../.."
    assert config["servers"][0]["args"] == ["srv/server.py", "stdio"]
    assert (tmp_path / "ci/gate/.mcp-probe.json").exists()
    monkeypatch.chdir(tmp_path / "srv")
    code, out, _ = run_cli(["--config", str(tmp_path / "ci/gate/probe.json")], capsys)
    assert code == 0, out


def test_the_modern_protocol_is_probed_when_asked(tmp_path, monkeypatch, capsys):
    # "protocol": "modern" uses server/discover (2026-07-28) instead of the initialize
    # handshake: the SDK's own server speaks it; the npm memory server does not, a failure.
    from tests.support.probe_support import MEMORY, require_reference_servers

    require_reference_servers()
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".mcp-probe.json").write_text(json.dumps({"version": 1, "tools": {
        "lookup": {"arguments": {"query": "abc", "limit": 2}},
        "describe_item": {"arguments": {"item": {"id": "ab", "tags": ["x"]}}},
        "delete_item": {"enabled": False}}}))
    config = {"servers": [
        {"name": "sdk-modern", "command": PY, "args": [str(TEST_SERVERS), "stdio"],
         "protocol": "modern"},
        {"name": "sdk-handshake", "command": PY, "args": [str(TEST_SERVERS), "stdio"]},
        {"name": "memory-modern", "command": "node", "args": [str(MEMORY)],
         "protocol": "modern", "probeTools": False},
    ], "timeoutMs": 60000}
    (tmp_path / "c.json").write_text(json.dumps(config))
    code, _, _ = run_cli(["--config", "c.json", "--receipt-file", "r.json"], capsys)
    assert code == 2
    modern, handshake, memory = read_json(tmp_path / "r.json")["servers"]
    assert modern["protocolVersion"] == "2026-07-28" and modern["result"] == "pass"
    assert modern["server"]["name"] == "probe-test-catalog"
    assert handshake["protocolVersion"] != "2026-07-28" and handshake["result"] == "pass"
    assert modern["catalog"]["sha256"] == handshake["catalog"]["sha256"]
    assert {c["tool"]: c["status"] for c in modern["calls"]} == {
        "lookup": "pass", "describe_item": "pass", "delete_item": "skipped"}
    assert memory["result"] == "fail" and memory["steps"][0]["step"] == "server/discover"
    assert "2026-07-28" in memory["findings"][0]["message"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"servers": [{"name": "x", "command": "y",
                                            "protocol": "2026"}]}))
    code, _, err = run_cli(["--config", str(bad)], capsys)
    assert code == 3 and "protocol: must be one of handshake, modern" in err


def test_a_rate_limited_call_is_retried_when_the_sidecar_says_rate_limit(tmp_path, monkeypatch,
                                                                         capsys):
    monkeypatch.chdir(tmp_path)
    port, log = free_port(), tmp_path / "http.log"
    with _http_server(port, log, "--limited", "2"):
        code, _, err = run_cli(["init", "--target", f"http://127.0.0.1:{port}/mcp"], capsys)
        assert code == 0, err
        only_enable(tmp_path / ".mcp-probe.json", {"lookup": {"retry": {
            "attempts": 3, "delayMs": 20, "retryOn": ["rate limit"]}}})
        code, out, err = run_cli(["--config", "mcp-probe.config.json", "--receipt-file",
                                  "r.json"], capsys)
    assert code == 0, out + err
    attempts = calls_by_tool(read_json(tmp_path / "r.json"))["lookup"]["attempts"]
    assert [a.get("error", {}).get("httpStatus") for a in attempts] == [429, 429, None]
    assert [e["status"] for e in _http_log(log) if e["method"] == "tools/call"] == [429, 429, 200]
