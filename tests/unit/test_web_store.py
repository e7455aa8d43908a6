"""The web tables on SQLite and the real PostgreSQL server, and the `mailmoat user` commands."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy.exc import DBAPIError
from typer.testing import CliRunner

import mailmoat.entrypoints.web.security.auth as auth
from mailmoat.accounts.secrets import load_key_ring
from mailmoat.core.lanes import Lane
from mailmoat.demo import import_demo
from mailmoat.entrypoints.cli.main import app as cli
from mailmoat.entrypoints.cli.users import setup_link
from mailmoat.services.bootstrap import open_store
from mailmoat.store.repos import Repos
from mailmoat.store.tables.messages import LedgerRow
from mailmoat.store.users import UserExists
from tests.support import webhelpers  # noqa: F401  (cheap argon2 parameters for tests)


def test_users_sessions_corrections_and_dedup(store_url: str) -> None:
    store = open_store(store_url)
    import_demo(store)
    web = Repos(store, sealer=load_key_ring())
    ann = web.users.create("ann", auth.hash_password("long enough password"), ["local"])
    with pytest.raises(UserExists):
        web.users.create("ann", "x", ["local"])
    token, csrf = web.user_sessions.create(ann)
    found = web.user_sessions.get(token)
    assert found is not None and found.csrf_token == csrf and found.accounts == ("local",)
    assert web.user_sessions.get(token + "x") is None
    queue_id = store.list_messages("QUEUE")[0]["id"]
    # not their account:
    assert web.decisions.move(queue_id, "someone-else", Lane.INFO, "eve") is None
    assert web.decisions.move(queue_id, "local", Lane.INFO, "ann") == "INFO"
    assert web.decisions.undo(queue_id, "local", "ann") == "QUEUE"
    assert [e["event"] for e in store.ledger(queue_id)] == ["decided", "corrected", "corrected"]
    with store.sessions() as s:  # the ledger stays append-only under corrections
        row = s.get(LedgerRow, 1)
        assert row is not None
        row.lane = "SILENT"
        with pytest.raises(DBAPIError):
            s.commit()
    assert web.notifications.log("local", queue_id, "sent") is True
    assert web.notifications.log("local", queue_id, "sent") is False  # the database dedups
    first = web.secrets.get("k", lambda: "first")
    assert first == web.secrets.get("k", lambda: "second") == "first"
    web.user_sessions.end(token)
    assert web.user_sessions.get(token) is None
    expired, _ = web.user_sessions.create(ann, ttl=timedelta(seconds=-1))
    assert web.user_sessions.get(expired) is None  # past its lifetime: not a session


def test_user_commands_and_setup_link(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("MAILMOAT_DATABASE_URL", url)
    runner = CliRunner()
    store = open_store(url)
    assert setup_link(store, "127.0.0.1", 8025) is not None  # no user yet: a setup link
    monkeypatch.setenv("MAILMOAT_NEW_PASSWORD", "short")
    weak = runner.invoke(cli, ["user", "add", "ann"])
    assert weak.exit_code == 2 and "at least 10" in weak.output
    monkeypatch.setenv("MAILMOAT_NEW_PASSWORD", "long enough password")
    made = runner.invoke(cli, ["user", "add", "ann"])
    assert made.exit_code == 0 and "may read: local" in made.output
    second = runner.invoke(cli, ["user", "add", "bob"])
    assert second.exit_code == 0 and "may read: bob" in second.output
    assert runner.invoke(cli, ["user", "add", "ann"]).exit_code == 2
    listed = runner.invoke(cli, ["user", "list"])
    assert "ann: local" in listed.output and "bob: bob" in listed.output
    before = Repos(store, sealer=load_key_ring()).users.get("ann")
    monkeypatch.setenv("MAILMOAT_NEW_PASSWORD", "another long password")
    assert runner.invoke(cli, ["user", "passwd", "ann"]).exit_code == 0
    after = Repos(store, sealer=load_key_ring()).users.get("ann")
    assert before and after and before.password_hash != after.password_hash
    assert runner.invoke(cli, ["user", "passwd", "nobody"]).exit_code == 2
    assert setup_link(store, "127.0.0.1", 8025) is None  # users exist: no setup link
    assert "long enough password" not in made.output + listed.output
