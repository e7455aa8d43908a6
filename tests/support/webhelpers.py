"""Shared helpers for web tests: users, a signed-in TestClient, and a real uvicorn server on a
free loopback port (for the browser, schemathesis and notification receivers)."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from mailmoat.entrypoints.web.security import auth as web_auth
from mailmoat.store import Store
from mailmoat.store.repos import Repos
from mailmoat.store.users import User

PASSWORD = "a long test passphrase"  # a throwaway credential for in-test users
# Cheap argon2id parameters keep the suite fast on 2 cores; production keeps the library's.
web_auth.HASHER = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)


def make_user(store: Store, name: str, accounts: list[str], password: str = PASSWORD) -> User:
    return Repos(store).users.create(name, web_auth.hash_password(password), accounts)


def sign_in(client: TestClient, name: str, password: str = PASSWORD) -> str:
    """Sign in through the real form; returns the session's CSRF token."""
    page = client.get("/login")
    login_csrf = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert login_csrf is not None
    reply = client.post("/login", data={"username": name, "password": password,
                                        "csrf": login_csrf.group(1)}, follow_redirects=False)
    assert reply.status_code == 303, reply.text
    home = client.get("/")
    token = re.search(r'name="csrf" value="([^"]+)"', home.text)
    assert token is not None
    return token.group(1)


def first_sync_done(client: TestClient, account: str, timeout: float = 60.0) -> dict[str, Any]:
    """Poll the first sync's progress (GET /api/accounts/{account}/sync) until it ends."""
    deadline = time.monotonic() + timeout
    while (state := client.get(f"/api/accounts/{account}/sync").json())["state"] in (
            "starting", "running"):
        assert time.monotonic() < deadline, state
        time.sleep(0.2)
    return dict(state)


class LiveServer:
    """uvicorn serving `app` in a thread on 127.0.0.1 and a free port (`lifespan="on"` runs
    the app's startup, as `mailmoat up` does: the MCP session manager lives there)."""

    def __init__(self, app: Any, lifespan: str = "off") -> None:
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0,
                                                    log_level="warning", lifespan=lifespan))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def port(self) -> int:
        return int(self.server.servers[0].sockets[0].getsockname()[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@contextmanager
def live_server(app: Any) -> Iterator[LiveServer]:
    server = LiveServer(app).start()
    try:
        yield server
    finally:
        server.stop()


class FakeApprovals:
    """In-memory pending actions: proves the approvals pages against the protocol until act/
    provides the real store (the executor is not the web layer's job)."""

    def __init__(self, account: str = "local") -> None:
        import hashlib

        from mailmoat.entrypoints.web.approvals import PendingAction

        payload = ('{"action":"send_email","to":"priya@example.org",'
                   '"subject":"Re: checkout is down","body":"On it, rolling back now."}')
        self.account = account
        self.items = {"a1": PendingAction(
            id="a1", kind="send_email", message_id=1, summary="reply to Priya Raman",
            payload=payload, payload_sha256=hashlib.sha256(payload.encode()).hexdigest(),
            draft_diff="-Looking into it.\n+On it, rolling back now.",
            created_at="2026-12-03T08:00:00+00:00")}
        self.decisions: list[tuple[str, str, str, str]] = []

    def list(self, account: str) -> list[Any]:
        return list(self.items.values()) if account == self.account else []

    def show(self, account: str, action_id: str) -> Any:
        return self.items.get(action_id) if account == self.account else None

    def approve(self, account: str, action_id: str, actor: str,
                expected_sha256: str | None = None) -> Any:
        return self._decide(account, action_id, actor, "approved", "")

    def reject(self, account: str, action_id: str, actor: str, reason: str) -> Any:
        return self._decide(account, action_id, actor, "rejected", reason)

    def _decide(self, account: str, action_id: str, actor: str, what: str, reason: str) -> Any:
        from mailmoat.entrypoints.web.approvals import ApprovalOutcome

        if account != self.account or self.items.pop(action_id, None) is None:
            return ApprovalOutcome(False, "no such pending action")
        self.decisions.append((action_id, actor, what, reason))
        return ApprovalOutcome(True, what)


@pytest.fixture
def store(tmp_path: Path) -> Store:
    """The demo mailbox in a fresh SQLite store, with user ann on account `local`."""
    from mailmoat.demo import import_demo
    from mailmoat.services.bootstrap import open_store

    store = open_store(f"sqlite:///{tmp_path / 'web.db'}")
    import_demo(store)
    make_user(store, "ann", ["local"])
    return store


@pytest.fixture
def client(store: Store) -> TestClient:
    """Ann, signed in; `client.csrf` holds her session's CSRF token."""
    from mailmoat.entrypoints.web.app import create_app

    client = TestClient(create_app(store))
    client.csrf = sign_in(client, "ann")  # type: ignore[attr-defined]
    return client
