"""XOAUTH2 refresh-token exchange against a small real HTTP token server on loopback."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs

import pytest

from mailmoat.accounts.oauth import REFRESH_MARGIN_S, TokenCache, TokenError, TokenRequest
from mailmoat.accounts.registry import AccountSettings, add_account, login_secret
from mailmoat.accounts.secrets import ENV_KEY, load_key_ring
from mailmoat.services.bootstrap import open_store

REFRESH = "rt-very-secret-refresh-token"
CLIENT_SECRET = "cs-also-secret"


class TokenServer:
    """Answers the refresh_token grant (RFC 6749 section 6) and records each request."""

    def __init__(self, lifetime: int = 3600, issue: str | None = None) -> None:
        self.requests: list[dict[str, str]] = []
        self.lifetime = lifetime
        self.issue = issue  # the access token to hand out (default: at-1, at-2, ...)
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}
                owner.requests.append(form)
                ok = (form.get("grant_type") == "refresh_token"
                      and form.get("refresh_token") == REFRESH
                      and form.get("client_id") == "mailmoat-test")
                token = owner.issue or f"at-{len(owner.requests)}"
                body = ({"access_token": token, "token_type": "Bearer",
                         "expires_in": owner.lifetime} if ok else {"error": "invalid_grant"})
                data = json.dumps(body).encode()
                self.send_response(200 if ok else 400)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *_args: object) -> None:
                return None

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/token"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def token_server() -> Iterator[TokenServer]:
    server = TokenServer()
    try:
        yield server
    finally:
        server.close()


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_exchange_caches_and_refreshes_before_expiry(token_server: TokenServer) -> None:
    clock = Clock()
    cache = TokenCache(clock)
    request = TokenRequest(token_server.url, "mailmoat-test", REFRESH, CLIENT_SECRET, "mail")
    assert cache.get("work", request) == "at-1"
    assert token_server.requests[0] == {
        "grant_type": "refresh_token", "refresh_token": REFRESH, "client_id": "mailmoat-test",
        "client_secret": CLIENT_SECRET, "scope": "mail"}
    clock.now += 3600 - REFRESH_MARGIN_S - 1
    assert cache.get("work", request) == "at-1"  # still fresh: no new request
    assert len(token_server.requests) == 1
    clock.now += 2  # inside the margin: renewed before it expires
    assert cache.get("work", request) == "at-2"


def test_refused_refresh_token_is_a_clear_error_without_secrets(
    token_server: TokenServer,
) -> None:
    request = TokenRequest(token_server.url, "mailmoat-test", "wrong-token", CLIENT_SECRET)
    with pytest.raises(TokenError) as caught:
        TokenCache().get("work", request)
    message = str(caught.value)
    assert "HTTP 400 invalid_grant" in message
    assert "wrong-token" not in message and CLIENT_SECRET not in message
    token_server.close()
    with pytest.raises(TokenError, match="unreachable"):
        TokenCache().get("work", TokenRequest(token_server.url, "mailmoat-test", REFRESH))


def test_account_login_secret_uses_the_sealed_refresh_token(
    tmp_path: Path, token_server: TokenServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ENV_KEY, raising=False)
    store = open_store(f"sqlite:///{tmp_path / 'm.db'}")
    ring = load_key_ring(tmp_path / "k")
    account = add_account(store, ring, AccountSettings(
        name="gmail", host="imap.example.org", port=993, username="me@example.org",
        auth="xoauth2", token_endpoint=token_server.url, client_id="mailmoat-test"),
        REFRESH, client_secret=CLIENT_SECRET)
    cache = TokenCache()
    assert login_secret(store, ring, account, cache) == "at-1"
    assert token_server.requests[0]["client_secret"] == CLIENT_SECRET
    assert login_secret(store, ring, account, cache) == "at-1"


def test_xoauth2_sync_end_to_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                caplog: pytest.LogCaptureFixture) -> None:
    """Refresh token -> our token endpoint -> access token -> AUTHENTICATE XOAUTH2 -> sync."""
    import logging

    caplog.set_level(logging.DEBUG)
    from mailmoat.accounts.oauth import TOKENS
    from mailmoat.mail.imap import ConnectError
    from mailmoat.mail.runner import sync_once
    from tests.support.imap_fixtures import make_message, running
    from tests.support.mailserver import MailServer

    monkeypatch.delenv(ENV_KEY, raising=False)
    with running(MailServer(xoauth2=True)) as server:
        # The test server accepts its password as the bearer token.
        tokens = TokenServer(issue=server.password)
        try:
            server.append(make_message(1, subject="over oauth"))
            store = open_store(f"sqlite:///{tmp_path / 'm.db'}")
            ring = load_key_ring(tmp_path / "k")
            account = add_account(store, ring, AccountSettings(
                name="oauth", host=server.host, port=server.imap_port, tls="plain",
                username=server.user, auth="xoauth2", token_endpoint=tokens.url,
                client_id="mailmoat-test"), REFRESH)
            TOKENS.forget("oauth")
            report = sync_once(store, ring, account)
            assert report.created == 1 and store.count("oauth") == 1
            assert tokens.requests[0]["refresh_token"] == REFRESH

            tokens.issue = "an-access-token-the-server-rejects"
            TOKENS.forget("oauth")
            with pytest.raises(ConnectError) as caught:
                sync_once(store, ring, account)
            assert caught.value.stage == "auth"
            assert tokens.issue not in str(caught.value) and REFRESH not in str(caught.value)
            assert caplog.records
            for secret in (REFRESH, server.password, tokens.issue):
                assert secret not in caplog.text, "a secret reached the logs"
        finally:
            TOKENS.forget("oauth")
            tokens.close()
