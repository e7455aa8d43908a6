"""In a real browser: a person reviews a pending send on the approvals page, approves exactly
those bytes, and the guarded executor delivers it once to the SMTP test server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mailmoat.act.executor import Executor
from mailmoat.act.service import ActionService
from mailmoat.entrypoints.web.app import create_app
from mailmoat.services.bootstrap import open_store
from tests.e2e.test_web_browser import ARGS, CHROMIUM, SHOTS, sync_api
from tests.support.act_support import delivered, send_payload, transport, wipe
from tests.support.mailserver import MailServer
from tests.support.webhelpers import PASSWORD, live_server, make_user


def _sign_in(page: Any, url: str) -> None:
    page.goto(f"{url}/login")
    page.fill("#username", "ann")
    page.fill("#password", PASSWORD)
    with page.expect_navigation():
        page.click("button[type=submit]")


def test_approve_in_the_browser_then_the_executor_delivers_once(
        tmp_path: Path, mail_server: MailServer) -> None:
    wipe(mail_server)
    store = open_store(f"sqlite:///{tmp_path / 'approve.db'}")
    make_user(store, "ann", ["acct"])
    service = ActionService(store.engine)
    proposed = service.propose("acct", send_payload(subject="Signed contract"), "agent", "api")
    lookalike = service.propose("acct", send_payload(to="ana@cliеnt.example"), "agent", "api")
    edited = service.propose("acct", send_payload(subject="Numbers"), "agent", "api")
    service.edit(edited["id"], send_payload(subject="Numbers, final",
                                            body="Hi Ana,\nthe final numbers are attached.\n"),
                 "agent")
    with live_server(create_app(store)) as server, sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page()
            _sign_in(page, server.url)
            page.goto(f"{server.url}/approvals/{proposed['id']}")
            # It reads as mail: To, Subject and the body, as the recipient will see them.
            assert page.inner_text("#mail-to").startswith("ana@client.example")
            assert page.inner_text("#mail-subject") == "Signed contract"
            assert "the numbers are attached" in page.inner_text("#mail-body")
            # The exact bytes and their hash are one click away before anything can run.
            assert not page.is_visible("#payload-sha256")
            page.click("details.exact summary")
            assert page.inner_text("#payload-sha256") == proposed["payload_sha256"]
            assert '"subject": "Signed contract"' in page.inner_text("#payload")
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / "approval-real.png"), full_page=True)
            assert not delivered(mail_server)  # proposing sent nothing
            page.goto(f"{server.url}/approvals/{edited['id']}")
            assert page.inner_text("pre.diff ins").startswith("+Subject: Numbers, final")
            page.screenshot(path=str(SHOTS / "approval-edited.png"), full_page=True)
            page.goto(f"{server.url}/approvals/{lookalike['id']}")
            assert "mixes alphabets" in page.inner_text("[role=alert]")
            page.goto(f"{server.url}/approvals/{proposed['id']}")
            with page.expect_navigation():
                page.click("text=Approve exactly this")
            assert "approved" in page.inner_text("main")
        finally:
            browser.close()
    receipt = service.show(proposed["id"])["receipt"]
    assert receipt["approved_by"] == "ann"
    assert receipt["payload_sha256"] == proposed["payload_sha256"]
    outcomes = Executor(store.engine, {"acct": transport(mail_server)}).run_until_idle()
    assert [o.state for o in outcomes] == ["done"]  # the unapproved look-alike never runs
    arrived = delivered(mail_server)
    assert len(arrived) == 1 and arrived[0]["Subject"] == "Signed contract"
    assert arrived[0]["To"] == "ana@client.example"
    # Running the executor again sends nothing more: exactly once.
    Executor(store.engine, {"acct": transport(mail_server)}).run_until_idle()
    assert len(delivered(mail_server)) == 1


pytestmark = pytest.mark.slow
