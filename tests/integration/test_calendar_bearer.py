"""CalDAV with a bearer token or OAuth instead of a password, against a real Radicale behind
a gateway that takes bearer tokens (tests/support/bearer_proxy.py): the token is sealed like
a password, sent as `Authorization: Bearer`, never shown; OAuth refresh tokens are exchanged
at a real loopback token endpoint."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from mailmoat.accounts.secrets import ENV_KEY, encode_key, load_key_ring, new_key
from mailmoat.calendar.check import check
from mailmoat.calendar.registry import (
    CalendarError,
    CalendarSettings,
    Credential,
    add_calendar,
    open_credential,
)
from mailmoat.calendar.sync import open_source, sync_calendar
from mailmoat.services.bootstrap import open_store
from mailmoat.store.tables.calendar import CalendarRow
from tests.integration.test_account_oauth import REFRESH, TokenServer
from tests.support.bearer_proxy import BearerGateway
from tests.support.radicale_server import PASSWORD, USER, Radicale

TOKEN = "bt-calendar-bearer-token-123"
ICS = ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:{uid}\r\n"
       "DTSTAMP:20261130T000000Z\r\nDTSTART:20261209T100000Z\r\nDTEND:20261209T110000Z\r\n"
       "SUMMARY:Booked\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")


@pytest.fixture
def gateway(radicale: Radicale) -> Iterator[BearerGateway]:
    gw = BearerGateway(radicale, {TOKEN, "at-1"})
    try:
        yield gw
    finally:
        gw.close()


@pytest.fixture
def world(tmp_path: Path, radicale: Radicale, gateway: BearerGateway,
          monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    monkeypatch.setenv(ENV_KEY, encode_key(new_key()))
    store = open_store(f"sqlite:///{tmp_path / 'm.db'}")
    path = f"/{USER}/bearer-{tmp_path.name[-8:]}/"
    radicale.make_calendar(path.split("/")[2])
    return {"store": store, "ring": load_key_ring(), "url": gateway.base + path,
            "gateway": gateway, "db": f"sqlite:///{tmp_path / 'm.db'}"}


def test_a_bearer_token_is_sealed_sent_and_never_shown(world: dict[str, Any]) -> None:
    store, ring, gw = world["store"], world["ring"], world["gateway"]
    add_calendar(store, ring, CalendarSettings("work", world["url"]), Credential("bearer", TOKEN))
    with store.sessions() as session:
        stored = session.scalar(select(CalendarRow.secret))
    assert stored.startswith("bearer|") and TOKEN not in stored
    cred = open_credential(store, ring, "work")
    assert cred is not None and cred.auth == "bearer" and TOKEN not in repr(cred)
    source = open_source(store, ring, CalendarSettings("work", world["url"]))
    source.put("via-bearer", ICS.format(uid="via-bearer"))
    assert sync_calendar(store, ring, "work").written == 1
    assert gw.seen and set(gw.seen) == {f"Bearer {TOKEN}"}  # never a password, never Basic
    steps = check(CalendarSettings("work", world["url"]), cred)
    assert [s.name for s in steps][-2:] == ["calendar", "read"] and steps[-1].ok
    assert "bearer token" in steps[2].detail
    refused = check(CalendarSettings("x", world["url"]), Credential("bearer", "stolen"))
    assert refused[-1].name == "auth" and not refused[-1].ok
    assert all(TOKEN not in s.detail and "stolen" not in s.detail for s in steps + refused)
    # The kind is bound into the seal: a bearer credential relabelled as a password fails.
    with store.sessions.begin() as session:
        row = session.scalar(select(CalendarRow))
        row.secret = row.secret.split("|", 1)[1]
    from mailmoat.accounts.secrets import SecretKeyError

    with pytest.raises(SecretKeyError):
        open_credential(store, ring, "work")


def test_oauth_exchanges_the_refresh_token_and_sends_the_access_token(
        world: dict[str, Any]) -> None:
    store, ring, gw = world["store"], world["ring"], world["gateway"]
    tokens = TokenServer()
    try:
        add_calendar(store, ring, CalendarSettings("o", world["url"]), Credential(
            "oauth", REFRESH, tokens.url, "mailmoat-test", "calendar"))
        with store.sessions() as session:
            stored = session.scalar(select(CalendarRow.secret))
        assert stored.startswith("oauth|") and REFRESH not in stored
        assert sync_calendar(store, ring, "o").full
        assert set(gw.seen) == {"Bearer at-1"}
        assert tokens.requests[0]["scope"] == "calendar"
    finally:
        tokens.close()
    with pytest.raises(CalendarError, match="token-endpoint"):
        add_calendar(store, ring, CalendarSettings("p", world["url"]), Credential("oauth", "r"))
    with pytest.raises(CalendarError, match="CalDAV"):
        add_calendar(store, ring, CalendarSettings("f", "https://example.org/f.ics", kind="ics"),
                     Credential("bearer", TOKEN))


def test_cli_add_with_bearer_then_test(world: dict[str, Any]) -> None:
    env = {**os.environ, "MAILMOAT_DATABASE_URL": world["db"], "PYTHONPATH": "src"}
    add = subprocess.run([sys.executable, "-m", "mailmoat", "calendar", "add", "cli",
                          "--url", world["url"], "--bearer", "--secret-stdin"],
                         input=TOKEN + "\n", env=env, capture_output=True, text=True, timeout=60)
    assert add.returncode == 0, add.stderr
    test = subprocess.run([sys.executable, "-m", "mailmoat", "calendar", "test", "cli"],
                          env=env, capture_output=True, text=True, timeout=60)
    assert test.returncode == 0, test.stdout + test.stderr
    assert "bearer token" in test.stdout and TOKEN not in test.stdout + add.stdout
    assert PASSWORD not in test.stdout
