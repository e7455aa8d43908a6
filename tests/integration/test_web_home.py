"""The home page is a decision queue: PUSH and MEETING mail, pending approvals and triage,
each row with a one-line reason read off its stored trace (core/explain.py) and the arrival
time in the person's zone; the lane overview lives at /firewall; a bulk move files ticked
rows as a person's corrections."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from mailmoat.act.service import ActionService
from mailmoat.core.explain import why
from mailmoat.entrypoints.web.app import create_app
from mailmoat.store import Store
from mailmoat.store.repos import Repos
from tests.support.act_support import send_payload
from tests.support.webhelpers import sign_in


def test_home_lists_what_needs_you_with_reasons_in_words(store: Store) -> None:
    push = store.list_messages("PUSH")
    assert push, "the demo mailbox has PUSH mail"
    Repos(store).settings.save("local", {"notify": {"timezone": "Asia/Seoul"}})
    ActionService(store.engine).propose("local", send_payload(subject="Signed contract"),
                                        "agent", "api")
    client = TestClient(create_app(store))
    sign_in(client, "ann")
    page = client.get("/").text
    for row in push:
        assert f'href="/message/{row["id"]}"' in page
        trace = store.get_message(row["id"])["trace"]  # type: ignore[index]
        line = why(trace)
        assert line and line.replace("'", "&#39;") in page
    assert "confidence 0." not in page  # numbers stay on the trace page
    assert "Black Friday" not in page  # SILENT mail is not in the queue
    assert "Waiting for your approval" in page and "Signed contract" in page
    times = re.findall(r'<time class="when" datetime="([^"]+)"', page)
    assert times and all(t.endswith("+09:00") for t in times)  # the person's zone
    assert "Times in Asia/Seoul" in page

    overview = client.get("/firewall").text
    assert 'id="h-PUSH"' in overview and 'id="count-SILENT"' in overview

    api = client.get("/api/queue").json()
    assert [g["lane"] for g in api["groups"]] == ["PUSH", "MEETING", "QUEUE"]
    assert {r["id"] for r in api["groups"][0]["rows"]} == {r["id"] for r in push}
    assert all(r["why"] for g in api["groups"] for r in g["rows"])


def test_bulk_move_files_ticked_rows_as_corrections(store: Store) -> None:
    client = TestClient(create_app(store))
    csrf = sign_in(client, "ann")
    meeting = [r["id"] for r in store.list_messages("MEETING")]
    assert meeting
    moved = client.post("/queue/move", data={"csrf": csrf, "lane": "QUEUE", "id": meeting},
                        follow_redirects=False)
    assert moved.status_code == 303 and moved.headers["location"] == "/?done=moved_many.QUEUE"
    assert store.list_messages("MEETING") == []
    assert {r["id"] for r in store.list_messages("QUEUE")} >= set(meeting)
    assert all(store.ledger(i)[-1]["actor"] == "ann" for i in meeting)
    # Refused: no CSRF token, a non-digit id, another account's id.
    assert client.post("/queue/move", data={"lane": "PUSH", "id": meeting}).status_code == 403
    assert client.post("/queue/move", data={"csrf": csrf, "lane": "PUSH",
                                            "id": ["１"]}).status_code == 422
    other = store.ingest(b"From: x@y.example\nSubject: theirs\n\nhi", "eml",
                         account="bob").message_id
    assert client.post("/queue/move", data={"csrf": csrf, "lane": "PUSH",
                                            "id": [str(other)]}).status_code == 404
    assert store.get_message(other, account="bob")["lane"] != "PUSH"  # type: ignore[index]
