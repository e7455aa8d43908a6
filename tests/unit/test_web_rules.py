"""The rules page: learned rules citing the corrections they came from, pins, and the edits a
person makes there (pin, change, unpin, remove a rule), each through learn/ for the signed-in
account only."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from mailmoat.entrypoints.web.app import create_app
from mailmoat.learn.service import Learning
from mailmoat.services.bootstrap import open_store
from mailmoat.store import Store
from tests.support.webhelpers import make_user, sign_in


def _mail(subject: str, sender: str = "ops@vendor.example") -> bytes:
    return f"From: Vendor Ops <{sender}>\nSubject: {subject}\n\nStatus update.\n".encode()


@pytest.fixture
def store(tmp_path: Path) -> Store:
    store = open_store(f"sqlite:///{tmp_path / 'rules.db'}")
    make_user(store, "ann", ["local"])
    make_user(store, "bob", ["bob"])
    return store


def _client(store: Store, user: str) -> TestClient:
    client = TestClient(create_app(store))
    client.csrf = sign_in(client, user)  # type: ignore[attr-defined]
    return client


def _post(client: TestClient, path: str, **data: str) -> object:
    return client.post(path, data={"csrf": client.csrf, **data})  # type: ignore[attr-defined]


def test_learned_rule_is_listed_with_its_corrections_and_can_be_removed(store: Store) -> None:
    first = store.ingest(_mail("Weekly status 1"), "eml").message_id
    second = store.ingest(_mail("Weekly status 2"), "eml").message_id
    ann = _client(store, "ann")
    assert "No learned rules yet" in ann.get("/rules").text
    target = "PUSH"
    for mid in (first, second):
        assert _post(ann, f"/message/{mid}/move", lane=target).status_code == 200  # type: ignore[attr-defined]
    page = ann.get("/rules").text
    # Two identical corrections make a rule for the address and one for its organisation.
    articles = {re.search(r"<code>([^<]+)</code>", a).group(1): a  # type: ignore[union-attr]
                for a in re.findall(r'<article class="rule".*?</article>', page, re.S)}
    assert sorted(articles) == ["ops@vendor.example", "vendor.example"]
    corrections = Learning(store).corrections()
    for text in articles.values():
        assert f'<span class="lane">{target}</span>' in text
        # Each cited correction names its message, the lane it was shown in and the move.
        for c in corrections:
            assert f"#{c['id']}" in text and f'href="/message/{c["message_id"]}"' in text
            assert f"from {c['shown_lane']} to {target}" in text
        assert "Weekly status 1" in text and "Weekly status 2" in text
        assert "Learned from 2 corrections" in text

    reply = _post(ann, "/rules/remove", key="ops@vendor.example")
    assert "learned rule removed; the rules learned from the same corrections went with it" \
        in reply.text  # type: ignore[attr-defined]
    # The domain rule cited the same two corrections: they no longer count there either.
    assert Learning(store).rules() == []
    assert len(Learning(store).corrections()) == 3  # the removal is recorded, nothing erased
    assert "<code>ops@vendor.example</code>" not in ann.get("/rules").text
    again = _post(ann, "/rules/remove", key="ops@vendor.example")
    assert again.status_code == 400 and "no learned rule" in again.text  # type: ignore[attr-defined]


def test_pins_are_added_changed_and_removed_on_the_page(store: Store) -> None:
    ann = _client(store, "ann")
    added = _post(ann, "/rules/pin", key="News@Letters.example", lane="SILENT")
    assert "pinned to SILENT" in added.text  # type: ignore[attr-defined]
    assert [(p.key.value, p.lane.value) for p in Learning(store).pins()] == [
        ("news@letters.example", "SILENT")]
    _post(ann, "/rules/pin", key="news@letters.example", lane="INFO")
    assert [p.lane.value for p in Learning(store).pins()] == ["INFO"]
    page = ann.get("/rules").text
    assert "<code>news@letters.example</code>" in page
    gone = _post(ann, "/rules/unpin", key="news@letters.example")
    assert "pin removed" in gone.text  # type: ignore[attr-defined]
    assert Learning(store).pins() == []


@pytest.mark.parametrize(("key", "lane", "reason"), [
    ("gmail.com", "SILENT", "public mail domain"),
    ("not a sender", "QUEUE", "not an address or domain"),
    ("ana@client.example", "LOUD", "unknown lane"),
])
def test_bad_pins_are_refused_with_the_reason_and_the_typed_key_kept(
        store: Store, key: str, lane: str, reason: str) -> None:
    ann = _client(store, "ann")
    reply = _post(ann, "/rules/pin", key=key, lane=lane)
    assert reply.status_code == 400 and reason in reply.text  # type: ignore[attr-defined]
    assert f'value="{key}"' in reply.text  # type: ignore[attr-defined]
    assert Learning(store).pins() == []


def test_rules_are_per_account_and_forms_need_the_csrf_token(store: Store) -> None:
    ann, bob = _client(store, "ann"), _client(store, "bob")
    _post(ann, "/rules/pin", key="boss@corp.example", lane="PUSH")
    assert "boss@corp.example" not in bob.get("/rules").text
    refused = _post(bob, "/rules/unpin", key="boss@corp.example")
    assert refused.status_code == 400 and "not pinned" in refused.text  # type: ignore[attr-defined]
    assert [p.key.value for p in Learning(store, account="local").pins()] == ["boss@corp.example"]
    forged = ann.post("/rules/unpin", data={"key": "boss@corp.example"})
    assert forged.status_code == 403
    assert len(Learning(store, account="local").pins()) == 1
