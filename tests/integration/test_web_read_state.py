"""Read and unread as the person sets them in the web page: opening a message marks it read,
"Mark unread" and the API toggle it; on an IMAP account (mail-devel here) the server's \\Seen
flag follows through the reversible-action path (an approved mark_read / mark_unread that
the worker's ReversibleApplier carries out), seen by a separate IMAP client as the person's
own mail app would see it. Mail imported from files changes only in the store."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from mailmoat.act.reversible import ReversibleApplier
from mailmoat.entrypoints.web.app import create_app
from mailmoat.mail.runner import sync_once
from mailmoat.store import Store
from mailmoat.store.repos import Repos
from mailmoat.store.tables.act import ActionRow
from mailmoat.store.tables.messages import MessageRow
from tests.support.act_support import add_mail_account, incoming, rig, secret_key
from tests.support.mailserver import MailServer
from tests.support.webhelpers import make_user, sign_in


def _server_seen(server: MailServer) -> bool:
    client = server.imap()
    try:
        client.select_folder("INBOX", readonly=True)
        flags = client.get_flags(client.search(["ALL"]))
    finally:
        client.logout()
    (only,) = flags.values()
    return b"\\Seen" in only


def test_read_state_follows_the_person_and_reaches_the_imap_server(
        mail_server: MailServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    server = mail_server
    server.append(incoming(subject="Budget for Q3", message_id="<q3@client.example>"))
    r = rig(f"sqlite:///{tmp_path / 'm.db'}")
    ring = secret_key(monkeypatch)
    account = add_mail_account(r.store, ring, server)
    sync_once(r.store, ring, account)
    with r.store.sessions() as session:
        message = session.scalar(select(MessageRow.id).where(MessageRow.account == "acct"))
    assert message is not None
    state = Repos(r.store).read_state
    assert state.get(message, "acct") is False and not _server_seen(server)
    make_user(r.store, "ann", ["acct"])
    client = TestClient(create_app(r.store))
    csrf = sign_in(client, "ann")
    assert 'class="unread"' in client.get("/").text

    assert client.get(f"/message/{message}").status_code == 200  # opening reads it
    assert state.get(message, "acct") is True
    assert 'class="unread"' not in client.get("/").text
    assert not _server_seen(server)  # not yet: the worker applies it
    applier = ReversibleApplier(r.store, ring)
    assert list(applier.run(account).values()) == ["done"]
    assert _server_seen(server)
    client.get(f"/message/{message}")  # already read: nothing more for the server
    with r.store.sessions() as session:
        assert len(session.scalars(select(ActionRow)).all()) == 1

    back = client.post(f"/message/{message}/read", data={"csrf": csrf, "read": "0"},
                       follow_redirects=False)
    assert back.status_code == 303 and back.headers["location"] == "/?done=marked_unread"
    assert state.get(message, "acct") is False
    assert list(applier.run(account).values()) == ["done"]
    assert not _server_seen(server)
    # A sync pass afterwards keeps the person's state (the server now says the same).
    sync_once(r.store, ring, account)
    assert state.get(message, "acct") is False

    api = client.post(f"/api/messages/{message}/read", json={"read": True},
                      headers={"x-csrf-token": csrf})
    assert api.json() == {"message_id": message, "read": True, "changed": True}
    assert list(applier.run(account).values()) == ["done"]
    assert _server_seen(server)
    # Refused: no CSRF token; a value other than 0 or 1.
    assert client.post(f"/message/{message}/read", data={"read": "0"}).status_code == 403
    assert client.post(f"/message/{message}/read",
                       data={"csrf": csrf, "read": "x"}).status_code == 422


def test_imported_mail_changes_only_in_the_store(store: Store) -> None:
    client = TestClient(create_app(store))
    csrf = sign_in(client, "ann")
    first = store.list_messages("PUSH")[0]["id"]
    state = Repos(store).read_state
    client.post(f"/message/{first}/read", data={"csrf": csrf, "read": "0"})
    assert state.get(first, "local") is False
    client.get(f"/message/{first}")
    assert state.get(first, "local") is True
    with store.sessions() as session:
        assert session.scalars(select(ActionRow)).all() == []  # no server to tell
    other = store.ingest(b"From: x@y.example\nSubject: theirs\n\nhi", "eml",
                         account="bob").message_id
    assert client.post(f"/api/messages/{other}/read", json={"read": True},
                       headers={"x-csrf-token": csrf}).status_code == 404
    assert state.get(other, "bob") is None
