"""The firewall page and its JSON API, served from a real store."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from mailmoat.demo import import_demo
from mailmoat.store import Store, open_store
from mailmoat.store.models import MessageRow
from mailmoat.web.app import create_app


@pytest.fixture
def store(tmp_path: Path) -> Store:
    store = open_store(f"sqlite:///{tmp_path / 'web.db'}")
    import_demo(store)
    return store


@pytest.fixture
def client(store: Store) -> TestClient:
    return TestClient(create_app(store))


def test_firewall_shows_lanes_in_order_with_counts(client: TestClient, store: Store) -> None:
    page = client.get("/")
    assert page.status_code == 200
    html = page.text
    positions = [html.index(f'id="h-{lane}"') for lane in ("PUSH", "MEETING", "QUEUE", "INFO",
                                                            "SILENT")]
    assert positions == sorted(positions)
    counts = store.lane_counts()
    assert f'<span class="count">{counts["PUSH"]}</span>' in html
    assert "checkout is down" in html  # a PUSH message is on the front page
    assert "Black Friday" not in html  # SILENT mail is not shown unless you look


def test_lane_page_lists_reason_and_features(client: TestClient) -> None:
    page = client.get("/lane/silent")
    assert page.status_code == 200
    assert "Black Friday" in page.text
    assert "untrusted, calm, reversible" in page.text
    assert "urgency 0.10" in page.text
    assert client.get("/lane/LOUD").status_code == 404


def test_message_page_shows_trace_and_escapes_content(client: TestClient, store: Store) -> None:
    hostile = b"From: x@evil.example\nSubject: <script>alert(1)</script>\n\n<img src=x onerror=1>"
    mid = store.ingest(hostile, "eml").message_id
    page = client.get(f"/message/{mid}")
    assert page.status_code == 200
    assert "<script>alert(1)</script>" not in page.text
    assert "&lt;script&gt;" in page.text
    assert "input hash" in page.text and "policy version" in page.text
    assert "This decision is stale" not in page.text
    assert client.get("/message/999999").status_code == 404


def test_stale_decision_is_flagged(client: TestClient, store: Store) -> None:
    with store.sessions.begin() as session:
        row = session.get(MessageRow, 1)
        assert row is not None
        row.raw = row.raw + b"\nappended after the decision"
    assert "This decision is stale" in client.get("/message/1").text
    assert client.get("/api/messages/1").json()["stale"] is True


def test_json_api_matches_the_page(client: TestClient, store: Store) -> None:
    lanes = client.get("/api/lanes").json()
    assert lanes["counts"] == {k: store.lane_counts().get(k, 0)
                               for k in ("PUSH", "MEETING", "QUEUE", "INFO", "SILENT")}
    push = client.get("/api/messages", params={"lane": "PUSH"}).json()
    assert len(push) == lanes["counts"]["PUSH"]
    one = client.get(f"/api/messages/{push[0]['id']}").json()
    assert one["trace"]["lane"] == "PUSH"
    assert client.get("/openapi.json").status_code == 200
