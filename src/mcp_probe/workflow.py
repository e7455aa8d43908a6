"""The GitHub Actions workflow that `mcp-probe init --github-actions` writes (pure).

It installs mcp-probe, runs it on the config with the step summary, and keeps the receipt as an
artifact whatever the outcome. Every `${VAR}` the config names is passed from the repository's
secrets of the same name, so no value is ever written into the workflow.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

NODE_COMMANDS = frozenset({"node", "npx", "npm", "pnpm", "yarn", "bun"})


def _q(text: str) -> str:
    """A YAML double-quoted scalar (JSON strings are valid YAML)."""
    return json.dumps(text)


def workflow_yaml(
    *,
    config_path: str,
    receipt_path: str,
    install_command: str,
    env_vars: Sequence[str],
    needs_node: bool,
    setup_commands: Sequence[str] = (),
    fail_on_warn: bool = True,
) -> str:
    run = f"mcp-probe --config {config_path} --github-summary --receipt-file {receipt_path}"
    if fail_on_warn:
        run += " --fail-on-warn"
    lines = [
        "# Written by `mcp-probe init --github-actions`: the MCP readiness gate.",
        "# It fails when a locked tool disappears, an unexpected tool appears, a schema is",
        "# invalid or a sidecar call (.mcp-probe.json) does not answer as expected. The receipt",
        "# (redacted) is kept as an artifact. Secrets come from the repository's secrets.",
        "name: mcp-probe",
        "",
        "on:",
        "  push:",
        "  pull_request:",
        "",
        "permissions:",
        "  contents: read",
        "",
        "jobs:",
        "  mcp-probe:",
        "    runs-on: ubuntu-latest",
        "    timeout-minutes: 15",
        "    steps:",
        "      - uses: actions/checkout@v4",
        "      - uses: actions/setup-python@v5",
        "        with:",
        '          python-version: "3.12"',
    ]
    if needs_node:
        lines += [
            "      - uses: actions/setup-node@v4",
            "        with:",
            '          node-version: "20"',
        ]
    lines += [
        "      - name: Install mcp-probe",
        f"        run: {_q(install_command)}",
    ]
    for i, command in enumerate(setup_commands, 1):
        lines += [f"      - name: Set up the server ({i})", f"        run: {_q(command)}"]
    lines += ["      - name: Probe the MCP servers"]
    if env_vars:
        lines.append("        env:")
        lines += [f"          {v}: ${{{{ secrets.{v} }}}}" for v in sorted(set(env_vars))]
    lines += [
        f"        run: {_q(run)}",
        "      - name: Keep the receipt",
        "        if: always()",
        "        uses: actions/upload-artifact@v4",
        "        with:",
        "          name: mcp-probe-receipt",
        f"          path: {_q(receipt_path)}",
        "          if-no-files-found: warn",
        "",
    ]
    return "\n".join(lines)
