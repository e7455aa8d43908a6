"""The web interface in a real browser (Debian's Chromium through Playwright) against the app
served by uvicorn on loopback. Screenshots of every page go to artifacts/screenshots/."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response

from mailmoat.accounts.secrets import load_key_ring
from mailmoat.core.lanes import Lane
from mailmoat.demo import import_demo
from mailmoat.entrypoints.web.app import create_app
from mailmoat.notify.keys import link_key
from mailmoat.notify.signing import LinkClaim, sign_link
from mailmoat.services.bootstrap import open_store
from mailmoat.store import Store
from mailmoat.store.repos import Repos
from tests.support.webhelpers import PASSWORD, FakeApprovals, LiveServer, live_server, make_user

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"

if not os.path.exists(CHROMIUM):
    if os.environ.get("CI", "").lower() == "true":
        raise RuntimeError(f"{CHROMIUM} is missing: .ci/run installs Debian's chromium")
    pytest.skip(f"{CHROMIUM} not installed (apt-get install chromium)", allow_module_level=True)

sync_api = pytest.importorskip("playwright.sync_api")


class Elsewhere:
    """Another origin: a page that forges a POST, and an image host that counts hits."""

    def __init__(self) -> None:
        self.hits: list[str] = []
        self.target = ""
        self.app = FastAPI()

        @self.app.get("/attack", response_class=HTMLResponse)
        def attack() -> str:
            return (f'<form id="f" method="post" action="{self.target}">'
                    '<input name="lane" value="SILENT"></form>'
                    "<script>document.getElementById('f').submit()</script>")

        @self.app.get("/{anything:path}")
        def anything(request: Request, anything: str) -> Response:
            self.hits.append(anything)
            return Response(b"GIF89a", media_type="image/gif")


def hostile_mail(img_host: str) -> bytes:
    html = f"""<html><body onload="window.pwned='onload'">
<script>window.pwned = 'script'; fetch('{img_host}/script-fetch');</script>
<p>Your parcel is waiting.</p>
<img src="{img_host}/pixel.gif" width="1" height="1">
<img src="{img_host}/banner.png" onerror="window.pwned='onerror'">
<img src="x" onerror="window.pwned='onerror2'">
<a href="{img_host}/phish">https://bank.example/login</a>
<div style="background:url({img_host}/css-bg)">styled</div>
<iframe src="{img_host}/frame"></iframe>
</body></html>"""
    return ("From: Parcel Service <parcels@courier.example>\nTo: me@example.org\n"
            "Subject: Delivery attempt failed\nMIME-Version: 1.0\n"
            "Content-Type: text/html; charset=utf-8\n\n" + html).encode()


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    if SHOTS.exists():
        shutil.rmtree(SHOTS)
    SHOTS.mkdir(parents=True)
    store: Store = open_store(f"sqlite:///{tmp_path_factory.mktemp('browser') / 'b.db'}")
    import_demo(store)
    make_user(store, "ann", ["local"])
    make_user(store, "bob", ["bob"])
    store.ingest(b"From: carol@example.org\nSubject: bob's own mail\n\nhello bob\n", "eml",
                 account="bob")
    other = Elsewhere()
    app = create_app(store, approvals=FakeApprovals())
    with live_server(other.app) as elsewhere, live_server(app) as server:
        hostile_id = store.ingest(hostile_mail(elsewhere.url), "eml").message_id
        other.target = f"{server.url}/message/1/move"
        with sync_api.sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            yield {"store": store, "server": server, "elsewhere": elsewhere, "other": other,
                   "browser": browser, "hostile_id": hostile_id}
            browser.close()


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def signed_in(world: dict[str, Any], user: str = "ann") -> Any:
    server: LiveServer = world["server"]
    context = world["browser"].new_context(viewport={"width": 1100, "height": 800})
    page = context.new_page()
    page.goto(f"{server.url}/")
    assert "/login" in page.url
    # Keyboard only: the form is reachable and submits with Enter.
    page.wait_for_selector("#username:focus")  # the user name field has autofocus
    page.keyboard.type(user)
    page.keyboard.press("Tab")
    page.keyboard.type(PASSWORD)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url == f"{server.url}/", page.inner_text("main")
    return page


def test_sign_in_and_see_lanes(world: dict[str, Any]) -> None:
    server: LiveServer = world["server"]
    anonymous = world["browser"].new_page()
    anonymous.goto(f"{server.url}/login")
    shot(anonymous, "login")
    anonymous.fill("#username", "ann")
    anonymous.fill("#password", "wrong password!")
    anonymous.click("button[type=submit]")
    assert "Wrong user name or password" in anonymous.content(), anonymous.content()
    shot(anonymous, "login-failed")
    anonymous.close()

    page = signed_in(world)
    assert "checkout is down" in page.inner_text("section.lane-PUSH")  # home: the queue
    page.goto(f"{server.url}/firewall")  # the lane overview
    headings = page.locator("main h2[id^=h-]").all_inner_texts()
    assert [h.split()[0] for h in headings] == ["PUSH", "MEETING", "QUEUE", "INFO", "SILENT"]
    counts = world["store"].lane_counts()
    assert page.inner_text("#count-PUSH") == str(counts["PUSH"])
    assert "checkout is down" in page.inner_text("section.lane-PUSH")
    assert "Black Friday" not in page.inner_text("main")
    shot(page, "firewall")
    for name, path in (("lane-silent", "/lane/SILENT"), ("approvals", "/approvals"),
                       ("approval", "/approvals/a1"),
                       ("triage", "/triage"), ("settings", "/settings"), ("status", "/status")):
        page.goto(f"{server.url}{path}")
        assert page.locator("h2").first.is_visible()
        shot(page, name)
    page.context.close()


def test_hostile_html_runs_no_script_and_loads_nothing_remote(world: dict[str, Any]) -> None:
    server: LiveServer = world["server"]
    page = signed_in(world)
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    mid = world["hostile_id"]
    for view in ("text", "html"):
        page.goto(f"{server.url}/message/{mid}?view={view}")
        page.wait_for_load_state("networkidle")
        assert page.evaluate("window.pwned") is None
        assert f"{world['elsewhere'].url}/phish" in page.inner_text("ul.links")
        shot(page, f"message-hostile-{view}")
    assert "Your parcel is waiting." in page.inner_text(".mail-html")
    # The link shows its real target next to the text that claims otherwise.
    after = page.evaluate("getComputedStyle(document.querySelector('.mail-html a'), "
                          "'::after').content")
    assert world["elsewhere"].url + "/phish" in after
    assert "remote image(s) or tracking pixel(s) blocked" in page.inner_text(".imagebar")
    assert all(u.startswith(server.url) for u in requests), requests
    assert world["other"].hits == [] and dialogs == []
    page.goto(f"{server.url}/message/1")
    shot(page, "message-text")
    page.goto(f"{server.url}/message/1/trace")
    shot(page, "trace")
    page.context.close()


def test_move_a_message_and_see_the_correction(world: dict[str, Any]) -> None:
    server: LiveServer = world["server"]
    store: Store = world["store"]
    target = store.list_messages("QUEUE")[0]
    page = signed_in(world)
    page.goto(f"{server.url}/message/{target['id']}")
    page.click("form[action$='/move'] button[value=INFO]")
    assert "moved to INFO" in page.inner_text("p.flash")
    assert page.inner_text("#current-lane") == "INFO"
    shot(page, "message-moved")
    assert store.ledger(target["id"])[-1]["event"] == "corrected"
    page.click("a:text('Decision trace')")
    assert "corrected" in page.inner_text("table")
    page.goto(f"{server.url}/corrections")
    assert target["subject"] in page.inner_text("table")
    shot(page, "corrections")
    page.click("table button:text('Undo')")
    assert "undone: back in QUEUE" in page.inner_text("p.flash")
    page.context.close()


def test_forged_posts_without_csrf_are_refused(world: dict[str, Any]) -> None:
    server: LiveServer = world["server"]
    store: Store = world["store"]
    before = store.ledger(1)
    page = signed_in(world)
    # Same origin, signed in, but no token: refused by the CSRF guard.
    status = page.evaluate("""async () => (await fetch('/message/1/move', {method: 'POST',
        headers: {'Content-Type': 'application/x-www-form-urlencoded'},
        body: 'lane=SILENT'})).status""")
    assert status == 403
    # Another site auto-submits a form at us: refused (cookie withheld, origin and token wrong).
    page.goto(f"{world['elsewhere'].url}/attack")
    page.wait_for_load_state("networkidle")
    assert server.url in page.url
    # Ports do not make another site: 127.0.0.1:other is same-site, so the SameSite cookie
    # rides along and the Origin check is what refuses this one.
    assert "cross-origin request refused" in page.inner_text("main")
    shot(page, "forged-post-refused")
    assert store.ledger(1) == before
    page.context.close()


def test_second_user_cannot_open_first_users_message(world: dict[str, Any]) -> None:
    server: LiveServer = world["server"]
    page = signed_in(world, "bob")
    assert "bob's own mail" in page.inner_text("main")
    reply = page.goto(f"{server.url}/message/1")
    assert reply is not None and reply.status == 404
    assert "checkout" not in page.content()
    api = page.goto(f"{server.url}/api/messages/1")
    assert api is not None and api.status == 404
    page.goto(f"{server.url}/message/1")
    shot(page, "other-users-message-404")
    page.context.close()


def test_signed_link_page_confirms_before_acting(world: dict[str, Any]) -> None:
    server: LiveServer = world["server"]
    store: Store = world["store"]
    web = Repos(store, sealer=load_key_ring())
    expires = int((datetime.now(UTC) + timedelta(hours=1)).timestamp())
    token = sign_link(link_key(web.secrets), LinkClaim("mute", "local", 1, expires))
    page = world["browser"].new_page()  # no session: the signature is the credential
    page.goto(f"{server.url}/n/{token}")
    assert "Mute this sender?" in page.inner_text("main")
    shot(page, "link-confirm")
    assert web.senders.muted("local") == frozenset()
    page.click("button[type=submit]")
    assert "muted" in page.inner_text("main")
    assert len(web.senders.muted("local")) == 1
    page.close()


def test_setup_and_link_pages_render(world: dict[str, Any], tmp_path: Path) -> None:
    fresh = open_store(f"sqlite:///{tmp_path / 'fresh.db'}")
    with live_server(create_app(fresh, setup_token="tok")) as server:
        page = world["browser"].new_page()
        page.goto(f"{server.url}/setup?token=tok")
        shot(page, "setup")
        page.fill("#username", "me")
        page.fill("#password", PASSWORD)
        page.fill("#password2", PASSWORD)
        page.click("button[type=submit]")
        page.wait_for_url(f"{server.url}/")
        assert "Firewall" in page.inner_text("nav")
        page.goto(f"{server.url}/n/forged.token")
        assert "This link does not work" in page.inner_text("main")
        shot(page, "link-bad")
        page.close()


def test_core_actions_work_without_javascript(world: dict[str, Any]) -> None:
    server: LiveServer = world["server"]
    store: Store = world["store"]
    context = world["browser"].new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{server.url}/login")
    page.fill("#username", "ann")
    page.fill("#password", PASSWORD)
    page.click("button[type=submit]")
    assert page.url == f"{server.url}/"
    target = store.list_messages("MEETING")[0]
    page.goto(f"{server.url}/message/{target['id']}")
    page.click("form[action$='/move'] button[value=QUEUE]")
    assert page.inner_text("#current-lane") == "QUEUE"
    page.click("form[action$='/undo'] button")
    assert page.inner_text("#current-lane") == "MEETING"
    page.goto(f"{server.url}/settings")
    page.fill("#quiet", "22:00-07:00")
    page.click("text=Save notifications")
    assert "notifications saved" in page.inner_text("p.flash")
    context.close()


LABEL_CHECK = """() => [...document.querySelectorAll('input, select, textarea, button')]
  .filter(el => el.type !== 'hidden' && !el.hidden)
  .filter(el => {
    if (el.tagName === 'BUTTON') return !(el.innerText.trim() || el.getAttribute('aria-label'));
    if (el.type === 'radio') return !el.closest('label');
    return !(el.labels && el.labels.length) && !el.getAttribute('aria-label');
  }).map(el => el.outerHTML)"""


def test_every_control_is_labelled(world: dict[str, Any]) -> None:
    server: LiveServer = world["server"]
    page = signed_in(world)
    for path in ("/", "/message/1", "/message/1?view=html", "/corrections", "/approvals/a1",
                 "/settings", "/status", "/lane/QUEUE", "/rules", "/approvals", "/triage"):
        page.goto(f"{server.url}{path}")
        assert page.evaluate(LABEL_CHECK) == [], path
        assert page.locator("h2").count() >= 1 and page.get_attribute("html", "lang") == "en"
    page.context.close()


def test_rules_page_shows_cited_corrections_and_edits_without_javascript(
        world: dict[str, Any]) -> None:
    from mailmoat.learn.service import Learning

    server: LiveServer = world["server"]
    store: Store = world["store"]
    learning = Learning(store)
    for n in (1, 2):
        mid = store.ingest(f"From: Build Bot <ci@builds.example>\nSubject: build {n} "
                           "failed\n\nSee the log.\n".encode(), "eml").message_id
        learning.correct(mid, "PUSH", "ann")
    context = world["browser"].new_context(java_script_enabled=False,
                                           viewport={"width": 1100, "height": 800})
    page = context.new_page()
    page.goto(f"{server.url}/login")
    page.fill("#username", "ann")
    page.fill("#password", PASSWORD)
    page.click("button[type=submit]")
    page.goto(f"{server.url}/rules")
    rule = page.locator("article.rule", has_text="ci@builds.example")
    assert "Learned from 2 corrections" in rule.inner_text()
    assert "build 1 failed" in rule.inner_text() and "build 2 failed" in rule.inner_text()
    page.fill("#new-key", "gmail.com")
    page.select_option("#new-lane", "SILENT")
    page.click("form.add-pin button")
    assert "public mail domain" in page.inner_text("[role=alert]")
    shot(page, "rules-refused")
    page.fill("#new-key", "deals@shop.example")
    page.click("form.add-pin button")
    assert "pinned to SILENT" in page.inner_text("p.flash")
    shot(page, "rules")
    rule.locator("button:text('Remove rule')").click()
    assert "learned rule removed" in page.inner_text("p.flash")
    assert [p.lane.value for p in learning.pins()] == ["SILENT"]
    context.close()


def test_settings_edit_guidelines_and_lane_actions_without_javascript(
        world: dict[str, Any], tmp_path: Path) -> None:
    from mailmoat.accounts.registry import AccountSettings, add_account, get_account
    from mailmoat.accounts.secrets import load_key_ring

    store = open_store(f"sqlite:///{tmp_path / 'lanes.db'}")
    add_account(store, load_key_ring(tmp_path / "secret.key"), AccountSettings(
        name="work", host="127.0.0.1", port=993, username="me@example.org"), "not used here")
    make_user(store, "carol", ["work"])
    with live_server(create_app(store)) as server:
        context = world["browser"].new_context(java_script_enabled=False,
                                               viewport={"width": 1100, "height": 800})
        page = context.new_page()
        page.goto(f"{server.url}/login")
        page.fill("#username", "carol")
        page.fill("#password", PASSWORD)
        page.click("button[type=submit]")
        page.goto(f"{server.url}/settings")
        page.fill("#guidelines", "Brief. Sign as Carol.")
        page.fill("#daily_cap", "2")
        page.click("text=Save mode")
        assert "mode SUGGEST saved" in page.inner_text("p.flash")
        assert page.input_value("#guidelines") == "Brief. Sign as Carol."
        page.fill("input[name=keyword_INFO]", "$Moat Records")
        page.click("text=Save lane actions")
        assert "no spaces" in page.inner_text("[role=alert]")
        assert page.input_value("input[name=keyword_INFO]") == "$Moat Records"  # not lost
        shot(page, "settings-refused")
        page.fill("input[name=keyword_INFO]", "$MoatRecords")
        page.fill("input[name=folder_SILENT]", "Moat/Silent")
        page.check("input[name=mark_read_SILENT]")
        page.click("text=Save lane actions")
        assert "lane actions saved" in page.inner_text("p.flash")
        shot(page, "settings-lanes")
        context.close()
    silent = get_account(store, "work").lane_actions.for_lane(Lane.SILENT)
    assert (silent.folder, silent.mark_read) == ("Moat/Silent", True)
    assert get_account(store, "work").lane_actions.for_lane(Lane.INFO).keyword == "$MoatRecords"
