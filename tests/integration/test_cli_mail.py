"""`mailmoat account ...`, `mailmoat sync --once` and the background sync of `mailmoat up`,
as a user runs them, against the real test server."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from mailmoat.accounts.secrets import ENV_KEY
from mailmoat.entrypoints.cli.main import _accounts_configured, app
from mailmoat.services.bootstrap import open_store
from tests.support.imap_fixtures import make_message, running
from tests.support.mailserver import MailServer

runner = CliRunner()


@pytest.fixture
def server() -> Iterator[MailServer]:
    with running(MailServer()) as started:
        yield started


def _add(server: MailServer, name: str = "work", password: str | None = None) -> None:
    result = runner.invoke(app, [
        "account", "add", name, "--host", server.host, "--port", str(server.imap_port),
        "--user", server.user, "--tls", "plain", "--secret-stdin"],
        input=(password or server.password) + "\n")
    assert result.exit_code == 0, result.output


def test_account_lifecycle(env: str, server: MailServer) -> None:
    from mailmoat.entrypoints.cli.mail import web_account

    assert not _accounts_configured() and web_account() == "local"
    _add(server)
    assert _accounts_configured() and web_account() == "work"  # `up` shows the live mailbox
    listed = runner.invoke(app, ["account", "list"])
    assert listed.exit_code == 0 and "work" in listed.output
    assert server.password not in listed.output
    tested = runner.invoke(app, ["account", "test", "work"])
    assert tested.exit_code == 0, tested.output
    assert "logged in as test@example.org" in tested.output and "idle" in tested.output
    rotated = runner.invoke(app, ["account", "rotate-key"])
    assert rotated.exit_code == 0 and "re-sealed 1 account" in rotated.output
    assert runner.invoke(app, ["account", "test", "work"]).exit_code == 0
    removed = runner.invoke(app, ["account", "remove", "work"])
    assert removed.exit_code == 0
    assert runner.invoke(app, ["account", "test", "work"]).exit_code == 2


def test_account_test_says_what_failed_without_the_secret(env: str, server: MailServer) -> None:
    _add(server, password="wrong-and-secret-password")
    result = runner.invoke(app, ["account", "test", "work"])
    assert result.exit_code == 1
    assert "auth:" in result.output and "refused the login" in result.output
    assert "wrong-and-secret-password" not in result.output
    plain_remote = runner.invoke(app, [
        "account", "add", "remote", "--host", "imap.example.org", "--user", "u",
        "--tls", "plain", "--secret-stdin"], input="p\n")
    assert plain_remote.exit_code == 2 and "loopback" in plain_remote.output


def test_sync_once_and_wrong_key(env: str, server: MailServer,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    for i in range(5):
        server.append(make_message(i))
    _add(server)
    result = runner.invoke(app, ["sync", "--once"])
    assert result.exit_code == 0, result.output
    assert "work: fetched 5, new 5" in result.output
    again = runner.invoke(app, ["sync", "--once"])
    assert "fetched 0, new 0" in again.output
    assert open_store(env).count("work") == 5

    monkeypatch.setenv(ENV_KEY, "A" * 43 + "=")  # a valid key, but not the one that sealed
    wrong = runner.invoke(app, ["sync", "--once"])
    assert wrong.exit_code == 1
    assert "not in the key ring" in wrong.output and "Traceback" not in wrong.output
    monkeypatch.delenv(ENV_KEY)
    assert runner.invoke(app, ["sync", "--once"]).exit_code == 0  # nothing was lost


def test_up_runs_sync_in_the_background(env: str, server: MailServer) -> None:
    from mailmoat.entrypoints.cli.mail import start_background_sync

    _add(server)
    stop = start_background_sync(workers=2, poll=60)
    try:
        time.sleep(1.5)
        server.deliver(make_message(1, subject="while mailmoat is up"))
        store = open_store(env)
        deadline = time.monotonic() + 15
        while store.count("work") < 1 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert store.count("work") == 1
    finally:
        stop()


def test_rotate_key_with_keys_in_the_environment(env: str, server: MailServer,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from mailmoat.accounts.secrets import encode_key, new_key

    old, new = encode_key(new_key()), encode_key(new_key())
    monkeypatch.setenv(ENV_KEY, old)
    _add(server)
    refused = runner.invoke(app, ["account", "rotate-key"])
    assert refused.exit_code == 2 and "new,old" in refused.output
    monkeypatch.setenv(ENV_KEY, f"{new},{old}")
    rotated = runner.invoke(app, ["account", "rotate-key"])
    assert rotated.exit_code == 0 and "re-sealed 1 account" in rotated.output
    monkeypatch.setenv(ENV_KEY, new)  # the old key is gone; the secret still opens
    assert runner.invoke(app, ["account", "test", "work"]).exit_code == 0


def test_account_lane_configures_one_lane(env: str, server: MailServer) -> None:
    from mailmoat.accounts.registry import get_account
    from mailmoat.core.lanes import Lane

    _add(server)
    shown = runner.invoke(app, ["account", "lane", "work", "silent"])
    assert shown.exit_code == 0 and "keyword $MoatSilent" in shown.output
    changed = runner.invoke(app, ["account", "lane", "work", "SILENT", "--folder", "Junk/Moat",
                                  "--mark-read"])
    assert changed.exit_code == 0, changed.output
    action = get_account(open_store(env), "work").lane_actions.for_lane(Lane.SILENT)
    assert (action.keyword, action.folder, action.mark_read) == ("$MoatSilent", "Junk/Moat", True)
    assert get_account(open_store(env), "work").lane_actions.for_lane(Lane.QUEUE).folder is None
    bad = runner.invoke(app, ["account", "lane", "work", "LOUD"])
    assert bad.exit_code == 2
