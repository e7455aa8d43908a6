"""A send killed after DATA began (issue 17, item 6): resolved by looking on the server first,
and otherwise shown on the approvals page for a person to settle. Real SIGKILLs of the worker
process, real mail-devel server (which delivers every message into the account's INBOX, so a
message that went out is found there)."""

from __future__ import annotations

import html
import re
import signal
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.integration import test_act_crash
from tests.integration.test_act_cli_api import signed_in
from tests.integration.test_act_crash import LEASE, _account, _sent_flags, _worker
from tests.support.act_support import delivered, rig, send_payload, wipe
from tests.support.mailserver import MailServer

server = test_act_crash.server  # a fixture of tests/integration/test_act_crash.py


def _killed_at(point: str, server: MailServer, tmp_path: Path,
               monkeypatch: pytest.MonkeyPatch) -> tuple[Any, str, int]:
    wipe(server)
    url = f"sqlite:///{tmp_path / 'm.db'}"
    r = rig(url)
    _account(r, server, monkeypatch, server_files_sent=False)
    p = r.service.propose("acct", send_payload(subject=f"killed at {point}"), "sam", "cli")
    r.service.approve(p["id"], "sam")
    assert _worker(url, point, once=True) == -signal.SIGKILL
    time.sleep(LEASE)
    assert _worker(url, None, once=False) == 0
    return r, url, int(p["id"])


def test_a_send_killed_after_the_server_took_it_is_found_on_the_server(
    server: MailServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Killed after the server's 250, before the answer was recorded: the staged copy says
    "DATA began", and the message is found where it was delivered: done, never re-sent."""
    r, _url, action = _killed_at("after_send", server, tmp_path, monkeypatch)
    shown = r.service.show(action)
    assert shown["status"] == "done", shown["outbox"]
    assert "on the server" in r.service.audit_trail(action)[-1]["detail"]["detail"]
    assert Counter(str(m["Subject"]) for m in delivered(server)) == {"killed at after_send": 1}
    assert b"\\Draft" not in _sent_flags(server)["killed at after_send"]  # an ordinary copy
    assert r.service.unresolved("acct") == []


def test_a_send_held_as_unknown_is_shown_and_a_person_has_it_sent_once(
    server: MailServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Killed after the copy was flagged, before DATA: nothing arrived and nothing is found,
    so a person decides on the approvals page; "send again" delivers it exactly once."""
    r, url, action = _killed_at("before_data", server, tmp_path, monkeypatch)
    assert r.service.show(action)["status"] == "failed"
    [held] = r.service.unresolved("acct")
    assert held["id"] == action and "not found on the server" in held["reason"]
    assert delivered(server) == []
    client = signed_in(r.store)
    page = client.get("/approvals")
    assert page.status_code == 200 and "Sent or not?" in page.text
    assert html.escape(held["message_id"]) in page.text
    csrf = client.headers["X-CSRF-Token"]
    assert client.post(f"/approvals/{action}/resolve", data={"arrived": "maybe", "csrf": csrf},
                       follow_redirects=False).status_code == 422
    done = client.post(f"/approvals/{action}/resolve", data={"arrived": "no", "csrf": csrf},
                       follow_redirects=False)
    assert done.status_code == 303, done.text
    assert r.service.unresolved("acct") == []
    assert _worker(url, None, once=False) == 0
    inbox = delivered(server)
    assert Counter(str(m["Subject"]) for m in inbox) == {"killed at before_data": 1}
    assert inbox[0]["Message-ID"] == held["message_id"]  # the same bytes, the same id
    assert r.service.show(action)["status"] == "done"
    assert not re.search("killed at", client.get("/approvals").text)


def test_a_person_can_record_that_it_arrived_and_nothing_is_sent(
    server: MailServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    r, url, action = _killed_at("before_data", server, tmp_path, monkeypatch)
    view = r.service.resolve_unknown(action, "sam", sent=True)
    assert view["status"] == "done" and view["outbox"]["state"] == "done"
    assert _worker(url, None, once=False) == 0
    assert delivered(server) == []
    events = [e["event"] for e in r.service.audit_trail(action)]
    assert events[-1] == "resolved_sent"
