"""The connection to one MCP server through the official `mcp` SDK client (the I/O shell).

A stdio server is started with `stdio_client` (its stderr goes to a temporary file, so the
last lines can explain a crash); an HTTP server is reached with `streamable_http_client` over an
httpx2 client that carries the configured headers and notes each HTTP status, because the SDK
turns an error status into a generic JSON-RPC error. Every step runs under the server's timeout.
Failures come back as `ProbeError` with a plain message: what failed, why, and for a process
the tail of its stderr. Nothing here decides pass or fail.
"""

from __future__ import annotations

import math
import tempfile
import time
from collections.abc import AsyncIterator, Mapping
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from typing import Any, TextIO

import anyio
import httpx2
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.exceptions import MCPError
from mcp_types import CONNECTION_CLOSED, REQUEST_TIMEOUT, Implementation, PaginatedRequestParams

from . import __version__
from .config import ServerSpec
from .retry import HTTP, JSONRPC, SHAPE, TIMEOUT, TRANSPORT, AttemptError

CLIENT_INFO = Implementation(name="mcp-probe", version=__version__)
_STDERR_TAIL = 600
_MAX_PAGES = 50


class ProbeError(Exception):
    """A step against the server failed; `error` says how."""

    def __init__(self, step: str, error: AttemptError) -> None:
        super().__init__(f"{step}: {error.message}")
        self.step = step
        self.error = error


@dataclass(frozen=True, slots=True)
class CallResult:
    """A tool's answer, reduced to what a receipt may hold (no content text)."""

    is_error: bool
    structured: Any
    content_types: tuple[str, ...]
    error_text: str  # the first text block of an error result, for the receipt (redacted later)
    raw: dict[str, Any]


class _HttpStatus:
    """Remembers the last HTTP status the server answered with (requests run one at a time)."""

    def __init__(self) -> None:
        self.last: int | None = None
        self.reason: str = ""

    async def hook(self, response: httpx2.Response) -> None:
        if response.request.method == "POST":
            self.last = response.status_code
            self.reason = response.reason_phrase or ""

    def take(self) -> tuple[int | None, str]:
        status, reason = self.last, self.reason
        self.last, self.reason = None, ""
        return status, reason


def _stderr_tail(log: TextIO | None) -> str:
    if log is None:
        return ""
    try:
        log.flush()
        log.seek(0)
        text = log.read()
    except (OSError, ValueError):
        return ""
    text = text.strip()
    if len(text) > _STDERR_TAIL:
        text = "..." + text[-_STDERR_TAIL:]
    return text


class Connection:
    """One initialized session. Use `connect(spec)`; every call returns or raises ProbeError."""

    def __init__(self, spec: ServerSpec, session: ClientSession, status: _HttpStatus | None,
                 stderr: TextIO | None, noise: _Noise) -> None:
        self.spec = spec
        self._noise = noise
        self.session = session
        self._status = status
        self._stderr = stderr
        self.server_info: dict[str, Any] = {}
        self.protocol_version: str | None = None
        self.capabilities: dict[str, Any] = {}
        self.instructions: str | None = None

    def _error(self, exc: BaseException, step: str, timeout_s: float) -> AttemptError:
        status, reason = self._status.take() if self._status is not None else (None, "")
        timed_out = isinstance(exc, MCPError) and exc.code == REQUEST_TIMEOUT
        if isinstance(exc, TimeoutError) or timed_out:
            return AttemptError(TIMEOUT, f"no answer within {timeout_s:g}s", status=status)
        if status is not None and status >= 400:
            code = exc.code if isinstance(exc, MCPError) else None
            return AttemptError(HTTP, f"HTTP {status} {reason}".strip(), status=status, code=code)
        if isinstance(exc, MCPError):
            if exc.code == CONNECTION_CLOSED:
                msg = "the server closed the connection"
                if self._noise.first is not None:
                    msg = (f"not an MCP server: it wrote {self._noise.first!r} on stdout (not "
                           f"JSON-RPC), then {msg}")
                tail = _stderr_tail(self._stderr)
                return AttemptError(TRANSPORT, f"{msg}; stderr: {tail}" if tail else msg)
            msg = f"JSON-RPC error {exc.code}: {exc.message}"
            if step == "initialize":
                msg += " (is this an MCP server?)"
            elif step == "server/discover":
                msg += (' (does the server speak the 2026-07-28 protocol? "protocol": '
                        '"handshake" uses initialize)')
            if self._noise.first is not None:
                msg += f"; it also wrote {self._noise.first!r} on stdout (not JSON-RPC)"
            return AttemptError(JSONRPC, msg, code=exc.code)
        if isinstance(exc, RuntimeError) and "structured content" in str(exc).lower():
            return AttemptError(SHAPE, str(exc))
        return AttemptError(TRANSPORT, f"{type(exc).__name__}: {exc}")

    async def _run(self, step: str, timeout_s: float, fn: Any, *args: Any, **kw: Any) -> Any:
        if self._status is not None:
            self._status.take()
        try:
            with anyio.fail_after(timeout_s + 1.0):
                return await fn(*args, **kw)
        except (MCPError, TimeoutError, RuntimeError, OSError, httpx2.HTTPError) as e:
            raise ProbeError(step, self._error(e, step, timeout_s)) from None

    async def initialize(self) -> None:
        """The handshake (`initialize`), or with protocol "modern" `server/discover`."""
        if self.spec.protocol == "modern":
            found = await self._run("server/discover", self.spec.timeout_s, self.session.discover)
            info = self.session.server_info
            self.server_info = info.model_dump(mode="json", exclude_none=True) if info else {}
            capabilities = found.capabilities
            self.instructions = found.instructions
        else:
            result = await self._run("initialize", self.spec.timeout_s, self.session.initialize)
            self.server_info = result.server_info.model_dump(mode="json", exclude_none=True)
            capabilities = result.capabilities
            self.instructions = result.instructions
        self.protocol_version = self.session.protocol_version
        self.capabilities = capabilities.model_dump(mode="json", by_alias=True, exclude_none=True)

    async def list_tools(self) -> list[dict[str, Any]]:
        tools: list[dict[str, Any]] = []
        cursor: str | None = None
        for _ in range(_MAX_PAGES):
            params = PaginatedRequestParams(cursor=cursor) if cursor else None
            page = await self._run(
                "tools/list", self.spec.timeout_s, self.session.list_tools, params=params
            )
            tools += [
                t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in page.tools
            ]
            cursor = page.next_cursor
            if not cursor:
                return tools
        raise ProbeError("tools/list", AttemptError(
            TRANSPORT, f"the listing did not end after {_MAX_PAGES} pages"))

    async def call_tool(self, name: str, arguments: Mapping[str, Any], timeout_s: float
                        ) -> CallResult:
        result = await self._run(
            f"tools/call {name}", timeout_s, self.session.call_tool, name, dict(arguments),
            read_timeout_seconds=timeout_s,
        )
        raw = result.model_dump(mode="json", by_alias=True, exclude_none=True)
        types = tuple(str(getattr(block, "type", "?")) for block in result.content)
        text = ""
        if result.is_error:
            for block in result.content:
                if getattr(block, "type", None) == "text":
                    text = str(block.text)
                    break
        return CallResult(
            is_error=bool(result.is_error), structured=result.structured_content,
            content_types=types, error_text=text, raw=raw,
        )


def _spawn_error(spec: ServerSpec, exc: BaseException) -> ProbeError:
    if isinstance(exc, FileNotFoundError):
        msg = f"cannot start {spec.command!r}: command not found"
    elif isinstance(exc, PermissionError):
        msg = f"cannot start {spec.command!r}: permission denied"
    else:
        msg = f"cannot start {spec.command!r}: {exc}"
    return ProbeError("start", AttemptError(TRANSPORT, msg))


def _leaves(exc: BaseException) -> list[BaseException]:
    if isinstance(exc, BaseExceptionGroup):
        out: list[BaseException] = []
        for inner in exc.exceptions:
            out += _leaves(inner)
        return out
    return [exc]


def _as_probe_error(spec: ServerSpec, exc: BaseException) -> ProbeError | None:
    """The one failure to report from whatever the SDK's task groups raised."""
    leaves = _leaves(exc)
    for leaf in leaves:
        if isinstance(leaf, ProbeError):
            return leaf
    for leaf in leaves:
        if isinstance(leaf, httpx2.ConnectError | httpx2.ConnectTimeout):
            return ProbeError("connect", AttemptError(
                TRANSPORT, f"cannot reach {spec.url}: {leaf or 'connection failed'}"))
        if isinstance(leaf, httpx2.HTTPError | OSError):
            return ProbeError("connect", AttemptError(TRANSPORT, f"{type(leaf).__name__}: {leaf}"))
    return None


class _Noise:
    """Collects what a stdio server wrote on stdout that was not JSON-RPC."""

    def __init__(self) -> None:
        self.first: str | None = None
        self.count = 0

    async def handler(self, message: Any) -> None:
        if isinstance(message, Exception):
            self.count += 1
            if self.first is None:
                text = str(message)
                marker = "input_value="
                if marker in text:
                    text = text.split(marker, 1)[1].split(", input_type=", 1)[0].strip("'\"")
                self.first = text[:200]


@asynccontextmanager
async def connect(spec: ServerSpec) -> AsyncIterator[Connection]:
    """Start or reach the server, open a session and initialize it (within the timeout)."""
    try:
        async with _open(spec) as conn:
            yield conn
    except ProbeError:
        raise
    except BaseException as e:  # the SDK's task groups wrap failures in exception groups
        found = _as_probe_error(spec, e)
        if found is None:
            raise
        raise found from None


@asynccontextmanager
async def _open(spec: ServerSpec) -> AsyncIterator[Connection]:
    async with AsyncExitStack() as stack:
        stderr: TextIO | None = None
        status: _HttpStatus | None = None
        noise = _Noise()
        if spec.transport == "stdio":
            if spec.cwd is not None and not spec.cwd.is_dir():
                raise ProbeError("start", AttemptError(
                    TRANSPORT, f"cannot start {spec.command!r}: its working directory "
                    f"{spec.cwd} does not exist"))
            stderr = stack.enter_context(
                tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace")  # noqa: SIM115
            )
            params = StdioServerParameters(
                command=spec.command, args=list(spec.args), env=dict(spec.env),
                cwd=str(spec.cwd) if spec.cwd else None,
            )
            try:
                streams = await stack.enter_async_context(stdio_client(params, errlog=stderr))
            except OSError as e:
                raise _spawn_error(spec, e) from None
        else:
            status = _HttpStatus()
            timeout = httpx2.Timeout(spec.timeout_s, read=max(spec.timeout_s, 30.0))
            http = create_mcp_http_client(headers=dict(spec.headers), timeout=timeout)
            http.event_hooks = {"request": [], "response": [status.hook]}
            await stack.enter_async_context(http)
            streams = await stack.enter_async_context(
                streamable_http_client(spec.url, http_client=http)
            )
        read, write = streams
        session = await stack.enter_async_context(ClientSession(
            read, write, read_timeout_seconds=spec.timeout_s, client_info=CLIENT_INFO,
            message_handler=noise.handler,
        ))
        conn = Connection(spec, session, status, stderr, noise)
        await conn.initialize()
        yield conn


def elapsed_ms(start: float) -> int:
    return math.ceil((time.perf_counter() - start) * 1000)


