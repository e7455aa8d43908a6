"""`python -m mcp_probe` runs the `mcp-probe` command."""

from .cli import entrypoint

entrypoint()
