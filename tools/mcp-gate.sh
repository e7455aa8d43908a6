#!/usr/bin/env bash
# The MCP readiness gate on mailmoat's own MCP server (issue 19; docs/mcp-probe.md):
# a throwaway store with the demo mailbox, `mailmoat mcp --account local` over stdio, and
# mcp-probe with the locked catalog (.ci/mcp-probe.config.json) and its sidecar
# (.ci/mcp-probe.tools.json). A tool added to the MCP surface without updating the lock fails
# (exit 2); the redacted receipt is kept in artifacts/. Needs the gateway (`mailmoat mcp`).
# To re-lock after a deliberate change to the surface:
#   MAILMOAT_DATABASE_URL=... .venv/bin/mcp-probe init --force --lock-tools \
#     --config .ci/mcp-probe.config.json --tools-file mcp-probe.tools.json --timeout-ms 30000 \
#     --target ".venv/bin/mailmoat mcp --account local" \
#     --env 'MAILMOAT_DATABASE_URL=${MAILMOAT_DATABASE_URL}'
# (the sidecar is merged: the entries edited by hand stay as they are).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${VENV:-.venv}/bin"
store="$(mktemp -d)"
trap 'rm -rf "$store"' EXIT
export MAILMOAT_DATABASE_URL="sqlite:///$store/mcp-gate.sqlite"
"$BIN/mailmoat" import src/mailmoat/demo >/dev/null
mkdir -p artifacts
"$BIN/mcp-probe" --config .ci/mcp-probe.config.json --fail-on-warn \
  --receipt-file artifacts/mcp-probe-receipt.json "$@"
