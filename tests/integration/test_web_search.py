"""Search from the page and the API: the signed-in account's mail only, each hit with its
lane and one-line reason; the query is data (escaped, never syntax or markup)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from mailmoat.entrypoints.web.app import create_app
from mailmoat.store import Store
from tests.support.webhelpers import make_user, sign_in


def test_search_page_and_api(store: Store) -> None:
    store.ingest(b"From: eve@evil.example\nSubject: checkout secrets\n\nbob only", "eml",
                 account="bob")
    make_user(store, "bob", ["bob"])
    client = TestClient(create_app(store))
    sign_in(client, "ann")
    page = client.get("/search", params={"q": "checkout"}).text
    assert "URGENT: checkout is down" in page and 'class="tag">PUSH<' in page
    assert "checkout secrets" not in page  # bob's mail
    assert 'role="search"' in client.get("/").text  # the box is on every page
    api = client.get("/api/search", params={"q": "checkout"}).json()
    assert [h["subject"] for h in api] == ["URGENT: checkout is down, need help ASAP"]
    assert api[0]["why"] and api[0]["lane"] == "PUSH"
    hostile = client.get("/search", params={"q": '<script>x</script> " OR'})
    assert hostile.status_code == 200 and "<script>x</script>" not in hostile.text
    assert "Nothing matches every word." in hostile.text
    assert client.get("/search", params={"q": "x" * 201}).status_code == 422
    bob = TestClient(create_app(store))
    sign_in(bob, "bob")
    assert [h["subject"] for h in bob.get("/api/search", params={"q": "checkout"}).json()] \
        == ["checkout secrets"]
