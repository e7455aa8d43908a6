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
from mailmoat.store.repos import Repos
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
                page.click("text=Add and seal the credentials")
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


def test_two_mailboxes_read_state_digest_and_oauth_form(tmp_path: Path) -> None:
    """A person with two mailboxes: one queue with a tab per account, a message of the
    other account opens and is marked read, "Mark unread" brings it back bold; the status
    page in words, the digest hour on the settings page, and the OAuth fields of the
    Outlook preset, each page at both widths with axe-core."""
    require_axe()
    store = open_store(f"sqlite:///{tmp_path / 'two.db'}")
    import_demo(store)
    work = store.ingest(incoming(subject="Quarterly numbers for the board"), "eml",
                        account="work").message_id
    Repos(store).read_state.set(work, "work", False)  # as an IMAP sync of unread mail would
    make_user(store, "ann", ["local", "work"])
    with live_server(create_app(store)) as server, sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_context(bypass_csp=True).new_page()
            sign_in(page, server.url)
            check_page(page, f"{server.url}/", "home-two-accounts")
            check_page(page, f"{server.url}/?account=work", "home-one-account")
            check_page(page, f"{server.url}/lane/PUSH", "lane")
            check_page(page, f"{server.url}/status", "status")
            check_page(page, f"{server.url}/settings", "settings")
            check_page(page, f"{server.url}/accounts?preset=outlook", "accounts-oauth")
            assert page.is_checked("#acc-auth-oauth")
            assert "login.microsoftonline.com" in page.input_value("#acc-token-endpoint")

            page.set_viewport_size(WIDTHS["desktop"])
            page.goto(f"{server.url}/")
            with page.expect_navigation():
                page.click("#account-filter >> text=work")
            assert "Quarterly numbers for the board" in page.inner_text("main")
            assert "checkout is down" not in page.inner_text("main")
            row = page.locator(f'li[data-id="{work}"]')
            assert row.get_attribute("class") == "unread"
            with page.expect_navigation():
                row.locator("a").first.click()  # the session views "local"; it opens anyway
            assert page.inner_text("h2") == "Quarterly numbers for the board"
            page.goto(f"{server.url}/?account=work")
            assert page.locator(f'li[data-id="{work}"]').get_attribute("class") is None
            page.goto(f"{server.url}/message/{work}")
            with page.expect_navigation():
                page.click("#mark-unread")
            assert "marked unread" in page.inner_text("p.flash")
            assert page.locator(f'li[data-id="{work}"]').get_attribute("class") == "unread"

            assert "The local scorer on this machine decides every message" in page.goto(
                f"{server.url}/status").text()  # type: ignore[union-attr]
            page.goto(f"{server.url}/settings")
            page.select_option("#digest-hour", "7")
            with page.expect_navigation():
                page.click("text=Save digest")
            assert "daily digest saved" in page.inner_text("p.flash")
            assert page.input_value("#digest-hour") == "7"
        finally:
            browser.close()
