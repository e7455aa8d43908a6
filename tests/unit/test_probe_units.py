"""mcp-probe's pure parts: sample inputs, review marks, catalog hash and lock, retry rules,
redaction, config and sidecar errors, verdicts and exit codes, the workflow file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema.validators import validator_for

from mcp_probe.catalog import catalog_sha256, check_lock, check_schemas
from mcp_probe.config import ConfigError, parse_config
from mcp_probe.init import check_args_for_secrets, split_target
from mcp_probe.redact import MASK, Redactor
from mcp_probe.report import EXIT_FAIL, EXIT_PASS, EXIT_WARN, exit_code, overall_result
from mcp_probe.retry import (
    HTTP,
    JSONRPC,
    SHAPE,
    TIMEOUT,
    TOOL_ERROR,
    AttemptError,
    RetryPolicy,
    matches,
    parse_retry_on,
    should_retry,
)
from mcp_probe.review import review_reasons, words
from mcp_probe.samples import sample_input
from mcp_probe.sidecar import build_sidecar, entry_for, parse_sidecar
from mcp_probe.workflow import workflow_yaml

CFG = Path("/work/x/mcp-probe.config.json")


def valid(schema: dict, value: object) -> bool:
    return validator_for(schema)(schema).is_valid(value)


# ---- sample inputs -------------------------------------------------------------------------


def test_samples_follow_default_enum_minimum_minlength_required():
    schema = {
        "type": "object",
        "properties": {
            "query": {"type": "string", "minLength": 8},
            "limit": {"type": "integer", "minimum": 5, "maximum": 50},
            "order": {"type": "string", "enum": ["desc", "asc"]},
            "page": {"type": "integer", "default": 3},
            "ratio": {"type": "number", "exclusiveMinimum": 0},
            "optional": {"type": "string"},
        },
        "required": ["query", "limit", "order", "page", "ratio"],
    }
    sample = sample_input(schema)
    assert sample["limit"] == 5
    assert sample["order"] == "desc"
    assert sample["page"] == 3
    assert len(sample["query"]) >= 8
    assert sample["ratio"] > 0
    assert "optional" not in sample  # only required properties
    assert valid(schema, sample)


def test_samples_never_use_empty_strings_or_zeros():
    schema = {
        "type": "object",
        "properties": {"name": {"type": "string"}, "count": {"type": "integer"},
                       "size": {"type": "number"}},
        "required": ["name", "count", "size"],
    }
    sample = sample_input(schema)
    assert sample["name"] and sample["count"] != 0 and sample["size"] != 0


def test_samples_build_nested_objects_and_arrays_with_min_items():
    schema = {
        "type": "object",
        "$defs": {"Tag": {"type": "string", "minLength": 2}},
        "properties": {
            "item": {
                "type": "object",
                "properties": {
                    "id": {"type": "string", "format": "uuid"},
                    "tags": {"type": "array", "items": {"$ref": "#/$defs/Tag"}, "minItems": 3,
                             "uniqueItems": True},
                    "owner": {"type": "object", "properties": {"email": {"type": "string",
                              "format": "email"}}, "required": ["email"]},
                },
                "required": ["id", "tags", "owner"],
            },
        },
        "required": ["item"],
    }
    sample = sample_input(schema)
    assert len(sample["item"]["tags"]) == 3
    assert len(set(sample["item"]["tags"])) == 3
    assert "@" in sample["item"]["owner"]["email"]
    assert valid(schema, sample)


def test_samples_follow_any_of_all_of_and_patterns():
    schema = {
        "type": "object",
        "properties": {
            "when": {"anyOf": [{"type": "null"}, {"type": "string", "format": "date"}]},
            "code": {"type": "string", "pattern": "^[A-Z]{3}$"},
            "both": {"allOf": [{"type": "object", "properties": {"a": {"type": "integer",
                     "minimum": 2}}, "required": ["a"]},
                     {"properties": {"b": {"type": "boolean"}}, "required": ["b"]}]},
            "step": {"type": "integer", "minimum": 1, "multipleOf": 5},
        },
        "required": ["when", "code", "both", "step"],
    }
    sample = sample_input(schema)
    assert sample["when"] == "2026-01-02"
    assert sample["code"] == "ABC"
    assert sample["both"] == {"a": 2, "b": False}
    assert sample["step"] == 5
    assert valid(schema, sample)


def test_an_unsatisfiable_sample_is_disabled_for_a_person_to_edit():
    tool = {"name": "lookup", "description": "read",
            "inputSchema": {"type": "object", "properties": {"q": {"type": "string",
                            "pattern": "^zz[0-9]{9}$"}}, "required": ["q"]}}
    entry = entry_for(tool)
    assert entry["enabled"] is False
    assert any("edit them" in r for r in entry["review"])


_scalar = st.one_of(
    st.fixed_dictionaries({"type": st.just("string")},
                          optional={"minLength": st.integers(0, 30),
                                    "format": st.sampled_from(["email", "uri", "date", "uuid"])}),
    st.fixed_dictionaries({"type": st.sampled_from(["integer", "number"])},
                          optional={"minimum": st.integers(-100, 100)}),
    st.fixed_dictionaries({"type": st.just("boolean")}),
    st.fixed_dictionaries({"enum": st.lists(st.text(min_size=1, max_size=5), min_size=1,
                                            max_size=4, unique=True)}),
)
_schema = st.recursive(
    _scalar,
    lambda inner: st.one_of(
        st.builds(lambda items, n: {"type": "array", "items": items, "minItems": n},
                  inner, st.integers(0, 4)),
        st.builds(lambda props: {"type": "object", "properties": props,
                                 "required": sorted(props)},
                  st.dictionaries(st.text("abcdefgh", min_size=1, max_size=6), inner,
                                  max_size=4)),
    ),
    max_leaves=12,
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.text("abcdefgh", min_size=1, max_size=6), _schema, max_size=5))
def test_generated_samples_satisfy_generated_schemas(props):
    schema = {"type": "object", "properties": props, "required": sorted(props)}
    sample = sample_input(schema)
    assert valid(schema, sample), (schema, sample)


# ---- review marks ----------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "category"), [
    ("create_entities", "mutating"),
    ("deleteMessage", "mutating"),
    ("send-email", "mutating"),
    ("toggle-simulated-logging", "mutating"),
    ("grant_role", "admin"),
    ("export_all", "export"),
    ("get-env", "environment-inspection"),
    ("read_secrets", "environment-inspection"),
])
def test_risky_tools_are_marked_for_review(name, category):
    reasons = review_reasons(name, "", {"readOnlyHint": True})
    assert any(r.startswith(category) for r in reasons), reasons


def test_read_tools_are_not_marked_and_hints_are_read():
    assert review_reasons("search_nodes", "Search the graph.", {"readOnlyHint": True}) == []
    assert review_reasons("read_graph", "Read it.", None) == []
    assert review_reasons("lookup", "", {"destructiveHint": True})
    assert review_reasons("lookup", "", {"readOnlyHint": False})
    assert review_reasons("fetch_page", "", {"readOnlyHint": True, "openWorldHint": True})
    assert review_reasons("describe", "Prints environment variables.", None)
    assert words("getHTTPStatus_now") == ["get", "http", "status", "now"]


# ---- catalog hash and lock -------------------------------------------------------------------

TOOLS = [
    {"name": "b", "description": "B", "inputSchema": {"type": "object"}},
    {"name": "a", "description": "A", "inputSchema": {"type": "object", "properties": {
        "x": {"type": "string"}}}, "_meta": {"volatile": 1}},
]


def test_catalog_hash_is_order_independent_and_change_sensitive():
    digest = catalog_sha256(TOOLS)
    assert digest == catalog_sha256(list(reversed(TOOLS)))
    assert digest == catalog_sha256([{**TOOLS[0]}, {**TOOLS[1], "_meta": {"volatile": 2}}])
    changed = [TOOLS[0], {**TOOLS[1], "description": "A!"}]
    assert catalog_sha256(changed) != digest
    schema_changed = [TOOLS[0], {**TOOLS[1], "inputSchema": {"type": "object"}}]
    assert catalog_sha256(schema_changed) != digest
    assert len(digest) == 64


def test_lock_fails_on_a_missing_or_unexpected_tool_and_warns_on_new_or_changed():
    f = check_lock(["a", "b", "c"], ["a", "b"], ["a", "b"], "h", None)
    assert [(x.level, x.code, x.tool) for x in f] == [("fail", "tool-unexpected", "c")]
    f = check_lock(["a"], ["a", "b"], None, "h", None)
    assert [(x.level, x.code) for x in f] == [("fail", "tool-missing")]
    f = check_lock(["a", "c"], ["a"], None, "h", None)
    assert [(x.level, x.code) for x in f] == [("warn", "tool-new")]
    f = check_lock(["a"], ["a"], ["a"], "new", "old")
    assert [(x.level, x.code) for x in f] == [("warn", "catalog-changed")]
    assert check_lock(["a"], ["a"], ["a"], "same", "same") == []


def test_schema_checks_find_bad_and_duplicate_schemas():
    tools = [
        {"name": "ok", "description": "d", "inputSchema": {"type": "object"}},
        {"name": "ok", "description": "d", "inputSchema": {"type": "object"}},
        {"name": "arr", "description": "d", "inputSchema": {"type": "array"}},
        {"name": "bad", "description": "d", "inputSchema": {"type": "object",
                                                            "properties": {"x": {"type": 5}}}},
        {"name": "out", "inputSchema": {"type": "object"}, "outputSchema": {"type": "string"}},
        {"name": "has space", "description": "d", "inputSchema": {"type": "object"}},
    ]
    codes = {(f.level, f.code, f.tool) for f in check_schemas(tools)}
    assert ("fail", "tool-duplicate", "ok") in codes
    assert ("fail", "schema-invalid", "arr") in codes
    assert ("fail", "schema-invalid", "bad") in codes
    assert ("fail", "schema-invalid", "out") in codes
    assert ("warn", "tool-undescribed", "out") in codes
    assert ("warn", "tool-name-format", "has space") in codes


# ---- retries ---------------------------------------------------------------------------------


def test_retry_matches_statuses_timeouts_and_rate_limits():
    on = parse_retry_on([503, "timeout", "rate limit", "-32603"], "x")
    assert matches(AttemptError(HTTP, "HTTP 503", status=503), on)
    assert not matches(AttemptError(HTTP, "HTTP 500", status=500), on)
    assert matches(AttemptError(TIMEOUT, "no answer"), on)
    assert matches(AttemptError(HTTP, "HTTP 429", status=429), on)
    assert matches(AttemptError(TOOL_ERROR, "Rate limit exceeded, slow down"), on)
    assert matches(AttemptError(JSONRPC, "internal", code=-32603), on)
    assert not matches(AttemptError(SHAPE, "timeout in the text"), on)


def test_401_and_403_are_never_retried_unless_listed():
    broad = parse_retry_on([503, -32603, "timeout", "unauthorized", "forbidden", "error"], "x")
    for status in (401, 403):
        err = AttemptError(HTTP, f"HTTP {status} Unauthorized", status=status, code=-32603)
        assert not matches(err, broad)
        assert matches(err, parse_retry_on([status], "x"))
    assert not matches(AttemptError(TOOL_ERROR, "401 Unauthorized: token expired"), broad)
    assert matches(AttemptError(TOOL_ERROR, "401 Unauthorized"), parse_retry_on([401], "x"))


def test_should_retry_respects_the_attempt_budget():
    policy = RetryPolicy(attempts=3, retry_on=(503,))
    err = AttemptError(HTTP, "HTTP 503", status=503)
    assert should_retry(err, 1, policy) and should_retry(err, 2, policy)
    assert not should_retry(err, 3, policy)
    assert not should_retry(err, 1, RetryPolicy())  # opt-in: no retry block, one attempt


# ---- redaction -------------------------------------------------------------------------------


def test_redaction_scrubs_known_values_secret_keys_and_credential_text():
    r = Redactor(["s3cr3t-value", "x"])
    out = r.data({
        "message": "login with s3cr3t-value failed",
        "headers": {"Authorization": "Bearer abcdefghijkl", "Accept": "json"},
        "api_key": "zzz",
        "max_tokens": 5,
        "text": "Authorization: Basic dXNlcjpwYXNz, next",
        "url": "https://user:pw@example.com/x?token=abc123",
        "list": ["password=hunter22 ok"],
    })
    blob = json.dumps(out)
    for secret in ("s3cr3t-value", "abcdefghijkl", "zzz", "dXNlcjpwYXNz", "user:pw", "abc123",
                   "hunter22"):
        assert secret not in blob
    assert out["headers"]["Accept"] == "json"
    assert out["max_tokens"] == 5
    assert MASK in out["message"]
    assert Redactor(["x"]).text("box") == "box"  # one-letter values would shred any text


# ---- config and sidecar errors ----------------------------------------------------------------


@pytest.mark.parametrize(("doc", "fragment"), [
    ([], "must hold a JSON object"),
    ({}, "servers: must be a non-empty list"),
    ({"servers": [{"name": "a"}]}, "exactly one of 'command'"),
    ({"servers": [{"name": "a", "command": "x", "url": "http://h"}]}, "exactly one of"),
    ({"servers": [{"name": "a", "command": "x"}], "timeoutMs": 0}, "timeoutMs"),
    ({"servers": [{"name": "a", "command": "x", "timout": 5}]}, "unknown key 'timout'"),
    ({"servers": [{"name": "a", "url": "ftp://h"}]}, "http:// or https://"),
    ({"servers": [{"name": "a", "url": "http://h", "headers": {"A": "${NOPE_VAR}"}}]},
     "NOPE_VAR is not set"),
    ({"servers": [{"name": "a", "command": "x"}, {"name": "a", "command": "y"}]}, "two servers"),
    ({"servers": [{"name": "a", "command": "x"}], "expectedTools": ["t", "t"]}, "twice"),
    ({"servers": [{"name": "bad name", "command": "x"}]}, "letters, digits"),
])
def test_bad_configs_say_what_is_wrong(doc, fragment):
    with pytest.raises(ConfigError) as e:
        parse_config(doc, CFG, {})
    assert fragment in str(e.value)
    assert str(CFG) in str(e.value)


def test_config_expands_variables_and_collects_them_as_secrets():
    doc = {"servers": [
        {"name": "h", "url": "https://h.example/mcp",
         "headers": {"Authorization": "Bearer ${TOK}"}, "timeoutMs": 900},
        {"name": "s", "command": "node", "args": ["srv.js"], "env": {"KEY": "${K}"},
         "cwd": "srv", "expectedTools": ["x"]},
    ], "timeoutMs": 2000, "expectedTools": ["y"], "toolsFile": "side.json"}
    cfg = parse_config(doc, CFG, {"TOK": "tok-123456", "K": "kkkk-9"})
    h, s = cfg.servers
    assert h.headers["Authorization"] == "Bearer tok-123456"
    assert h.timeout_ms == 900 and s.timeout_ms == 2000
    assert h.expected_tools == ("y",) and s.expected_tools == ("x",)
    assert s.cwd == CFG.parent / "srv" and s.tools_file == CFG.parent / "side.json"
    assert {"tok-123456", "kkkk-9", "Bearer tok-123456"} <= cfg.secrets


@pytest.mark.parametrize(("tools", "fragment"), [
    ({"t": {"enabled": "yes"}}, "enabled: must be true or false"),
    ({"t": {"expect": {"status": "fine"}}}, "expect.status"),
    ({"t": {"retry": {"attempts": 0}}}, "retry.attempts"),
    ({"t": {"retry": {"retryOn": [""]}}}, "empty word"),
    ({"t": {"retry": {"retryOn": [True]}}}, "neither a status code"),
    ({"t": {"expect": {"outputSchema": {"type": 7}}}}, "not a valid JSON Schema"),
    ({"t": {"args": {}}}, "unknown key 'args'"),
])
def test_bad_sidecars_say_what_is_wrong(tools, fragment):
    with pytest.raises(ConfigError) as e:
        parse_sidecar({"version": 1, "tools": tools}, Path("/w/.mcp-probe.json"))
    assert fragment in str(e.value)


def test_sidecar_merge_keeps_what_a_person_wrote():
    tools = [{"name": "a", "inputSchema": {"type": "object"}},
             {"name": "delete_b", "inputSchema": {"type": "object"}}]
    first, added = build_sidecar("srv", tools, None)
    assert added == ["a", "delete_b"] and first["tools"]["delete_b"]["enabled"] is False
    first["tools"]["delete_b"]["enabled"] = True  # a person enabled it
    first["tools"]["a"]["arguments"] = {"edited": True}
    tools.append({"name": "c", "inputSchema": {"type": "object"}})
    merged, added = build_sidecar("srv", tools, first)
    assert added == ["c"]
    assert merged["tools"]["delete_b"]["enabled"] is True
    assert merged["tools"]["a"]["arguments"] == {"edited": True}


# ---- verdicts, exit codes, workflow, targets ---------------------------------------------------


def test_exit_codes_tell_pass_warnings_and_failures_apart():
    ok = {"findings": [], "calls": [{"status": "pass"}]}
    warn = {"findings": [{"level": "warn"}], "calls": []}
    fail = {"findings": [], "calls": [{"status": "fail"}]}
    assert overall_result([ok]) == "pass"
    assert overall_result([ok, warn]) == "warn"
    assert overall_result([warn, fail]) == "fail"
    assert exit_code("pass", True) == EXIT_PASS == 0
    assert exit_code("warn", False) == EXIT_PASS
    assert exit_code("warn", True) == EXIT_WARN == 1
    assert exit_code("fail", False) == EXIT_FAIL == 2


def test_workflow_is_valid_yaml_and_takes_secrets_from_the_repository():
    text = workflow_yaml(config_path="mcp-probe.config.json", receipt_path="artifacts/r.json",
                         install_command="python -m pip install .", env_vars=["MCP_TOKEN"],
                         needs_node=True, setup_commands=["npm ci --prefix tools/mcp-servers"])
    doc = yaml.safe_load(text)
    steps = doc["jobs"]["mcp-probe"]["steps"]
    probe = next(s for s in steps if s.get("name") == "Probe the MCP servers")
    assert "--github-summary" in probe["run"] and "--receipt-file artifacts/r.json" in probe["run"]
    assert probe["env"] == {"MCP_TOKEN": "${{ secrets.MCP_TOKEN }}"}
    keep = next(s for s in steps if s.get("name") == "Keep the receipt")
    assert keep["if"] == "always()" and keep["with"]["path"] == "artifacts/r.json"
    assert any(s.get("uses", "").startswith("actions/setup-node") for s in steps)


def test_targets_are_urls_or_shell_style_command_lines():
    assert split_target("https://h.example/mcp") == {"url": "https://h.example/mcp"}
    assert split_target("mailmoat mcp --account 'me@example.com' --db \"a b.sqlite\"") == {
        "command": "mailmoat", "args": ["mcp", "--account", "me@example.com", "--db",
                                        "a b.sqlite"]}
    with pytest.raises(ConfigError):
        split_target("node 'unterminated")


@pytest.mark.parametrize("args", [
    ["srv", "--token", "abc123"], ["srv", "--api-key=abc123"], ["--db-password", "hunter22"],
])
def test_a_literal_secret_on_the_command_line_is_refused(args):
    with pytest.raises(ConfigError) as e:
        check_args_for_secrets(args)
    assert "abc123" not in str(e.value) and "hunter22" not in str(e.value)
    assert "${NAME}" in str(e.value)


def test_secret_flags_with_variables_or_no_value_are_fine():
    check_args_for_secrets(["srv", "--token", "${MCP_TOKEN}", "--api-key=${KEY}"])
    check_args_for_secrets(["srv", "--token-file", "/run/secrets/t", "--no-token"])


# ---- expectations and boundaries ---------------------------------------------------------------


def test_expectations_judge_status_and_shape():
    from mcp_probe.client import CallResult
    from mcp_probe.runner import judge_result
    from mcp_probe.sidecar import ToolCall, arguments_problem

    ok = CallResult(False, {"temp": 3}, ("text",), "", {})
    err = CallResult(True, None, ("text",), "no such item", {})
    schema = {"type": "object", "required": ["temp"], "properties": {"temp": {"type": "number"}}}
    assert judge_result(ok, ToolCall("t", True, {})) is None
    assert judge_result(err, ToolCall("t", True, {})).kind == "tool-error"
    assert judge_result(err, ToolCall("t", True, {}, expect_status="error")) is None
    assert judge_result(ok, ToolCall("t", True, {}, expect_status="error")).kind == "unexpected"
    assert judge_result(ok, ToolCall("t", True, {}, expect_status="any")) is None
    assert judge_result(ok, ToolCall("t", True, {}, output_schema=schema)) is None
    wrong = CallResult(False, {"temp": "hot"}, ("text",), "", {})
    problem = judge_result(wrong, ToolCall("t", True, {}, output_schema=schema))
    assert problem.kind == "shape" and "temp" in problem.message
    none = CallResult(False, None, ("text",), "", {})
    assert judge_result(none, ToolCall("t", True, {}, output_schema=schema)).kind == "shape"
    input_schema = {"type": "object", "properties": {"q": {"type": "string", "minLength": 3}},
                    "required": ["q"]}
    assert arguments_problem({"q": "abc"}, input_schema) is None
    assert "q" in arguments_problem({"q": ""}, input_schema)
    assert "required" in arguments_problem({}, input_schema)


def test_mcp_probe_imports_nothing_from_mailmoat_and_its_core_is_pure():
    import ast

    package = Path(__file__).resolve().parents[2] / "src" / "mcp_probe"
    pure = {"catalog", "config", "redact", "report", "retry", "review", "samples", "sidecar",
            "workflow"}
    shell = {"client", "runner", "init", "cli", "__main__"}
    seen = set()
    for path in package.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                names |= {f"{'.' * node.level}{base}"} | (
                    {f".{a.name}" for a in node.names} if node.level and not base else set())
        assert not any(n.split(".")[0] == "mailmoat" for n in names), path.name
        if path.stem in pure:
            seen.add(path.stem)
            io = {"anyio", "mcp", "httpx2", "subprocess", "socket", "asyncio"}
            assert not {n.split(".")[0] for n in names} & io, (path.name, names)
            assert not {n.lstrip(".") for n in names if n.startswith(".")} & shell, path.name
    assert seen == pure
