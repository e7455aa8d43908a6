"""Issue 17 (item 21): old mail seen for the first time does not notify as fresh, and
`actions triage` never guesses an account called `local`."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mailmoat.accounts.registry import AccountSettings, add_account
from mailmoat.accounts.secrets import ENV_KEY, encode_key, load_key_ring, new_key
from mailmoat.act.service import ActionService
from mailmoat.entrypoints.cli.main import app
from mailmoat.notify.dispatch import notify_account
from mailmoat.notify.rules import DATE_SKEW, arrival_time
from mailmoat.services.bootstrap import open_store
from mailmoat.store import Store
from mailmoat.store.repos import Repos

NOW = datetime(2026, 12, 4, 9, 0, tzinfo=UTC)


def urgent(date: datetime | None, n: int) -> bytes:
    head = f"Date: {format_datetime(date)}\r\n" if date else ""
    return (f"From: ops@example.org\r\nTo: me@example.org\r\n{head}"
            f"Subject: outage {n}: urgent\r\n\r\n"
            f"Production is down, please respond asap, customers cannot pay.\r\n").encode()


def test_arrival_is_the_date_when_clearly_older_never_later_than_stored() -> None:
    assert arrival_time(NOW, "2019-03-01T10:00:00+00:00") == datetime(2019, 3, 1, 10,
                                                                       tzinfo=UTC)
    assert arrival_time(NOW, (NOW - timedelta(minutes=40)).isoformat()) == NOW  # clock skew
    assert arrival_time(NOW, (NOW + timedelta(days=300)).isoformat()) == NOW  # future Date
    assert arrival_time(NOW, None) == NOW and arrival_time(NOW, "garbage") == NOW
    assert arrival_time(NOW, "2019-03-01T10:00:00") == NOW  # no zone: not trusted
    old = (NOW - DATE_SKEW - timedelta(minutes=1)).isoformat()
    assert arrival_time(NOW, old) < NOW


def test_a_backfill_of_old_mail_does_not_notify_but_new_mail_does(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'arrival.db'}")
    web = Repos(store, sealer=load_key_ring())
    now = datetime.now(UTC)
    years_old = [store.ingest(urgent(now - timedelta(days=800 + n), n), "imap").message_id
                 for n in range(3)]
    undated = store.ingest(urgent(None, 10), "imap").message_id
    fresh = store.ingest(urgent(now - timedelta(minutes=3), 11), "imap").message_id
    report = notify_account(web, "local", "http://127.0.0.1:8025", now=now)
    assert all(report.skipped.get(m) == "not fresh" for m in years_old), report
    assert {undated, fresh} <= set(report.sent) | set(report.held)


# -- actions triage: no `local` default ---------------------------------------------------------

@pytest.fixture
def cli_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Store:
    monkeypatch.setenv("MAILMOAT_DATABASE_URL", f"sqlite:///{tmp_path / 'cli.db'}")
    monkeypatch.setenv(ENV_KEY, encode_key(new_key()))
    empty = tmp_path / "none.toml"
    empty.write_text("")
    monkeypatch.setenv("MAILMOAT_CONFIG", str(empty))
    return open_store(f"sqlite:///{tmp_path / 'cli.db'}")


def _account(store: Store, name: str) -> None:
    add_account(store, load_key_ring(), AccountSettings(
        name=name, host="127.0.0.1", port=1143, username=f"{name}@example.org",
        tls="plain"), "a throwaway password")


def test_triage_uses_the_only_account_and_refuses_to_guess_among_several(
        cli_env: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    real = ActionService.triage

    def spy(self: ActionService, account: str) -> Any:
        asked.append(account)
        return real(self, account)

    monkeypatch.setattr(ActionService, "triage", spy)
    runner = CliRunner()
    assert runner.invoke(app, ["actions", "triage", "--json"]).exit_code == 0
    assert asked == ["local"]  # nothing configured: imported mail is the only mailbox
    _account(cli_env, "work")
    assert runner.invoke(app, ["actions", "triage", "--json"]).exit_code == 0
    assert asked[-1] == "work"  # one account: that one, not "local"
    _account(cli_env, "home")
    several = runner.invoke(app, ["actions", "triage"])
    assert several.exit_code == 2 and "home, work" in several.output
    assert asked[-1] == "work"  # nothing was read for a guessed account
    chosen = runner.invoke(app, ["actions", "triage", "--account", "home", "--json"])
    assert chosen.exit_code == 0 and asked[-1] == "home"
