"""The firewall pages and their JSON API, served from a real store to a signed-in user."""

from __future__ import annotations

from fastapi.testclient import TestClient

from mailmoat.entrypoints.web.app import create_app
from mailmoat.store import Store
from mailmoat.store.tables.messages import MessageRow
from tests.support.webhelpers import FakeApprovals, sign_in

LANES = ("PUSH", "MEETING", "QUEUE", "INFO", "SILENT")


def test_firewall_shows_lanes_in_order_with_counts(client: TestClient, store: Store) -> None:
    page = client.get("/firewall")
    assert page.status_code == 200
    html = page.text
    positions = [html.index(f'id="h-{lane}"') for lane in LANES]
    assert positions == sorted(positions)
    counts = store.lane_counts()
    for lane in LANES:
        assert f'<span class="count" id="count-{lane}">{counts[lane]}</span>' in html
    assert "checkout is down" in html  # a PUSH message is on the front page
    assert "Black Friday" not in html  # SILENT mail is not shown unless you look


def test_lane_page_lists_reasons_in_words(client: TestClient) -> None:
    page = client.get("/lane/silent")
    assert page.status_code == 200
    assert "Black Friday" in page.text
    assert "bulk or promotional mail from" in page.text  # core/explain.py, not the policy's
    assert "untrusted, calm, reversible" not in page.text and "urgency 0.10" not in page.text
    assert client.get("/lane/LOUD").status_code == 404


def test_message_page_escapes_content_and_trace_page_explains(client: TestClient,
                                                              store: Store) -> None:
    hostile = b"From: x@evil.example\nSubject: <script>alert(1)</script>\n\n<img src=x onerror=1>"
    mid = store.ingest(hostile, "eml").message_id
    page = client.get(f"/message/{mid}")
    assert page.status_code == 200
    assert "<script>alert(1)</script>" not in page.text
    assert "&lt;script&gt;" in page.text
    assert "This decision is stale" not in page.text
    trace = client.get(f"/message/{mid}/trace").text
    for label in ("input hash", "policy version", "External facts",
                  "Signals", "Features", "source"):
        assert label in trace
    assert client.get("/message/999999").status_code == 404


def test_stale_decision_is_flagged(client: TestClient, store: Store) -> None:
    with store.sessions.begin() as session:
        row = session.get(MessageRow, 1)
        assert row is not None
        row.raw = row.raw + b"\nappended after the decision"
    assert "This decision is stale" in client.get("/message/1").text
    assert "This decision is stale" in client.get("/message/1/trace").text
    assert client.get("/api/messages/1").json()["stale"] is True


def test_json_api_matches_the_page(client: TestClient, store: Store) -> None:
    lanes = client.get("/api/lanes").json()
    assert lanes["counts"] == {k: store.lane_counts().get(k, 0) for k in LANES}
    push = client.get("/api/messages", params={"lane": "PUSH"}).json()
    assert len(push) == lanes["counts"]["PUSH"]
    one = client.get(f"/api/messages/{push[0]['id']}").json()
    assert one["trace"]["lane"] == "PUSH"
    spec = client.get("/openapi.json").json()
    for path in ("/api/messages/{message_id}/move", "/api/messages/{message_id}/pin",
                 "/api/messages/{message_id}/undo", "/api/approvals/{action_id}/approve",
                 "/api/settings/notify", "/api/status", "/api/session"):
        assert path in spec["paths"], path


def test_move_records_correction_and_undo_restores(client: TestClient, store: Store) -> None:
    push_id = client.get("/api/messages", params={"lane": "QUEUE"}).json()[0]["id"]
    moved = client.post(f"/message/{push_id}/move", data={"lane": "INFO",
                                                          "csrf": client.csrf})  # type: ignore[attr-defined]
    assert moved.status_code == 200 and "moved to INFO" in moved.text
    ledger = store.ledger(push_id)
    assert [e["event"] for e in ledger] == ["decided", "corrected"]
    assert ledger[-1]["lane"] == "INFO" and ledger[-1]["actor"] == "ann"
    assert "INFO" in client.get("/corrections").text
    undone = client.post(f"/api/messages/{push_id}/undo",
                         headers={"X-CSRF-Token": client.csrf}).json()  # type: ignore[attr-defined]
    assert undone["lane"] == "QUEUE"
    assert [e["event"] for e in store.ledger(push_id)] == ["decided", "corrected", "corrected"]
    again = client.post(f"/api/messages/{push_id}/undo",
                        headers={"X-CSRF-Token": client.csrf}).json()  # type: ignore[attr-defined]
    assert again["lane"] is None and again["note"] == "nothing to undo"


def test_urgent_mail_cannot_be_moved_into_a_hidden_lane(client: TestClient) -> None:
    push = client.get("/api/messages", params={"lane": "PUSH"}).json()[0]
    assert push["features"]["urgency"] >= 0.7
    reply = client.post(f"/api/messages/{push['id']}/move", json={"lane": "SILENT"},
                        headers={"X-CSRF-Token": client.csrf})  # type: ignore[attr-defined]
    assert reply.json()["lane"] == "QUEUE"
    assert "urgent mail stays visible" in reply.json()["note"]


def test_pin_sender_refiles_their_mail_and_is_listed(client: TestClient, store: Store) -> None:
    silent = client.get("/api/messages", params={"lane": "SILENT"}).json()[0]
    reply = client.post(f"/api/messages/{silent['id']}/pin", json={"lane": "QUEUE"},
                        headers={"X-CSRF-Token": client.csrf})  # type: ignore[attr-defined]
    assert reply.status_code == 200 and reply.json()["lane"] == "QUEUE"
    pins = client.get("/api/rules").json()["pins"]
    assert (silent["from_addr"].lower(), "QUEUE") in [(p["key"], p["lane"]) for p in pins]
    assert store.get_message(silent["id"])["lane"] == "QUEUE"  # type: ignore[index]
    # The pin is a sender fact: new mail from that sender arrives in the pinned lane.
    fresh = (f"From: {silent['from_addr']}\r\nTo: me@example.org\r\nSubject: 50% off again\r\n"
             "List-Unsubscribe: <mailto:u@example.com>\r\n\r\nSale ends tonight.\r\n").encode()
    result = store.ingest(fresh, "eml")
    assert result.lane == "QUEUE"
    assert store.get_message(result.message_id)["trace"]["branch"] == "pin"  # type: ignore[index]


def test_pages_send_a_strict_content_security_policy(client: TestClient) -> None:
    for path in ("/", "/message/1", "/message/1?view=html", "/settings", "/login"):
        csp = client.get(path).headers["content-security-policy"]
        assert "default-src 'none'" in csp and "script-src 'self'" in csp
        assert "'unsafe-inline'" not in csp
        assert "img-src 'self' data:;" in csp


def test_approvals_and_triage_pages_render_empty(client: TestClient) -> None:
    assert "Nothing waits for your approval" in client.get("/approvals").text
    assert "No canaries fired" in client.get("/triage").text
    assert client.get("/api/approvals").json() == []
    assert client.get("/approvals/nope").status_code == 404
    assert client.post("/api/approvals/nope/approve",
                       headers={"X-CSRF-Token": client.csrf}).status_code == 404  # type: ignore[attr-defined]


def test_settings_validate_and_keep_old_values_on_bad_input(client: TestClient) -> None:
    csrf = client.csrf  # type: ignore[attr-defined]
    ok = client.post("/settings/notify", data={
        "csrf": csrf, "timezone": "Europe/Berlin", "quiet": "22:00-07:00", "focus": "",
        "rate_limit": "3", "rate_window_minutes": "10",
        "add_url": "ntfy://secret-topic-token"})
    assert ok.status_code == 200 and "notifications saved" in ok.text
    bad = client.post("/settings/notify", data={"csrf": csrf, "quiet": "25:00-07:00"})
    assert "Not saved" in bad.text
    settings = client.get("/api/settings").json()
    assert settings["notify"]["timezone"] == "Europe/Berlin"
    assert settings["notify"]["quiet_hours"][0]["start"] == "22:00:00"
    assert settings["notify"]["apprise_urls"] == ["ntfy://secret-topic-token/…"]
    page = client.get("/settings").text
    assert "secret-topic-token/…" in page
    reply = client.put("/api/settings/notify", json={"timezone": "Mars/Olympus"},
                       headers={"X-CSRF-Token": csrf})
    assert reply.status_code == 422 and "unknown time zone" in reply.text
    mode = client.put("/api/settings/mode", json={"mode": "AUTO"}, headers={"X-CSRF-Token": csrf})
    assert mode.json()["mode"] == "AUTO"


def test_status_page_reports_scorer_and_degraded_share(client: TestClient) -> None:
    status = client.get("/api/status").json()
    assert status["scorers"] == ["local"] and status["degraded"] == 0
    assert status["decisions"] == 16
    page = client.get("/status").text
    assert "The local scorer on this machine decides every message" in page
    assert "Nothing: no language model is configured." in page
    assert "of no cap" not in page and "$0.0000" not in page


def test_approvals_pages_show_exact_payload_and_decide(store: Store) -> None:
    fake = FakeApprovals()
    client = TestClient(create_app(store, approvals=fake))
    csrf = sign_in(client, "ann")
    listing = client.get("/approvals").text
    assert "send_email: reply to Priya Raman" in listing
    detail = client.get("/approvals/a1").text
    assert fake.items["a1"].payload_sha256 in detail
    assert "&#34;to&#34;:&#34;priya@example.org&#34;" in detail  # the exact bytes, escaped
    assert "+On it, rolling back now." in detail
    assert client.get("/api/approvals/a1").json()["payload"] == fake.items["a1"].payload
    rejected = client.post("/approvals/a1/reject", data={"csrf": csrf, "reason": "wrong tone"})
    assert rejected.status_code == 200 and "rejected" in rejected.text
    assert fake.decisions == [("a1", "ann", "rejected", "wrong tone")]
    assert client.post("/api/approvals/a1/approve",
                       headers={"X-CSRF-Token": csrf}).status_code == 404


def test_allowing_a_senders_images_widens_only_that_view(client: TestClient,
                                                         store: Store) -> None:
    raw = (b"From: news@shop.example\nSubject: new arrivals\nMIME-Version: 1.0\n"
           b"Content-Type: text/html\n\n<p>look</p><img src=\"https://cdn.shop.example/a.png\">"
           b"<img src=\"https://t.shop.example/p.gif\" width=\"1\" height=\"1\">")
    mid = store.ingest(raw, "eml").message_id
    blocked = client.get(f"/message/{mid}?view=html")
    assert "cdn.shop.example" not in blocked.text and "2 remote image(s)" in blocked.text
    assert "https:" not in blocked.headers["content-security-policy"]
    reply = client.post(f"/api/messages/{mid}/images", json={"allow": True},
                        headers={"X-CSRF-Token": client.csrf})  # type: ignore[attr-defined]
    assert reply.status_code == 200
    allowed = client.get(f"/message/{mid}?view=html")
    assert 'src="https://cdn.shop.example/a.png"' in allowed.text
    assert "t.shop.example" not in allowed.text  # the tracking pixel stays out
    assert "img-src 'self' data: https:" in allowed.headers["content-security-policy"]
    text_view = client.get(f"/message/{mid}")
    assert "https:" not in text_view.headers["content-security-policy"]


def test_undo_withdraws_the_correction_from_rules_and_learning(
    client: TestClient, store: Store,
) -> None:
    from mailmoat.learn.service import Learning

    csrf = {"X-CSRF-Token": client.csrf}  # type: ignore[attr-defined]
    with store.sessions() as s:
        acme = [m.id for m in s.query(MessageRow).filter(
            MessageRow.from_addr.like("%@acme-corp.example")).order_by(MessageRow.id)]
    assert len(acme) == 2
    for message_id in acme:
        moved = client.post(f"/api/messages/{message_id}/move", json={"lane": "PUSH"},
                            headers=csrf)
        assert moved.status_code == 200 and moved.json()["lane"] == "PUSH"
    learning = Learning(store, account="local")
    assert [(r.rule.key.value, r.rule.lane.value) for r in learning.rules()] == [
        ("acme-corp.example", "PUSH")]
    assert len(learning.examples("x@acme-corp.example", "")) == 2

    assert client.post(f"/api/messages/{acme[1]}/undo", headers=csrf).json()["lane"] != "PUSH"
    assert learning.rules() == []  # one standing correction is an opinion, not a rule
    assert len(learning.examples("x@acme-corp.example", "")) == 1
    kinds = [c["kind"] for c in learning.corrections()]
    assert kinds == ["lane_change", "lane_change", "undo"]
    assert learning.corrections()[-1]["withdraws"] == learning.corrections()[1]["id"]
    # Moving it again counts afresh: the rule is back, citing the standing corrections only.
    client.post(f"/api/messages/{acme[1]}/move", json={"lane": "PUSH"}, headers=csrf)
    (view,) = learning.rules()
    ids = [c["id"] for c in learning.corrections() if c["kind"] == "lane_change"]
    assert view.rule.correction_ids == (ids[0], ids[2])


def test_snoozed_mail_leaves_lists_and_counts_until_it_wakes(
    client: TestClient, store: Store,
) -> None:
    from datetime import UTC, datetime, timedelta

    from mailmoat.act.service import ActionService

    queue = client.get("/api/messages", params={"lane": "QUEUE"}).json()
    before = client.get("/api/lanes").json()["counts"]["QUEUE"]
    service = ActionService(store.engine)

    def snooze(message_id: int, hours: float) -> None:
        until = (datetime.now(UTC) + timedelta(hours=hours)).isoformat()
        proposal = service.propose("local", {"action": "snooze", "message": message_id,
                                             "until": until}, "ann", "web")
        service.approve(proposal["id"], "ann")

    snooze(queue[0]["id"], 2)
    snooze(queue[1]["id"], -1)  # already woken: nothing hidden
    shown = [m["id"] for m in client.get("/api/messages", params={"lane": "QUEUE"}).json()]
    assert queue[0]["id"] not in shown and queue[1]["id"] in shown
    assert client.get("/api/lanes").json()["counts"]["QUEUE"] == before - 1
    assert queue[0]["subject"] not in client.get("/lane/QUEUE").text
    # Hidden from the lists, not gone: its page still opens.
    assert client.get(f"/api/messages/{queue[0]['id']}").status_code == 200


def test_favicon_is_served_to_anyone(store: Store) -> None:
    """A fresh browser session asks for /favicon.ico before signing in; a 404 there is a
    console error on every first visit."""
    anonymous = TestClient(create_app(store))
    response = anonymous.get("/favicon.ico", follow_redirects=False)
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/x-icon"
    assert response.content[:4] == b"\x00\x00\x01\x00"  # an ICO header, one image follows
    assert int.from_bytes(response.content[4:6], "little") == 1
