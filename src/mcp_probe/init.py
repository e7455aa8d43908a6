"""`mcp-probe init`: connect to the targets, read the live catalogs, write the files (the shell).

Writes `mcp-probe.config.json`, the sidecar(s) and, with `--github-actions`, the workflow.
A target is an http(s) URL or a shell-style command line (`"node server.js --stdio"`, split
like a POSIX shell would). `--discover` writes the observed tool names into `expectedTools`;
`--lock-tools` writes them into `allowedTools` too, with the catalog hash. An existing config
or workflow is kept unless `--force`; an existing sidecar is merged: the entries a person
already has stay exactly as they are, new tools get a fresh entry. Secrets stay out of the
files: a header or environment value with a secret-looking name must be a `${VAR}` reference.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .catalog import catalog_sha256
from .client import connect
from .config import DEFAULT_TIMEOUT_MS, VAR_RE, ConfigError, parse_config
from .redact import SECRET_KEY_RE
from .sidecar import build_sidecar
from .workflow import NODE_COMMANDS, workflow_yaml

WORKFLOW_PATH = Path(".github/workflows/mcp-probe.yml")
DEFAULT_RECEIPT = "artifacts/mcp-probe-receipt.json"


@dataclass
class InitOptions:
    targets: Sequence[str]
    config_path: Path
    names: Sequence[str] = ()
    headers: Sequence[str] = ()
    env: Sequence[str] = ()
    timeout_ms: int = DEFAULT_TIMEOUT_MS
    tools_file: str | None = None
    discover: bool = False
    lock_tools: bool = False
    github_actions: bool = False
    workflow_path: Path | None = None
    install_command: str = "python -m pip install mailmoat"
    setup_commands: Sequence[str] = ()
    force: bool = False
    environ: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))


@dataclass
class InitResult:
    written: list[Path]
    review: dict[str, list[str]]  # "server/tool" -> reasons, for the person to decide
    added: dict[str, list[str]]  # server -> tools that got a new sidecar entry
    tools: dict[str, list[str]]  # server -> observed tool names


def split_target(target: str) -> dict[str, Any]:
    """A server entry for one target: an http(s) URL, or a command line split like a shell."""
    target = target.strip()
    if re.match(r"^https?://", target, re.IGNORECASE):
        return {"url": target}
    try:
        parts = shlex.split(target)
    except ValueError as e:
        raise ConfigError(f"--target {target!r}: cannot split the command line ({e})") from None
    if not parts:
        raise ConfigError("--target is empty: give a command line or an http(s) URL")
    return {"command": parts[0], "args": parts[1:]}


_SECRET_FLAG_RE = re.compile(
    r"^--?[\w-]*(token|passw(or)?d|secret|api[-_]?key|credential)[\w-]*(=(.*))?$", re.IGNORECASE
)


def check_args_for_secrets(args: Sequence[str]) -> None:
    """A command line must not carry a literal secret (`--token abc`, `--api-key=abc`): the
    config would hold it. Such a value must be a `${VAR}` reference."""
    for i, arg in enumerate(args):
        m = _SECRET_FLAG_RE.match(arg)
        flag = arg.split("=", 1)[0]
        if not m or flag.startswith("--no-") or re.search(
            r"[-_](file|path|dir|env|var|name|command|cmd)$", flag, re.IGNORECASE
        ):
            continue  # --token-file PATH names where a secret is, not the secret
        value = m.group(4) if m.group(3) else (args[i + 1] if i + 1 < len(args) else "")
        if value and not value.startswith("-") and not VAR_RE.search(value):
            raise ConfigError(
                f"--target: {flag} carries a literal secret, which would be written into the "
                f"config; put it in an environment variable and write {flag} '${{NAME}}'"
            )


def _pairs(items: Sequence[str], sep_re: str, what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        m = re.match(rf"^\s*([^{sep_re}\s]+)\s*[{sep_re}]\s?(.*)$", item)
        if not m:
            raise ConfigError(f"{what} {item!r}: write NAME{sep_re[0]}VALUE")
        key, value = m.group(1), m.group(2)
        if SECRET_KEY_RE.search(key) and value and not VAR_RE.search(value):
            raise ConfigError(
                f"{what} {key}: a secret must not be written into the config; put it in an "
                f"environment variable and write ${{NAME}}, e.g. {key}{sep_re[0]}"
                + ("Bearer ${MCP_TOKEN}" if key.lower() == "authorization" else "${MCP_SECRET}")
            )
        out[key] = value
    return out


def _slug(text: str) -> str:
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-.")[:64]
    return slug or "server"


def _relative(path: Path, base: Path) -> str:
    try:
        return os.path.relpath(path.resolve(), base.resolve())
    except ValueError:
        return str(path.resolve())


async def run_init(opts: InitOptions) -> InitResult:
    if not opts.targets:
        raise ConfigError("give at least one --target (a command line or an http(s) URL)")
    if opts.names and len(opts.names) != len(opts.targets):
        raise ConfigError("give one --name per --target, or none")
    config_path = opts.config_path
    config_dir = config_path.resolve().parent
    workflow_path = opts.workflow_path or (config_dir / WORKFLOW_PATH)
    if config_path.exists() and not opts.force:
        raise ConfigError(f"{config_path} exists; keep it, or pass --force to replace it "
                          "(the sidecar is merged, never replaced)")
    if opts.github_actions and workflow_path.exists() and not opts.force:
        raise ConfigError(f"{workflow_path} exists; pass --force to replace it")
    headers = _pairs(opts.headers, ":=", "--header")
    env = _pairs(opts.env, "=", "--env")

    entries: list[dict[str, Any]] = []
    cwd_rel = _relative(Path.cwd(), config_dir)
    for i, target in enumerate(opts.targets):
        entry: dict[str, Any] = {"name": opts.names[i] if opts.names else f"server{i + 1}"}
        entry.update(split_target(target))
        check_args_for_secrets(entry.get("args", []))
        if "url" in entry and headers:
            entry["headers"] = dict(headers)
        if "command" in entry:
            if env:
                entry["env"] = dict(env)
            if cwd_rel != ".":
                entry["cwd"] = cwd_rel
        entries.append(entry)

    # Connect to each target with the same checks the probe will use.
    probe_doc = {"servers": entries, "timeoutMs": opts.timeout_ms, "probeTools": False}
    config = parse_config(probe_doc, config_dir / config_path.name, opts.environ)
    catalogs: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
    for entry, spec in zip(entries, config.servers, strict=True):
        async with connect(spec) as conn:
            tools = await conn.list_tools()
            if not opts.names:
                entry["name"] = _slug(str(conn.server_info.get("name") or entry["name"]))
        catalogs.append((entry, tools))
    seen: dict[str, int] = {}
    for entry, _ in catalogs:  # two servers of the same name get a suffix
        n = seen.get(entry["name"], 0)
        seen[entry["name"]] = n + 1
        if n:
            entry["name"] = f"{entry['name']}-{n + 1}"

    single = len(catalogs) == 1
    doc: dict[str, Any] = {"version": 1, "servers": [e for e, _ in catalogs],
                           "timeoutMs": opts.timeout_ms, "probeTools": True}
    result = InitResult(written=[], review={}, added={}, tools={})
    sidecar_docs: list[tuple[Path, dict[str, Any]]] = []
    for entry, tools in catalogs:
        name = entry["name"]
        names = sorted(str(t.get("name")) for t in tools)
        result.tools[name] = names
        tools_file = opts.tools_file or (".mcp-probe.json" if single else f".mcp-probe.{name}.json")
        lock: dict[str, Any] = {}
        if opts.discover or opts.lock_tools:
            lock["expectedTools"] = names
        if opts.lock_tools:
            lock["allowedTools"] = names
            lock["catalogSha256"] = catalog_sha256(tools)
        if single:
            doc["toolsFile"] = tools_file
            doc.update(lock)
        else:
            entry["toolsFile"] = tools_file
            entry.update(lock)
        sidecar_path = config_dir / tools_file
        existing = None
        if sidecar_path.exists():
            try:
                existing = json.loads(sidecar_path.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError) as e:
                raise ConfigError(f"{sidecar_path}: cannot merge into it ({e}); fix or move it"
                                  ) from None
            if not isinstance(existing, dict):
                raise ConfigError(f"{sidecar_path}: cannot merge into it (not a JSON object)")
        side, added = build_sidecar(name, tools, existing)
        result.added[name] = added
        for tool, body in side["tools"].items():
            if not body.get("enabled", True) and body.get("review"):
                result.review[f"{name}/{tool}"] = list(body["review"])
        sidecar_docs.append((sidecar_path, side))

    # Check the document we are about to write, then write it all.
    parse_config(doc, config_dir / config_path.name, _placeholders(doc, opts.environ))
    _write_json(config_path, doc)
    result.written.append(config_path)
    for path, side in sidecar_docs:
        _write_json(path, side)
        result.written.append(path)
    if opts.github_actions:
        needs_node = any(Path(e.get("command", "")).name in NODE_COMMANDS for e in doc["servers"])
        text = workflow_yaml(
            config_path=_relative(config_path, config_dir),
            receipt_path=DEFAULT_RECEIPT,
            install_command=opts.install_command,
            env_vars=sorted(set(VAR_RE.findall(json.dumps(doc)))),
            needs_node=needs_node,
            setup_commands=opts.setup_commands,
        )
        workflow_path.parent.mkdir(parents=True, exist_ok=True)
        workflow_path.write_text(text, encoding="utf-8")
        result.written.append(workflow_path)
    return result


def _placeholders(doc: Mapping[str, Any], environ: Mapping[str, str]) -> dict[str, str]:
    """The environment for checking the written file: the real one, plus a stand-in for every
    `${VAR}` it names (so checking never needs the secret itself)."""
    out = dict(environ)
    for var in VAR_RE.findall(json.dumps(doc)):
        out.setdefault(var, "x")
    return out


def _write_json(path: Path, doc: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(path)
