"""A scripted OpenAI-compatible server for tests: FastAPI + uvicorn in a thread, loopback,
free port. Every request is recorded; every reply is scripted.

    with LLMServer() as server:
        server.enqueue(error(429, "slow down", retry_after="30"), ok(urgency=0.9))
        server.respond_with(obeying)         # or any callable(request) -> Reply
        ... base_url=server.base_url ...
        server.requests[0].json["messages"]

Replies come from the queue for the request's model, then the shared queue, then the
handler (default: a valid, calm reply). Failure modes have helpers: `error` (any status,
OpenAI-style error body, Retry-After), `no_endpoints`, `model_not_found`, `ok` with any
numbers (out of range, extra fields, a lane name), `content` (prose, fences, truncated
JSON), `delay_s` on any reply (slow answers and timeouts).
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

from tests.support.mailserver import HOST, free_port


@dataclass(frozen=True)
class Recorded:
    path: str
    headers: dict[str, str]
    json: dict[str, Any]

    @property
    def model(self) -> str:
        return str(self.json.get("model", ""))

    @property
    def prompt_text(self) -> str:
        return "\n".join(str(m.get("content", "")) for m in self.json.get("messages", []))


@dataclass(frozen=True)
class Reply:
    status: int = 200
    content: str | None = None  # the assistant message (status 200)
    body: Any = None  # a whole JSON body, instead of a completion
    raw: bytes | None = None  # raw bytes, instead of any JSON
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    usage: bool = True  # include usage token counts
    cost: float | None = None  # usage.cost, as OpenRouter reports it
    finish_reason: str = "stop"


def ok(confidence: float = 0.8, sender_trust: float = 0.5, reversibility: float = 0.8,
       urgency: float = 0.2, reason: str = "scripted reply", **extra: Any) -> Reply:
    data: dict[str, Any] = {"confidence": confidence, "sender_trust": sender_trust,
                            "reversibility": reversibility, "urgency": urgency,
                            "reason": reason, **extra}
    return Reply(content=json.dumps(data))


def content(text: str, **kwargs: Any) -> Reply:
    return Reply(content=text, **kwargs)


def error(status: int, message: str = "error", code: Any = None,
          retry_after: str | None = None, **kwargs: Any) -> Reply:
    headers = {"Retry-After": retry_after} if retry_after is not None else {}
    body = {"error": {"message": message, "type": "error", "code": code if code else status}}
    return Reply(status=status, body=body, headers=headers, **kwargs)


def no_endpoints(model: str = "m") -> Reply:
    return error(404, f"No endpoints found for {model}.")


def model_not_found(model: str = "m") -> Reply:
    return error(400, f"The model `{model}` does not exist", code="model_not_found")


def calm(_: Recorded) -> Reply:
    return ok()


def obeying(request: Recorded) -> Reply:
    """A model that does what the email says: returns the last JSON object in the user turn
    verbatim (or a calm reply when there is none). For adversarial suites."""
    text = str(request.json.get("messages", [{}])[-1].get("content", ""))
    decoder = json.JSONDecoder()
    found = None
    for start in (i for i, ch in enumerate(text) if ch == "{"):
        try:
            value, _ = decoder.raw_decode(text[start:])
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            found = value
    return content(json.dumps(found)) if found is not None else ok()


def obedient_model(request: Recorded) -> Reply:
    """The adversarial suite's fully obedient model (eval/adversarial/obedient.py) behind
    HTTP: it answers whatever the email in the user turn asks for, lane key included."""
    from mailmoat.eval.adversarial.obedient import answer_json

    text = str(request.json.get("messages", [{}])[-1].get("content", ""))
    return content(answer_json(text))


def _tokens(text: str) -> int:
    return max(1, len(text) // 4)


class LLMServer:
    def __init__(self, handler: Callable[[Recorded], Reply] = calm) -> None:
        self.port = free_port()
        self.handler = handler
        self.requests: list[Recorded] = []
        self.sent_usage: list[dict[str, Any]] = []  # the usage numbers every reply carried
        # model -> (USD per Mtok in, out): replies then carry usage.cost, as OpenRouter's do.
        self.catalogue: dict[str, tuple[float, float]] = {}
        # How replies count tokens: about 4 characters per token by default. A budget test
        # sets a heavier count (one token per byte, every allowed completion token), so the
        # server reports MORE than mailmoat's own estimate, as real tokenizers often do.
        self.count_prompt: Callable[[str], int] = _tokens
        self.count_completion: Callable[[Recorded, str], int] = lambda _r, text: _tokens(text)
        self._queue: deque[Reply] = deque()
        self._by_model: dict[str, deque[Reply]] = {}
        self._lock = threading.Lock()
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        return f"http://{HOST}:{self.port}/v1"

    def enqueue(self, *replies: Reply, model: str | None = None) -> None:
        with self._lock:
            target = self._queue if model is None else self._by_model.setdefault(model, deque())
            target.extend(replies)

    def reset(self, handler: Callable[[Recorded], Reply] = calm) -> None:
        """Forget requests and scripts (for a server shared by several tests)."""
        with self._lock:
            self.requests.clear()
            self.sent_usage.clear()
            self._queue.clear()
            self._by_model.clear()
            self.catalogue.clear()
            self.count_prompt = _tokens
            self.count_completion = lambda _r, text: _tokens(text)
            self.handler = handler

    def respond_with(self, handler: Callable[[Recorded], Reply]) -> None:
        self.handler = handler

    def chat_requests(self, model: str | None = None) -> list[Recorded]:
        return [r for r in self.requests if r.path.endswith("/chat/completions")
                and (model is None or r.model == model)]

    def _next(self, request: Recorded) -> Reply:
        with self._lock:
            queue = self._by_model.get(request.model)
            if queue:
                return queue.popleft()
            if self._queue:
                return self._queue.popleft()
        return self.handler(request)

    def _app(self) -> FastAPI:
        app = FastAPI()

        @app.get("/v1/models")
        async def models() -> dict[str, Any]:
            return {"object": "list", "data": [{"id": "scripted", "object": "model"}]}

        @app.post("/v1/chat/completions")
        async def chat(request: Request) -> Response:
            try:
                payload = await request.json()
            except ValueError:
                payload = {}
            recorded = Recorded(request.url.path, dict(request.headers), payload)
            with self._lock:
                self.requests.append(recorded)
            reply = self._next(recorded)
            if reply.delay_s:
                await asyncio.sleep(reply.delay_s)
            if reply.raw is not None:
                return Response(reply.raw, status_code=reply.status, headers=reply.headers,
                                media_type="application/json")
            if reply.body is not None:
                return JSONResponse(reply.body, status_code=reply.status, headers=reply.headers)
            return JSONResponse(self._completion(recorded, reply), status_code=reply.status,
                                headers=reply.headers)

        return app

    def _completion(self, request: Recorded, reply: Reply) -> dict[str, Any]:
        text = reply.content or ""
        body: dict[str, Any] = {
            "id": "chatcmpl-scripted",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": request.model,
            "choices": [{"index": 0, "finish_reason": reply.finish_reason,
                         "message": {"role": "assistant", "content": reply.content}}],
        }
        if reply.usage:
            prompt = self.count_prompt(request.prompt_text)
            completion = self.count_completion(request, text)
            body["usage"] = {"prompt_tokens": prompt, "completion_tokens": completion,
                             "total_tokens": prompt + completion}
            if reply.cost is not None:
                body["usage"]["cost"] = reply.cost
            elif request.model in self.catalogue:
                rate_in, rate_out = self.catalogue[request.model]
                body["usage"]["cost"] = (prompt * rate_in + completion * rate_out) / 1e6
            with self._lock:  # a reply to a request from before reset() (a slow reply an
                # earlier test gave up on) is not this test's usage
                if any(r is request for r in self.requests):
                    self.sent_usage.append({"model": request.model, **body["usage"]})
        return body

    def start(self) -> LLMServer:
        config = uvicorn.Config(self._app(), host=HOST, port=self.port, log_level="warning",
                                timeout_graceful_shutdown=1, lifespan="off")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("scripted LLM server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)

    def __enter__(self) -> LLMServer:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()
