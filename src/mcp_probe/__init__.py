"""mcp-probe: a readiness probe for any MCP server (stdio command or streamable HTTP URL).

It connects with the official `mcp` SDK client, reads the live tool catalog, checks it against a
locked list, dry-runs one sample call per tool from a sidecar contract and writes a redacted
receipt of what actually ran. It is its own tool: nothing here imports mailmoat.

Pure parts (no I/O, no clock): `config` (parsing), `sidecar`, `samples` (sample inputs from JSON
schemas), `review` (which tools need a person), `catalog` (canonical form, hash, checks), `retry`,
`redact`, `report` (receipt, summary, exit code), `workflow`. The shell: `client` (the SDK
connection), `runner` (one probe run), `init` (writes the files), `cli` (the command).
"""

__version__ = "0.1.0"
