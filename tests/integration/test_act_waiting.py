"""`mailmoat actions run` says what it did and why an approved action waits: an account with
no SMTP settings is named with the command that fixes it, and after `mailmoat account smtp`
the same approval goes out."""

from __future__ import annotations

from typer.testing import CliRunner

from mailmoat.entrypoints.cli.main import app
from tests.support.act_support import delivered, rig, send_payload
from tests.support.mailserver import MailServer

runner = CliRunner()


def test_an_empty_outbox_says_so(env: str) -> None:
    ran = runner.invoke(app, ["actions", "run"])
    assert ran.exit_code == 0, ran.output
    assert "nothing to run" in ran.output


def test_a_send_on_an_account_without_smtp_says_why_until_smtp_is_set(
    env: str, mail_server: MailServer
) -> None:
    added = runner.invoke(app, [
        "account", "add", "acct", "--host", mail_server.host,
        "--port", str(mail_server.imap_port), "--user", mail_server.user, "--tls", "plain",
        "--secret-stdin"], input=mail_server.password + "\n")
    assert added.exit_code == 0, added.output
    r = rig(env)
    proposal = r.service.propose("acct", send_payload(), "sam", "cli")
    r.service.approve(proposal["id"], "sam")
    ran = runner.invoke(app, ["actions", "run"])
    assert ran.exit_code == 0, ran.output
    text = " ".join(ran.output.split())
    assert f"waiting (action {proposal['id']}, send_email): account 'acct' has no SMTP " \
        "settings" in text
    assert "mailmoat account smtp acct --smtp-host HOST" in text
    assert "nothing to run" not in text
    assert delivered(mail_server) == []

    refused = runner.invoke(app, ["account", "smtp", "acct"])
    assert refused.exit_code == 2
    set_ = runner.invoke(app, ["account", "smtp", "acct", "--smtp-host", mail_server.host,
                               "--smtp-port", str(mail_server.smtp_port), "--smtp-tls", "plain"])
    assert set_.exit_code == 0, set_.output
    again = runner.invoke(app, ["actions", "run"])
    assert again.exit_code == 0, again.output
    assert " done " in again.output and "waiting" not in again.output
    assert [m["Subject"] for m in delivered(mail_server)] == ["Quarterly numbers"]

    off = runner.invoke(app, ["account", "smtp", "acct", "--off"])
    assert off.exit_code == 0, off.output
    assert "sending off" in off.output
