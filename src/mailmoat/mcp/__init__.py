"""mailmoat.mcp: the agent gateway. Outside agents (Claude Desktop, IDE agents, scripts) read
mail and propose actions over the Model Context Protocol; nothing they do executes, approves,
changes a mode, pins a sender or reads a secret.

clients.py  registered agent clients: hashed tokens, scopes, granted accounts, limits.
gateway.py  what each tool does, for one authenticated principal: scope, account grant, rate
            limit, daily proposal cap, audit; proposals go through act.service.ActionService.
server.py   the MCP surface over the official SDK (`MCPServer`): strict tool schemas, stdio,
            and the streamable HTTP app behind a bearer-token gate.

May import: core/, store/ and act/. Never services/ or entrypoints/: no CLI, job runner or web app.
"""
