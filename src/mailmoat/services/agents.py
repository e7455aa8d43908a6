"""The MCP gateway composed: the store, the action service and the agent registry behind the
MCP server, over stdio (`mailmoat mcp`) or mounted at /mcp in the web app (`mailmoat up`)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any

from mailmoat.mcp.clients import (
    DEFAULT_DAILY_PROPOSALS,
    DEFAULT_RATE_PER_MINUTE,
    AgentClients,
    ClientError,
    Principal,
    local_principal,
)
from mailmoat.mcp.gateway import Gateway, Refused
from mailmoat.services.bootstrap import open_store
from mailmoat.store import Store

MCP_PATH = "/mcp"
__all__ = ["DEFAULT_DAILY_PROPOSALS", "DEFAULT_RATE_PER_MINUTE", "ClientError", "agent_clients",
           "mount_mcp", "serve_stdio", "stdio_principal"]


def agent_clients(store: Store | None = None) -> AgentClients:
    """The agent registry over the store (the default store when none is given)."""
    return AgentClients((store or open_store()).engine)


def stdio_principal(clients: AgentClients, accounts: Sequence[str],
                    agent: str | None) -> Callable[[], Principal]:
    """Who a stdio server acts as: the named agent (its scopes and limits, only the
    accounts both granted and named here) or, with no agent, the local user's default."""
    if agent is None:
        fixed = local_principal(accounts)
        return lambda: fixed
    first = clients.named(agent)
    missing = [a for a in accounts if a not in first.accounts]
    if missing:
        raise ClientError(f"agent {agent!r} is not granted {', '.join(missing)}")
    wanted = tuple(accounts) or first.accounts

    def resolve() -> Principal:
        try:  # re-read every call: a revoked agent stops at once
            now = clients.named(agent)
        except ClientError as exc:
            raise Refused(str(exc)) from None
        granted = tuple(a for a in wanted if a in now.accounts)
        if not granted:
            raise Refused(f"agent {agent!r} has no granted account left")
        return Principal(now.name, now.scopes, granted, now.rate_per_minute,
                         now.daily_proposals, "stdio")

    return resolve


def serve_stdio(accounts: Sequence[str], agent: str | None = None,
                store: Store | None = None) -> None:
    """Serve MCP on standard input/output until the client closes it."""
    from mailmoat.mcp.server import build_server, fixed_identity

    store = store or open_store()
    resolve = stdio_principal(AgentClients(store.engine), accounts, agent)
    resolve()  # refuse a bad start now, not at the first call
    build_server(Gateway(store), fixed_identity(resolve)).run("stdio")


def mount_mcp(app: Any, store: Store, host: str = "127.0.0.1") -> None:
    """Serve streamable HTTP MCP at /mcp in the (FastAPI/Starlette) web app, behind the
    bearer-token gate, and run the SDK's session manager inside the app's lifespan."""
    from starlette.routing import Route

    from mailmoat.mcp.server import BearerGate, build_server, http_identity

    clients = AgentClients(store.engine)
    server = build_server(Gateway(store), http_identity(clients))
    inner = server.streamable_http_app(streamable_http_path=MCP_PATH, host=host)
    app.router.routes.insert(0, Route(MCP_PATH, endpoint=BearerGate(inner, clients)))
    outer = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(target: Any) -> AsyncIterator[Any]:
        async with outer(target) as state, server.session_manager.run():
            yield state

    app.router.lifespan_context = lifespan
