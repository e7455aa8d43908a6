"""The decision queue and the approval-as-mail page in Debian's Chromium: the keyboard flow
(j/k, x, a number key to move, a then Enter to approve), screenshots at desktop and phone width, and
axe-core with no serious or critical violations on each page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mailmoat.act.service import ActionService
from mailmoat.demo import import_demo
from mailmoat.entrypoints.web.app import create_app
from mailmoat.services.bootstrap import open_store
from tests.e2e.test_web_browser import ARGS, CHROMIUM, SHOTS, sync_api
from tests.support.act_support import incoming
from tests.support.axe import require_axe, serious_violations
from tests.support.webhelpers import PASSWORD, live_server, make_user

WIDTHS = {"desktop": {"width": 1200, "height": 900}, "phone": {"width": 390, "height": 844}}


def sign_in(page: Any, url: str) -> None:
    page.goto(f"{url}/login")
    page.fill("#username", "ann")
    page.fill("#password", PASSWORD)
    with page.expect_navigation():
        page.click("button[type=submit]")


def check_page(page: Any, url: str, name: str) -> None:
    """Screenshot at both widths and axe-core at each: no serious violation."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, size in WIDTHS.items():
        page.set_viewport_size(size)
        page.goto(url)
        page.screenshot(path=str(SHOTS / f"ux-{name}-{width}.png"), full_page=True)
        assert serious_violations(page) == [], f"{name} at {width} width"


def test_queue_keyboard_flow_and_approval_as_mail(tmp_path: Path) -> None:
    require_axe()
    store = open_store(f"sqlite:///{tmp_path / 'ux.db'}")
    import_demo(store)
    make_user(store, "ann", ["local"])
    mid = store.ingest(incoming(subject="Can we meet?"), "eml").message_id
    service = ActionService(store.engine)
    reply = service.propose("local", {"action": "send_email", "subject": "Re: Can we meet?",
                                      "body": "Thursday at 10 works.\n— Sam\n"},
                            "agent", "api", reply_to_message=mid)
    meeting = [r["id"] for r in store.list_messages("MEETING")]
    assert meeting
    with live_server(create_app(store)) as server, sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            # bypass_csp: only so the test can inject axe; the app's CSP is unchanged.
            page = browser.new_context(bypass_csp=True).new_page()
            sign_in(page, server.url)
            assert page.inner_text("h2") == "What needs you"
            check_page(page, f"{server.url}/", "home")
            check_page(page, f"{server.url}/firewall", "firewall")
            check_page(page, f"{server.url}/approvals/{reply['id']}", "approval")
            check_page(page, f"{server.url}/search?q=checkout", "search")
            assert "checkout is down" in page.inner_text("#search-hits")

            # Keyboard: j to the rows, down to the first MEETING row, x ticks it, 3 moves
            # the ticked rows to QUEUE (a form POST with the session's CSRF token).
            page.set_viewport_size(WIDTHS["desktop"])
            page.goto(f"{server.url}/")
            page.keyboard.press("?")
            assert page.is_visible("#keys-help")
            page.keyboard.press("/")  # to the search box, and a search from the keyboard
            assert page.evaluate("document.activeElement.id") == "q"
            page.keyboard.type("wire confirmation")
            with page.expect_navigation():
                page.keyboard.press("Enter")
            assert "Wire confirmation needed" in page.inner_text("#search-hits")
            page.goto(f"{server.url}/")
            rows = page.locator("[data-row]")
            first_meeting = next(i for i in range(rows.count())
                                 if rows.nth(i).get_attribute("data-id") == str(meeting[0]))
            for _ in range(first_meeting + 1):
                page.keyboard.press("j")
            assert page.evaluate("document.activeElement.dataset.id") == str(meeting[0])
            page.keyboard.press("x")
            assert page.is_checked(f"#tick-{meeting[0]}")
            with page.expect_navigation():
                page.keyboard.press("3")
            assert "moved the ticked messages to QUEUE" in page.inner_text("p.flash")
            assert store.get_message(meeting[0])["lane"] == "QUEUE"  # type: ignore[index]

            # The approval reads as mail; a approves exactly the bytes shown.
            page.goto(f"{server.url}/approvals/{reply['id']}")
            assert page.inner_text("#mail-subject") == "Re: Can we meet?"
            assert "Thursday at 10 works." in page.inner_text("#mail-body")
            assert "Could you send me the deck?" in page.inner_text("section.answers")
            page.keyboard.press("a")  # focuses the button: one stray key never approves
            assert page.evaluate("document.activeElement.dataset.key") == "a"
            assert service.show(reply["id"])["status"] == "pending"
            with page.expect_navigation():
                page.keyboard.press("Enter")
            assert "approved" in page.inner_text("p.flash")
        finally:
            browser.close()
    receipt = service.show(reply["id"])["receipt"]
    assert receipt["approved_by"] == "ann"
    assert receipt["payload_sha256"] == reply["payload_sha256"]


pytestmark = pytest.mark.slow


def test_onboarding_from_no_mailbox_to_first_lanes(tmp_path: Path, mail_server: Any) -> None:
    """A person with only the demo mail adds their IMAP account in the page (mail-devel),
    tests it, starts the first sync, watches it finish, and sees their mail in the queue."""
    from tests.integration.test_web_onboarding import URGENT
    from tests.support.mailserver import HOST

    require_axe()
    store = open_store(f"sqlite:///{tmp_path / 'onboard.db'}")
    import_demo(store)
    make_user(store, "ann", ["local"])
    mail_server.deliver(URGENT)
    with live_server(create_app(store)) as server, sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_context(bypass_csp=True).new_page()
            sign_in(page, server.url)
            page.click("#connect-mailbox a")
            assert page.url.endswith("/accounts")
            check_page(page, f"{server.url}/accounts?preset=imap", "accounts")
            page.set_viewport_size(WIDTHS["desktop"])
            page.fill("#acc-name", "work")
            page.fill("#acc-user", mail_server.user)
            page.fill("#acc-password", mail_server.password)
            page.fill("#acc-host", HOST)
            page.fill("#acc-port", str(mail_server.imap_port))
            page.select_option("#acc-tls", "plain")
            with page.expect_navigation():
                page.click("text=Add and seal the password")
            assert "account added" in page.inner_text("p.flash")
            with page.expect_navigation():
                page.click("#test-account")
            assert "it works" in page.inner_text("#h-check")
            page.screenshot(path=str(SHOTS / "ux-account-tested-desktop.png"), full_page=True)
            assert serious_violations(page) == []
            with page.expect_navigation():
                page.click("#start-sync")
            page.wait_for_selector("text=Done: 1 new message", timeout=60_000)
            page.screenshot(path=str(SHOTS / "ux-account-synced-desktop.png"), full_page=True)
            page.click("text=See what needs you")
            page.wait_for_url(f"{server.url}/")
            assert "Production outage: payments failing now" in page.inner_text("main")
            assert not page.is_visible("#connect-mailbox")
            page.screenshot(path=str(SHOTS / "ux-home-after-onboarding-desktop.png"),
                            full_page=True)
        finally:
            browser.close()
