"""mcp-probe.config.json: parsing and checking, with a clear error naming the bad field.

The file lists servers (a stdio `command` with `args`, or a streamable HTTP `url` with
`headers`) and the probe settings: `timeoutMs`, `probeTools`, `toolsFile`, `expectedTools`,
`allowedTools`, `catalogSha256` and `protocol` ("handshake", the `initialize` handshake every
server speaks today, or "modern", the 2026-07-28 `server/discover` era). A setting at the top
level applies to every server; the same key inside a server entry overrides it for that server.
Secrets never live in the file: header and environment values may name environment variables
as `${NAME}`, expanded when the file is read, and every expanded value is collected so the
receipt can scrub it.

`parse_config` is pure (the environment is passed in); `load_config` reads the file.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_TIMEOUT_MS = 15_000
DEFAULT_TOOLS_FILE = ".mcp-probe.json"
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
VAR_RE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")

SETTING_KEYS = (
    "timeoutMs",
    "probeTools",
    "toolsFile",
    "expectedTools",
    "allowedTools",
    "catalogSha256",
    "protocol",
)
PROTOCOLS = ("handshake", "modern")
TOP_KEYS = frozenset({"$schema", "version", "servers", *SETTING_KEYS})
SERVER_KEYS = frozenset(
    {"name", "command", "args", "env", "cwd", "url", "headers", "description", *SETTING_KEYS}
)


class ConfigError(ValueError):
    """The configuration cannot be used; the message names the file, the field and the fix."""


@dataclass(frozen=True, slots=True)
class ServerSpec:
    name: str
    transport: str  # "stdio" or "http"
    command: str = ""
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: Path | None = None
    url: str = ""
    headers: Mapping[str, str] = field(default_factory=dict)
    timeout_ms: int = DEFAULT_TIMEOUT_MS
    probe_tools: bool = True
    tools_file: Path | None = None
    expected_tools: tuple[str, ...] | None = None
    allowed_tools: tuple[str, ...] | None = None
    catalog_sha256: str | None = None
    protocol: str = "handshake"  # "handshake" (initialize) or "modern" (server/discover)

    @property
    def timeout_s(self) -> float:
        return self.timeout_ms / 1000.0


@dataclass(frozen=True, slots=True)
class Config:
    path: Path
    servers: tuple[ServerSpec, ...]
    secrets: frozenset[str]  # every expanded ${VAR}, env and header value: scrubbed from output


def expand(text: str, environ: Mapping[str, str], where: str, found: set[str]) -> str:
    """Replace each `${NAME}` with the variable's value; a missing variable is an error."""

    def sub(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in environ:
            raise ConfigError(f"{where}: environment variable {name} is not set")
        value = environ[name]
        if value:
            found.add(value)
        return value

    return VAR_RE.sub(sub, text)


def _fail(where: str, problem: str) -> ConfigError:
    return ConfigError(f"{where}: {problem}")


def _str(value: Any, where: str, *, empty_ok: bool = False) -> str:
    if not isinstance(value, str) or (not empty_ok and not value.strip()):
        raise _fail(where, "must be a non-empty string")
    return value


def _str_list(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise _fail(where, "must be a list of non-empty strings")
    if len(set(value)) != len(value):
        raise _fail(where, "lists a name twice")
    return tuple(value)


def _str_map(value: Any, where: str) -> dict[str, str]:
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and k and isinstance(v, str) for k, v in value.items()
    ):
        raise _fail(where, "must be an object of string values")
    return dict(value)


def _settings(raw: Mapping[str, Any], where: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if "timeoutMs" in raw:
        t = raw["timeoutMs"]
        if isinstance(t, bool) or not isinstance(t, int) or not 100 <= t <= 3_600_000:
            raise _fail(f"{where}.timeoutMs", "must be a whole number of milliseconds, 100-3600000")
        out["timeout_ms"] = t
    if "probeTools" in raw:
        if not isinstance(raw["probeTools"], bool):
            raise _fail(f"{where}.probeTools", "must be true or false")
        out["probe_tools"] = raw["probeTools"]
    if "toolsFile" in raw:
        out["tools_file"] = _str(raw["toolsFile"], f"{where}.toolsFile")
    for key, attr in (("expectedTools", "expected_tools"), ("allowedTools", "allowed_tools")):
        if key in raw:
            out[attr] = _str_list(raw[key], f"{where}.{key}")
    if "catalogSha256" in raw:
        h = _str(raw["catalogSha256"], f"{where}.catalogSha256")
        if not re.fullmatch(r"[0-9a-f]{64}", h):
            raise _fail(f"{where}.catalogSha256", "must be 64 lowercase hex digits")
        out["catalog_sha256"] = h
    if "protocol" in raw:
        if raw["protocol"] not in PROTOCOLS:
            raise _fail(f"{where}.protocol", f"must be one of {', '.join(PROTOCOLS)}")
        out["protocol"] = raw["protocol"]
    return out


def _unknown(raw: Mapping[str, Any], allowed: frozenset[str], where: str) -> None:
    extra = sorted(set(raw) - allowed)
    if extra:
        raise _fail(where, f"unknown key {extra[0]!r} (known: {', '.join(sorted(allowed))})")


def parse_config(data: Any, path: Path, environ: Mapping[str, str]) -> Config:
    """Check a parsed config document and expand its `${VAR}` references."""
    where = str(path)
    if not isinstance(data, dict):
        raise _fail(where, "must hold a JSON object")
    _unknown(data, TOP_KEYS, where)
    if "version" in data and data["version"] != 1:
        raise _fail(f"{where}: version", "only version 1 is known")
    servers_raw = data.get("servers")
    if not isinstance(servers_raw, list) or not servers_raw:
        raise _fail(f"{where}: servers", "must be a non-empty list of server entries")
    defaults = _settings(data, where)
    base = path.parent
    secrets: set[str] = set()
    servers: list[ServerSpec] = []
    names: set[str] = set()
    for i, raw in enumerate(servers_raw):
        at = f"{where}: servers[{i}]"
        if not isinstance(raw, dict):
            raise _fail(at, "must be an object")
        _unknown(raw, SERVER_KEYS, at)
        name = _str(raw.get("name"), f"{at}.name")
        if not NAME_RE.match(name):
            raise _fail(f"{at}.name", "use letters, digits, '.', '_' or '-' (at most 64)")
        if name in names:
            raise _fail(f"{at}.name", f"{name!r} is used by two servers")
        names.add(name)
        has_cmd, has_url = "command" in raw, "url" in raw
        if has_cmd == has_url:
            raise _fail(at, "needs exactly one of 'command' (stdio) or 'url' (HTTP)")
        settings = {**defaults, **_settings(raw, at)}
        tools_file = settings.pop("tools_file", None)
        if tools_file is None:
            tools_file = DEFAULT_TOOLS_FILE
        tools_path = Path(expand(tools_file, environ, f"{at}.toolsFile", secrets))
        settings["tools_file"] = tools_path if tools_path.is_absolute() else base / tools_path
        if has_cmd:
            if any(k in raw for k in ("headers",)):
                raise _fail(at, "'headers' belongs to an HTTP server (url), not a command")
            command = expand(
                _str(raw["command"], f"{at}.command"), environ, f"{at}.command", secrets
            )
            args_raw = raw.get("args", [])
            if not isinstance(args_raw, list) or not all(isinstance(a, str) for a in args_raw):
                raise _fail(f"{at}.args", "must be a list of strings")
            args = tuple(
                expand(a, environ, f"{at}.args[{j}]", secrets) for j, a in enumerate(args_raw)
            )
            env = {
                k: expand(v, environ, f"{at}.env.{k}", secrets)
                for k, v in _str_map(raw.get("env", {}), f"{at}.env").items()
            }
            secrets.update(v for v in env.values() if v)
            cwd_raw = raw.get("cwd")
            cwd = base
            if cwd_raw is not None:
                c = Path(expand(_str(cwd_raw, f"{at}.cwd"), environ, f"{at}.cwd", secrets))
                cwd = Path(os.path.normpath(c if c.is_absolute() else base / c))
            servers.append(
                ServerSpec(
                    name=name, transport="stdio", command=command, args=args, env=env, cwd=cwd,
                    **settings,
                )
            )
        else:
            if any(k in raw for k in ("args", "env", "cwd")):
                raise _fail(at, "'args', 'env' and 'cwd' belong to a command, not a url")
            url = expand(_str(raw["url"], f"{at}.url"), environ, f"{at}.url", secrets)
            if not re.match(r"^https?://[^/\s]+", url):
                raise _fail(f"{at}.url", "must start with http:// or https:// and name a host")
            headers = {
                k: expand(v, environ, f"{at}.headers.{k}", secrets)
                for k, v in _str_map(raw.get("headers", {}), f"{at}.headers").items()
            }
            secrets.update(v for v in headers.values() if v)
            servers.append(
                ServerSpec(name=name, transport="http", url=url, headers=headers, **settings)
            )
    return Config(path=path, servers=tuple(servers), secrets=frozenset(secrets))


def load_config(path: Path, environ: Mapping[str, str]) -> Config:
    """Read and check the config file; every problem is a ConfigError naming the file."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(
            f"{path}: no such file (create one with `mcp-probe init --target ...`)"
        ) from None
    except OSError as e:
        raise ConfigError(f"{path}: cannot read ({e.strerror})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ConfigError(
            f"{path}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})"
        ) from None
    return parse_config(data, path, environ)
