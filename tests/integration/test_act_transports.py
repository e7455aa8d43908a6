"""The executor's transports come from the accounts store: `mailmoat account add --smtp-host`,
secrets sealed at rest, XOAUTH2 on both the SMTP and the IMAP side."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from typer.testing import CliRunner

from mailmoat.accounts.oauth import TOKENS
from mailmoat.accounts.registry import (
    AccountError,
    AccountSettings,
    Submission,
    add_account,
    get_account,
    set_submission,
)
from mailmoat.accounts.secrets import KeyRing
from mailmoat.act.executor import Executor
from mailmoat.entrypoints.cli.main import app
from mailmoat.services import outbox as worker
from tests.integration.test_account_oauth import REFRESH, TokenServer
from tests.integration.test_smtp_transport import OAuthMta
from tests.support.act_support import add_mail_account, delivered, rig, secret_key, send_payload
from tests.support.mailserver import MailServer, free_port

runner = CliRunner()


def test_an_account_added_on_the_command_line_sends_approved_mail(
    env: str, mail_server: MailServer
) -> None:
    added = runner.invoke(app, [
        "account", "add", "acct", "--host", mail_server.host,
        "--port", str(mail_server.imap_port), "--user", mail_server.user, "--tls", "plain",
        "--smtp-host", mail_server.host, "--smtp-port", str(mail_server.smtp_port),
        "--smtp-tls", "plain", "--secret-stdin"], input=mail_server.password + "\n")
    assert added.exit_code == 0, added.output
    listed = runner.invoke(app, ["account", "list"])
    assert listed.exit_code == 0 and mail_server.password not in listed.output
    r = rig(env)
    assert get_account(r.store, "acct").submission == Submission(
        host=mail_server.host, port=mail_server.smtp_port, tls="plain",
        from_addr=mail_server.user)
    proposal = r.service.propose("acct", send_payload(), "sam", "cli")
    r.service.approve(proposal["id"], "sam")
    ran = runner.invoke(app, ["actions", "run"])
    assert ran.exit_code == 0, ran.output
    assert " done " in ran.output
    assert [m["Subject"] for m in delivered(mail_server)] == ["Quarterly numbers"]
    assert [m["Subject"] for m in delivered(mail_server, "Sent")] == ["Quarterly numbers"]
    assert r.service.show(proposal["id"])["status"] == "done"


def test_an_account_without_smtp_settings_sends_nothing(
    mail_server: MailServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    r = rig(f"sqlite:///{tmp_path / 'm.db'}")
    ring = secret_key(monkeypatch)
    add_account(r.store, ring, AccountSettings(
        name="acct", host=mail_server.host, port=mail_server.imap_port,
        username=mail_server.user, tls="plain"), mail_server.password)
    assert worker.transports(r.store, ring) == {}
    proposal = r.service.propose("acct", send_payload(), "sam", "cli")
    r.service.approve(proposal["id"], "sam")
    assert Executor(r.store.engine, worker.transports(r.store, ring)).run_until_idle() == []
    assert delivered(mail_server) == []
    assert r.service.show(proposal["id"])["outbox"]["state"] == "queued"
    # Given SMTP settings later, the same approval goes out.
    set_submission(r.store, "acct", Submission(host=mail_server.host,
                                               port=mail_server.smtp_port, tls="plain"))
    outcomes = Executor(r.store.engine, worker.transports(r.store, ring)).run_until_idle()
    assert [o.state for o in outcomes] == ["done"]
    assert len(delivered(mail_server)) == 1


@pytest.mark.parametrize(("change", "message"), [
    ({"tls": "plain", "host": "smtp.example.org"}, "loopback"),
    ({"tls": "ssl"}, "smtp tls"),
    ({"port": 0}, "port"),
    ({"from_addr": "two@a.example, three@b.example"}, "sender address"),
    ({"sent_folder": "Sent\r\nX"}, "one line"),
])
def test_bad_smtp_settings_are_refused_with_what_to_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: dict[str, object], message: str
) -> None:
    r = rig(f"sqlite:///{tmp_path / 'm.db'}")
    values: dict[str, object] = {"host": "127.0.0.1", "port": 587, "tls": "starttls"}
    values.update(change)
    with pytest.raises(AccountError, match=message):
        add_account(r.store, secret_key(monkeypatch), AccountSettings(
            name="acct", host="127.0.0.1", port=143, username="me@example.org", tls="plain",
            submission=Submission(**values)), "pw")  # type: ignore[arg-type]
    with pytest.raises(AccountError):
        get_account(r.store, "acct")  # nothing was stored


@pytest.fixture
def oauth_server() -> MailServer:
    running = MailServer(xoauth2=True).start()
    try:
        yield running  # type: ignore[misc]
    finally:
        running.stop()


@contextmanager
def oauth_rig(server: MailServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
              issue: str) -> Iterator[tuple[Any, KeyRing, TokenServer, OAuthMta, int]]:
    """An XOAUTH2 account whose token endpoint issues `issue`, with one send approved, and an
    MTA that accepts only the server's password as the bearer token."""
    tokens = TokenServer(issue=issue)
    mta = OAuthMta(server.user, server.password)
    controller = Controller(mta, hostname="127.0.0.1", port=free_port(), auth_required=True,
                            auth_require_tls=False)
    controller.start()
    TOKENS.forget("acct")
    try:
        r = rig(f"sqlite:///{tmp_path / 'm.db'}")
        ring = secret_key(monkeypatch)
        add_account(r.store, ring, AccountSettings(
            name="acct", host=server.host, port=server.imap_port,
            username=server.user, tls="plain", auth="xoauth2",
            token_endpoint=tokens.url, client_id="mailmoat-test",
            submission=Submission(host="127.0.0.1", port=controller.port, tls="plain")),
            REFRESH)
        proposal = r.service.propose("acct", send_payload(), "sam", "cli")
        r.service.approve(proposal["id"], "sam")
        yield r, ring, tokens, mta, proposal["id"]
    finally:
        controller.stop()
        tokens.close()
        TOKENS.forget("acct")


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
def test_xoauth2_on_both_sides_with_a_refreshed_token(
    oauth_server: MailServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An XOAUTH2 account (Gmail/Outlook style): the refresh token is sealed in the store,
    the worker exchanges it at the token endpoint, and the same access token logs in to
    SMTP (AUTH XOAUTH2) and to IMAP (AUTHENTICATE XOAUTH2) for the Sent copy."""
    # The test IMAP server accepts its password as a bearer token.
    with oauth_rig(oauth_server, tmp_path, monkeypatch, issue=oauth_server.password) as (
            r, ring, tokens, mta, action_id):
        executor = Executor(r.store.engine, worker.transports(r.store, ring))
        assert [o.state for o in executor.run_until_idle()] == ["done"]
        assert len(mta.accepted) == 1 and b"Subject: Quarterly numbers" in mta.accepted[0]
        sent = delivered(oauth_server, "Sent")
        assert [m["Message-ID"] for m in sent] == [
            r.service.show(action_id)["outbox"]["message_id"]]
        assert len(tokens.requests) == 1  # one exchange, cached for both sides
        assert REFRESH not in repr(worker.transports(r.store, ring))


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
def test_a_refused_token_never_sends_and_never_leaks(
    oauth_server: MailServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with oauth_rig(oauth_server, tmp_path, monkeypatch, issue="at-the-mta-does-not-know") as (
            r, ring, _tokens, mta, _action_id):
        [outcome] = Executor(r.store.engine, worker.transports(r.store, ring)).run_until_idle()
        # The Sent copy is staged first, so the IMAP login is the first to refuse it.
        assert outcome.state == "dead" and "refused the login" in outcome.detail
        assert "at-the-mta" not in outcome.detail and REFRESH not in outcome.detail
        assert mta.accepted == []


def test_each_account_sends_through_its_own_transport(
    mail_server: MailServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two accounts on one store: each row goes out through its own account's settings."""
    r = rig(f"sqlite:///{tmp_path / 'm.db'}")
    ring = secret_key(monkeypatch)
    add_mail_account(r.store, ring, mail_server, "one")
    add_mail_account(r.store, ring, mail_server, "two", sent_folder="Sent2")
    for account in ("one", "two"):
        p = r.service.propose(account, send_payload(subject=f"from {account}"), "sam", "cli")
        r.service.approve(p["id"], "sam")
    outcomes = Executor(r.store.engine, worker.transports(r.store, ring)).run_until_idle()
    assert [o.state for o in outcomes] == ["done", "done"]
    assert Counter(str(m["Subject"]) for m in delivered(mail_server)) == Counter(
        {"from one": 1, "from two": 1})
    assert [str(m["Subject"]) for m in delivered(mail_server, "Sent2")] == ["from two"]


def test_multi_user_mode_guards_smtp_and_imap_hosts_alike(
    mail_server: MailServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With several users, a mail host that resolves to a loopback or private address is
    refused on the SMTP side as on the IMAP side (one vetted socket for both)."""
    from mailmoat.mail.smtp import (
        ImapMailbox,
        ImapSettings,
        PermanentError,
        SmtpSettings,
        SmtpTransport,
    )

    monkeypatch.setenv("MAILMOAT_MULTI_USER", "1")
    monkeypatch.delenv("MAILMOAT_IMAP_ALLOW", raising=False)
    smtp = SmtpTransport(SmtpSettings(mail_server.host, mail_server.smtp_port,
                                      mail_server.user, security="plain", timeout=5))
    with pytest.raises(PermanentError, match="guard"):
        smtp.submit(b"Subject: x\r\n\r\nx\r\n", "ana@client.example")
    imap = ImapMailbox(ImapSettings(mail_server.host, mail_server.imap_port, mail_server.user,
                                    secret=lambda: mail_server.password, security="plain"))
    with pytest.raises(PermanentError, match="guard"), imap.sent_folder():
        pass
    assert delivered(mail_server) == []
    monkeypatch.setenv("MAILMOAT_IMAP_ALLOW", "127.0.0.1/32")  # the operator allow-lists it
    smtp.submit(b"Subject: x\r\n\r\nx\r\n", "ana@client.example")
    assert len(delivered(mail_server)) == 1
