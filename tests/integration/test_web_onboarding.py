"""Onboarding from the web page against the real mail-devel IMAP server: from "no mailbox"
to a sealed account, a step-by-step connection test, the first sync, and its mail in the
decision queue; another person can neither see nor touch the account."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import select

from mailmoat.demo import import_demo
from mailmoat.entrypoints.web.app import create_app
from mailmoat.services.bootstrap import open_store
from mailmoat.store.demo_mailbox import demo_only
from mailmoat.store.tables.accounts import AccountRow
from tests.support.mailserver import HOST, MailServer, free_port
from tests.support.webhelpers import first_sync_done, make_user, sign_in

URGENT = (b"From: Priya Raman <priya@acme.example>\r\nTo: test@example.org\r\n"
          b"Subject: Production outage: payments failing now\r\n"
          b"Message-ID: <outage-1@acme.example>\r\n\r\n"
          b"Urgent: payments are failing for all customers, please call me ASAP.\r\n")


def _form(server: MailServer, **extra: object) -> dict[str, object]:
    return {"name": "work", "host": HOST, "port": server.imap_port, "tls": "plain",
            "username": server.user, "password": server.password, "smtp_host": HOST,
            "smtp_port": server.smtp_port, "smtp_tls": "plain", **extra}


def test_from_no_mailbox_to_its_first_lanes(tmp_path: Path, mail_server: MailServer) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'onboard.db'}")
    import_demo(store)  # what `make run` shows before any account exists
    make_user(store, "ann", ["local"])
    make_user(store, "bob", ["bob"])
    mail_server.deliver(URGENT)
    client = TestClient(create_app(store))
    csrf = sign_in(client, "ann")
    assert "No mailbox is connected yet" in client.get("/").text
    fastmail = client.get("/accounts", params={"preset": "fastmail"}).text
    assert 'value="imap.fastmail.com"' in fastmail and "app password" in fastmail

    # A refused form keeps what was typed (never the password) and says why.
    refused = client.post("/accounts", data={**_form(mail_server, host="imap.example.org"),
                                             "csrf": csrf})
    assert refused.status_code == 400 and "loopback" in refused.text
    assert mail_server.password not in refused.text

    added = client.post("/accounts", data={**_form(mail_server), "csrf": csrf},
                        follow_redirects=False)
    assert added.status_code == 303 and added.headers["location"].startswith("/accounts/work")
    with store.sessions() as session:
        sealed = session.scalar(select(AccountRow.secret).where(AccountRow.name == "work"))
    assert sealed and mail_server.password not in sealed  # sealed, as the CLI seals it

    page = client.post("/accounts/work/test", data={"csrf": csrf}).text
    assert "Connection test: it works" in page
    assert "log in</strong>: ok" in page and "INBOX holds 1 messages" in page
    assert "secure the connection (TLS)</strong>: skipped" in page

    client.post("/accounts/work/sync", data={"csrf": csrf})
    state = first_sync_done(client, "work")
    assert state["state"] == "done" and state["created"] == 1, state
    assert "Done: 1 new message, each in its lane" in client.get("/accounts/work").text
    home = client.get("/").text  # the view switched to the new mailbox
    assert "Production outage: payments failing now" in home
    assert "No mailbox is connected yet" not in home

    bob = TestClient(create_app(store))
    bob_csrf = sign_in(bob, "bob")
    assert bob.get("/accounts/work").status_code == 404
    assert bob.post("/accounts/work/remove", data={"csrf": bob_csrf}).status_code == 404
    assert bob.get("/api/accounts").json() == []
    # Bob cannot take over a name whose mail is stored, to be granted its record.
    taken = bob.post("/api/accounts", json={**_form(mail_server), "name": "work"},
                     headers={"X-CSRF-Token": bob_csrf})
    assert taken.status_code == 400 and "stored under the name" in taken.json()["detail"]

    # With a mailbox of her own, the demo mailbox can leave Ann's view; its mail stays stored.
    demo_count = store.count("local")
    assert bob.post("/demo/remove", data={"csrf": bob_csrf}).status_code == 409  # no mailbox
    assert 'id="remove-demo"' in client.get("/accounts").text
    gone = client.post("/demo/remove", data={"csrf": csrf}, follow_redirects=False)
    assert gone.status_code == 303 and gone.headers["location"] == "/accounts?done=demo_removed"
    assert "checkout is down" not in client.get("/").text
    assert client.get("/api/session").json()["accounts"] == ["work"]
    assert store.count("local") == demo_count
    assert 'id="remove-demo"' not in client.get("/accounts").text

    removed = client.post("/accounts/work/remove", data={"csrf": csrf}, follow_redirects=False)
    assert removed.status_code == 303
    assert client.get("/api/accounts").json() == []


def test_each_step_of_a_failing_connection_is_named(tmp_path: Path,
                                                     mail_server: MailServer) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'fail.db'}")
    make_user(store, "ann", ["local"])
    client = TestClient(create_app(store))
    csrf = sign_in(client, "ann")
    wrong = "not-the-password-xyz"
    client.post("/accounts", data={**_form(mail_server, password=wrong), "csrf": csrf})
    page = client.post("/accounts/work/test", data={"csrf": csrf}).text
    assert "Connection test: it failed" in page
    assert "connect (TCP)</strong>: ok" in page and "log in</strong>: failed" in page
    assert "open the first folder</strong>: not reached" in page
    assert wrong not in page
    client.post("/accounts", data={**_form(mail_server, name="closed", port=free_port()),
                                   "csrf": csrf})
    steps = client.post("/api/accounts/closed/test",
                        headers={"X-CSRF-Token": csrf}).json()["steps"]
    assert [(s["name"], s["state"]) for s in steps][:3] == [
        ("dns", "ok"), ("tcp", "failed"), ("tls", "skipped")]
    # Mail of the person's own imported into "local" makes it more than a demo: it stays.
    assert not demo_only(store, "local")
    import_demo(store)
    assert demo_only(store, "local")
    store.ingest(URGENT, "eml")
    assert not demo_only(store, "local")
    assert 'id="remove-demo"' not in client.get("/accounts").text
    assert client.post("/demo/remove", data={"csrf": csrf}).status_code == 409
