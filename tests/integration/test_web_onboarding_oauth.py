"""XOAUTH2 from the web page: the form takes the token endpoint, the client id and secret
and a refresh token, seals both secrets as `mailmoat account add --auth xoauth2` does, and
the connection test and first sync exchange the refresh token at a real token endpoint on
loopback for an access token that logs in to mail-devel over AUTHENTICATE XOAUTH2. A refused
refresh token is named as the login step; nothing secret reaches a page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from mailmoat.accounts.oauth import TOKENS
from mailmoat.core.address_guard import AddressPolicy
from mailmoat.entrypoints.web.app import create_app
from mailmoat.mail.imap import ConnectError, vet_url_host
from mailmoat.services.bootstrap import open_store
from mailmoat.store.tables.accounts import AccountRow
from tests.integration.test_account_oauth import CLIENT_SECRET, REFRESH, TokenServer
from tests.support.imap_fixtures import make_message, running
from tests.support.mailserver import HOST, MailServer
from tests.support.webhelpers import first_sync_done, make_user, sign_in


@pytest.fixture
def oauth_server() -> Iterator[tuple[MailServer, TokenServer]]:
    with running(MailServer(xoauth2=True)) as server:
        tokens = TokenServer(issue=server.password)  # the test server's bearer token
        try:
            yield server, tokens
        finally:
            TOKENS.forget("work")
            tokens.close()


def _form(server: MailServer, tokens: TokenServer, **extra: object) -> dict[str, object]:
    return {"name": "work", "host": HOST, "port": server.imap_port, "tls": "plain",
            "username": server.user, "auth": "xoauth2", "token_endpoint": tokens.url,
            "client_id": "mailmoat-test", "client_secret": CLIENT_SECRET,
            "refresh_token": REFRESH, **extra}


def test_an_oauth_mailbox_added_on_the_page_tests_and_syncs(
        tmp_path: Path, oauth_server: tuple[MailServer, TokenServer]) -> None:
    server, tokens = oauth_server
    server.append(make_message(1, subject="over oauth from the web"))
    store = open_store(f"sqlite:///{tmp_path / 'm.db'}")
    make_user(store, "ann", ["local"])
    client = TestClient(create_app(store))
    csrf = sign_in(client, "ann")
    outlook = client.get("/accounts", params={"preset": "outlook"}).text
    assert "login.microsoftonline.com/common/oauth2/v2.0/token" in outlook
    assert 'id="acc-auth-oauth" checked' in outlook

    # Refused, nothing stored: a field missing; the refresh token sent in the clear.
    missing = client.post("/accounts", data={**_form(server, tokens, client_id=""),
                                             "csrf": csrf})
    assert missing.status_code == 400 and "OAuth needs the token endpoint" in missing.text
    clear = client.post("/accounts", data={
        **_form(server, tokens, token_endpoint="http://oauth.example.net/token"), "csrf": csrf})
    assert clear.status_code == 400 and "https://" in clear.text
    for page in (missing.text, clear.text):
        assert REFRESH not in page and CLIENT_SECRET not in page
        assert tokens.url.split("/token")[0] in page or "oauth.example.net" in page  # kept

    added = client.post("/accounts", data={**_form(server, tokens), "csrf": csrf},
                        follow_redirects=False)
    assert added.status_code == 303, added.text
    with store.sessions() as session:
        row = session.scalar(select(AccountRow).where(AccountRow.name == "work"))
        assert row is not None and row.auth == "xoauth2" and row.client_id == "mailmoat-test"
        assert REFRESH not in row.secret and row.client_secret
        assert CLIENT_SECRET not in row.client_secret
    assert client.get("/api/accounts").json()[0]["auth"] == "xoauth2"

    page = client.post("/accounts/work/test", data={"csrf": csrf}).text
    assert "Connection test: it works" in page and "log in</strong>: ok" in page
    assert tokens.requests[-1] == {"grant_type": "refresh_token", "refresh_token": REFRESH,
                                   "client_id": "mailmoat-test",
                                   "client_secret": CLIENT_SECRET}
    client.post("/accounts/work/sync", data={"csrf": csrf})
    state = first_sync_done(client, "work")
    assert state["state"] == "done" and state["created"] == 1, state
    assert "over oauth from the web" in client.get("/").text

    # The provider revokes the refresh token: the test names the login step, no secret.
    tokens.issue = None
    TOKENS.forget("work")
    with store.sessions.begin() as session:
        row = session.scalar(select(AccountRow).where(AccountRow.name == "work"))
        assert row is not None
        row.client_id = "someone-else"  # the endpoint now answers invalid_grant
    failed = client.post("/accounts/work/test", data={"csrf": csrf}).text
    assert "log in</strong>: failed" in failed and "refused the refresh token" in failed
    for secret in (REFRESH, CLIENT_SECRET, server.password):
        assert secret not in failed


def test_multi_user_mode_keeps_the_token_endpoint_off_the_internal_network(
        tmp_path: Path, oauth_server: tuple[MailServer, TokenServer],
        monkeypatch: pytest.MonkeyPatch) -> None:
    server, tokens = oauth_server
    store = open_store(f"sqlite:///{tmp_path / 'm.db'}")
    make_user(store, "ann", ["local"])
    client = TestClient(create_app(store))
    csrf = sign_in(client, "ann")
    client.post("/accounts", data={**_form(server, tokens), "csrf": csrf})
    monkeypatch.setenv("MAILMOAT_MULTI_USER", "1")
    page = client.post("/accounts/work/test", data={"csrf": csrf}).text
    assert "failed" in page and "the token endpoint 127.0.0.1 resolves to 127.0.0.1" in page
    assert tokens.requests == []  # the refresh token never left

    with pytest.raises(ConnectError) as caught:
        vet_url_host("https://10.1.2.3/token", AddressPolicy(multi_user=True))
    assert caught.value.stage == "guard"
    vet_url_host("https://10.1.2.3/token", AddressPolicy(multi_user=False))  # one person's
