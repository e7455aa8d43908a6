"""Who may read which mailbox: the first web user reads every mail account, others by grant."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from mailmoat.accounts.registry import AccountSettings, add_account
from mailmoat.accounts.secrets import load_key_ring
from mailmoat.entrypoints.cli.mail import _show_to_the_only_user
from mailmoat.entrypoints.web.app import create_app
from mailmoat.services.bootstrap import open_store
from mailmoat.services.people import default_accounts
from mailmoat.store.repos import Repos
from tests.support.webhelpers import make_user, sign_in

MAIL = (b"From: ann@example.com\r\nTo: me@example.org\r\nSubject: work mail\r\n\r\nhello\r\n")


def test_first_user_reads_every_account_and_grants_reach_the_others(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'mm.db'}")
    assert default_accounts(store) == ["local"]
    ring = load_key_ring(tmp_path / "key")
    add_account(store, ring, AccountSettings("work", "127.0.0.1", 1143, "me"), "pw-for-test")
    assert default_accounts(store) == ["local", "work"]

    web = Repos(store, sealer=load_key_ring())
    assert not web.users.grant("nobody", "work")
    make_user(store, "ann", ["local"])
    _show_to_the_only_user(store, "work")  # what `account add` does with one web user
    assert web.users.get("ann").accounts == ("local", "work")  # type: ignore[union-attr]

    mid = store.ingest(MAIL, "imap", account="work").message_id
    make_user(store, "bob", ["bob"])
    bob = TestClient(create_app(store))
    sign_in(bob, "bob")
    assert bob.get(f"/api/messages/{mid}").status_code == 404
    assert web.users.grant("bob", "work") and web.users.grant("bob", "work")  # idempotent
    bob_again = TestClient(create_app(store))
    sign_in(bob_again, "bob")
    switch = bob_again.get("/api/session").json()
    assert "work" in switch["accounts"]
