"""The `mcp-probe` command: parse, call `runner`/`init`, render (thin).

    mcp-probe --config mcp-probe.config.json [--github-summary] [--fail-on-warn]
              [--receipt-file FILE]
    mcp-probe init --target CMD_OR_URL [--discover] [--lock-tools] [--github-actions] ...

argparse rather than typer: the exit codes are part of the contract (0 pass, 1 warnings with
--fail-on-warn, 2 failures, 3 unusable configuration or usage) and a usage error must not share
a code with a failed probe.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from pathlib import Path
from typing import Any, NoReturn

import anyio

from . import __version__
from .client import ProbeError
from .config import ConfigError, load_config
from .init import InitOptions, run_init
from .redact import SECRET_KEY_RE, Redactor
from .report import (
    EXIT_CONFIG,
    EXIT_FAIL,
    build_receipt,
    console_lines,
    summary_markdown,
)
from .runner import load_sidecars, now_iso, run_probe


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_CONFIG, f"{self.prog}: error: {message}\n")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="mcp-probe",
        description="Readiness probe for MCP servers: initialize, list, validate, check the "
        "locked catalog, dry-run the sidecar calls, write a redacted receipt.",
        epilog="Exit codes: 0 pass, 1 warnings (with --fail-on-warn), 2 failures, "
        "3 unusable configuration or usage.",
    )
    p.add_argument("--version", action="version", version=f"mcp-probe {__version__}")
    p.add_argument("--config", type=Path, help="the probe configuration (mcp-probe.config.json)")
    p.add_argument("--github-summary", action="store_true",
                   help="append a Markdown table to $GITHUB_STEP_SUMMARY")
    p.add_argument("--fail-on-warn", action="store_true", help="exit 1 when there are warnings")
    p.add_argument("--receipt-file", type=Path, help="write the redacted JSON receipt here")
    p.add_argument("-v", "--verbose", action="store_true", help="show the MCP SDK's own logs")
    sub = p.add_subparsers(dest="command", parser_class=_Parser)
    i = sub.add_parser("init", help="connect, read the live catalog, write config, sidecar and "
                       "workflow")
    i.add_argument("--target", action="append", required=True, metavar="CMD_OR_URL",
                   help="an http(s) URL or a shell-style command line; repeat for more servers")
    i.add_argument("--name", action="append", default=[], help="a name per --target")
    i.add_argument("--config", type=Path, default=Path("mcp-probe.config.json"),
                   help="where to write the config (default: mcp-probe.config.json)")
    i.add_argument("--tools-file", help="the sidecar's path, relative to the config")
    i.add_argument("--header", action="append", default=[], metavar="'NAME: VALUE'",
                   help="an HTTP header; a secret must be a ${VAR} reference")
    i.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                   help="an environment variable for a stdio server; a secret must be ${VAR}")
    i.add_argument("--timeout-ms", type=int, default=15_000, help="per-server timeout")
    i.add_argument("--discover", action="store_true",
                   help="write the observed tool names into expectedTools")
    i.add_argument("--lock-tools", action="store_true",
                   help="also write allowedTools and the catalog hash (implies --discover)")
    i.add_argument("--github-actions", action="store_true",
                   help="write .github/workflows/mcp-probe.yml")
    i.add_argument("--install-command", default="python -m pip install mailmoat",
                   help="how the workflow installs mcp-probe")
    i.add_argument("--setup", action="append", default=[], metavar="COMMAND",
                   help="a workflow step to run before probing (e.g. npm ci); repeatable")
    i.add_argument("--force", action="store_true", help="replace an existing config / workflow")
    i.add_argument("-v", "--verbose", action="store_true", help="show the MCP SDK's own logs")
    return p


def _quiet_sdk(verbose: bool) -> None:
    level = logging.DEBUG if verbose else logging.CRITICAL
    for name in ("mcp", "httpx2", "httpcore", "httpcore2"):
        logging.getLogger(name).setLevel(level)
    if verbose:
        logging.basicConfig(level=logging.DEBUG, stream=sys.stderr)


def _environment_secrets(environ: dict[str, str]) -> set[str]:
    """Values of this process's secret-looking environment variables: scrubbed too."""
    return {v for k, v in environ.items() if SECRET_KEY_RE.search(k) and len(v) >= 4}


def _write_receipt(path: Path, receipt: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(receipt, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def _summary(markdown: str) -> None:
    target = os.environ.get("GITHUB_STEP_SUMMARY")
    if not target:
        print("mcp-probe: GITHUB_STEP_SUMMARY is not set; the summary follows", file=sys.stderr)
        print(markdown)
        return
    with open(target, "a", encoding="utf-8") as fh:
        fh.write(markdown)


def probe_main(args: argparse.Namespace) -> int:
    environ = dict(os.environ)
    redactor = Redactor(_environment_secrets(environ))
    if args.config is None:
        print("mcp-probe: give --config FILE (or run `mcp-probe init --target ...` first)",
              file=sys.stderr)
        return EXIT_CONFIG
    try:
        config = load_config(args.config, environ)
        redactor = Redactor(set(config.secrets) | _environment_secrets(environ))
        sidecars = load_sidecars(config)
        config_bytes = args.config.read_bytes()
    except ConfigError as e:
        message = redactor.text(str(e))
        print(f"mcp-probe: configuration error: {message}", file=sys.stderr)
        if args.receipt_file:
            _write_receipt(args.receipt_file, {
                "receiptVersion": 1, "tool": {"name": "mcp-probe", "version": __version__},
                "startedAt": now_iso(), "result": "error", "exitCode": EXIT_CONFIG,
                "error": message, "servers": [],
            })
        return EXIT_CONFIG
    run = anyio.run(run_probe, config, sidecars)
    receipt = build_receipt(run, config_path=str(args.config), config_bytes=config_bytes,
                            fail_on_warn=args.fail_on_warn, redactor=redactor)
    for line in console_lines(receipt):
        print(line)
    if args.receipt_file:
        _write_receipt(args.receipt_file, receipt)
    if args.github_summary:
        _summary(summary_markdown(receipt))
    return int(receipt["exitCode"])


def init_main(args: argparse.Namespace) -> int:
    environ = dict(os.environ)
    redactor = Redactor(_environment_secrets(environ))
    opts = InitOptions(
        targets=args.target, config_path=args.config, names=args.name, headers=args.header,
        env=args.env, timeout_ms=args.timeout_ms, tools_file=args.tools_file,
        discover=args.discover or args.lock_tools, lock_tools=args.lock_tools,
        github_actions=args.github_actions, install_command=args.install_command,
        setup_commands=args.setup, force=args.force, environ=environ,
    )
    try:
        result = anyio.run(run_init, opts)
    except ConfigError as e:
        print(f"mcp-probe init: {redactor.text(str(e))}", file=sys.stderr)
        return EXIT_CONFIG
    except ProbeError as e:
        print(f"mcp-probe init: cannot read the catalog: {redactor.text(str(e))}",
              file=sys.stderr)
        return EXIT_FAIL
    for path in result.written:
        print(f"wrote {os.path.relpath(path)}")
    for server, names in result.tools.items():
        added = result.added.get(server, [])
        print(f"{server}: {len(names)} tools, {len(added)} new sidecar entries")
    if result.review:
        print("not called until a person enables them in the sidecar (\"enabled\": true):")
        for tool, reasons in sorted(result.review.items()):
            print(f"  {tool}: {'; '.join(reasons)}")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    _quiet_sdk(args.verbose)
    if args.command == "init":
        return init_main(args)
    return probe_main(args)


def entrypoint() -> NoReturn:
    sys.exit(main())
