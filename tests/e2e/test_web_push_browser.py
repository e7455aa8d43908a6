"""Web Push end to end, the browser half in real Chromium: the notifier sends an encrypted,
VAPID-signed push (pywebpush) to a loopback push-service stand-in, which decrypts it (http_ece)
with the subscription's keys as the browser's push service would hand it over; the payload is
delivered to mailmoat's service worker over CDP (ServiceWorker.deliverPushMessage) and the
notification it shows is read back with registration.getNotifications()."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import http_ece
import pytest

from mailmoat.accounts.secrets import load_key_ring
from mailmoat.entrypoints.web.app import create_app
from mailmoat.notify.dispatch import notify_account
from mailmoat.services.bootstrap import open_store
from mailmoat.store.repos import Repos
from tests.e2e.test_web_browser import ARGS, CHROMIUM, SHOTS, sync_api
from tests.integration.test_notify_dispatch import NEW_PUSH, Receiver, _subscription
from tests.support.webhelpers import PASSWORD, live_server, make_user

REGISTER = """async () => {
  const reg = await navigator.serviceWorker.register('/static/sw.js');
  while (!reg.active) await new Promise(r => setTimeout(r, 50));
  return reg.scope;
}"""
SHOWN = """async (scope) => {
  const reg = await navigator.serviceWorker.getRegistration(scope);
  return (await reg.getNotifications()).map(n => ({title: n.title, body: n.body, tag: n.tag,
    data: n.data, actions: n.actions.map(a => a.action + ':' + a.title)}));
}"""


def _pushed_payload(tmp_path: Path) -> tuple[bytes, int]:
    """Run the notifier for one fresh PUSH mail; return what the push service decrypts."""
    store = open_store(f"sqlite:///{tmp_path / 'push.db'}")
    web = Repos(store, sealer=load_key_ring())
    user = make_user(store, "ann", ["local"])
    web.settings.save("local", {"notify": {}})
    receiver = Receiver()
    with live_server(receiver.app()) as service:
        key, auth, sub = _subscription(f"{service.url}/push/1")
        web.push.add(user.id, "local", sub["endpoint"], sub["keys"]["p256dh"],
                     sub["keys"]["auth"])
        message_id = store.ingest(NEW_PUSH, "eml").message_id
        report = notify_account(web, "local", "http://mailmoat.test")
    assert len(report.sent) == 1 and len(receiver.pushes) == 1
    _headers, body = receiver.pushes[0]
    return http_ece.decrypt(body, private_key=key, auth_secret=auth,
                            version="aes128gcm"), message_id


def test_pushed_notification_is_shown_by_the_service_worker(tmp_path: Path) -> None:
    plain, message_id = _pushed_payload(tmp_path)
    sent = json.loads(plain)
    app_store = open_store(f"sqlite:///{tmp_path / 'app.db'}")
    make_user(app_store, "ann", ["local"])
    with live_server(create_app(app_store)) as server, sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            context = browser.new_context()
            context.grant_permissions(["notifications"], origin=server.url)
            page = context.new_page()
            page.goto(f"{server.url}/login")
            page.fill("#username", "ann")
            page.fill("#password", PASSWORD)
            with page.expect_navigation():
                page.click("button[type=submit]")
            page.goto(f"{server.url}/settings")
            # The enhancement shows its button only where push works; this browser has it.
            assert page.is_visible("#push-subscribe")
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / "settings-push.png"), full_page=True)

            cdp = context.new_cdp_session(page)
            registrations: list[dict[str, Any]] = []
            cdp.on("ServiceWorker.workerRegistrationUpdated",
                   lambda event: registrations.extend(event["registrations"]))
            cdp.send("ServiceWorker.enable")
            scope = page.evaluate(REGISTER)
            assert page.evaluate(SHOWN, scope) == []
            live: list[dict[str, Any]] = []
            for _ in range(200):  # CDP reports the registration asynchronously
                live = [r for r in registrations if r["scopeURL"] == scope and not r["isDeleted"]]
                if live:
                    break
                page.wait_for_timeout(25)
            assert live, registrations
            cdp.send("ServiceWorker.deliverPushMessage", {
                "origin": server.url, "registrationId": live[0]["registrationId"],
                "data": plain.decode()})
            page.wait_for_function(
                "async (s) => (await (await navigator.serviceWorker.getRegistration(s))"
                ".getNotifications()).length > 0", arg=scope)
            shown = page.evaluate(SHOWN, scope)
        finally:
            browser.close()
    assert len(shown) == 1
    note = shown[0]
    assert note["title"] == sent["title"] and note["title"].startswith("[PUSH]")
    assert "outage again" in note["body"]
    assert note["data"]["url"] == f"http://mailmoat.test/message/{message_id}"
    assert note["tag"] == note["data"]["url"]  # one notification per message, never stacked
    # One-tap Later / Mute sender open the signed confirm links.
    assert note["actions"] == ["later:Later", "mute:Mute sender"]
    assert note["data"]["later"].startswith("http://mailmoat.test/n/")
    assert note["data"]["mute"].startswith("http://mailmoat.test/n/")
    assert note["data"]["later"] != note["data"]["mute"]


pytestmark = pytest.mark.slow
