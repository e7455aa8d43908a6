"""The home page is a decision queue: PUSH and MEETING mail, pending approvals and triage,
each row with a one-line reason read off its stored trace (core/explain.py) and the arrival
time in the person's zone; the lane overview lives at /firewall; a bulk move files ticked
rows as a person's corrections."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from mailmoat.act.service import ActionService
from mailmoat.core.explain import why
from mailmoat.core.lanes import Lane
from mailmoat.entrypoints.web.app import create_app
from mailmoat.store import Store
from mailmoat.store.repos import Repos
from tests.support.act_support import send_payload
from tests.support.webhelpers import make_user, sign_in


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


def test_queue_spans_every_account_the_person_sees_and_acts_on_each(store: Store) -> None:
    """One view across the person's mailboxes, filterable by account; the message page, a
    move and an approval work for any of them without switching; a mailbox the person was
    not given stays a 404, filter or no filter."""
    work = store.ingest(b"From: ana@corp.example\nSubject: Notes from Tuesday\n\n"
                        b"The notes are attached.", "eml", account="work").message_id
    theirs = store.ingest(b"From: x@y.example\nSubject: Only Bob's\n\nhi", "eml",
                          account="bob").message_id
    Repos(store).decisions.move(work, "work", Lane.QUEUE, "test")
    sent = ActionService(store.engine).propose("work", send_payload(subject="Quarterly"),
                                               "agent", "api")
    make_user(store, "cleo", ["local", "work"])
    client = TestClient(create_app(store))
    csrf = sign_in(client, "cleo")

    page = client.get("/").text
    assert 'id="account-filter"' in page
    assert f'href="/message/{work}"' in page and "Quarterly" in page  # the other account's
    assert f'href="/message/{theirs}"' not in page
    only_work = client.get("/api/queue", params={"account": "work"}).json()
    rows = [r for g in only_work["groups"] for r in g["rows"]]
    assert rows and {r["account"] for r in rows} == {"work"}
    everything = client.get("/api/queue").json()
    assert {r["account"] for g in everything["groups"] for r in g["rows"]} == {"local", "work"}
    assert client.get("/", params={"account": "bob"}).status_code == 404
    assert client.get("/api/queue", params={"account": "bob"}).status_code == 404

    # The session reads "local"; the work message opens and moves all the same.
    assert client.get(f"/message/{work}").status_code == 200
    assert client.get(f"/api/messages/{work}/trace").status_code == 200
    moved = client.post(f"/message/{work}/move", data={"csrf": csrf, "lane": "INFO"},
                        follow_redirects=False)
    assert moved.status_code == 303
    assert store.get_message(work, account="work")["lane"] == "INFO"  # type: ignore[index]
    assert any(entry["actor"] == "cleo" for entry in store.ledger(work))
    assert client.get(f"/message/{theirs}").status_code == 404
    assert client.post(f"/message/{theirs}/move", data={"csrf": csrf, "lane": "PUSH"}
                       ).status_code == 404
    assert client.post("/queue/move", data={"csrf": csrf, "lane": "QUEUE",
                                            "id": [str(work)]}).status_code == 200
    assert store.get_message(work, account="work")["lane"] == "QUEUE"  # type: ignore[index]

    assert "Quarterly" in client.get("/approvals").text  # every account's, in one list
    assert [a["id"] for a in client.get("/api/approvals").json()] == [str(sent["id"])]
    assert client.get(f"/approvals/{sent['id']}").status_code == 200
    approved = client.post(f"/approvals/{sent['id']}/approve", data={"csrf": csrf},
                           follow_redirects=False)
    assert approved.status_code == 303
    assert ActionService(store.engine).show(sent["id"])["status"] != "pending"
    bobs = ActionService(store.engine).propose("bob", send_payload(subject="Bob's"),
                                               "agent", "api")
    assert client.get(f"/approvals/{bobs['id']}").status_code == 404
    assert client.post(f"/api/approvals/{bobs['id']}/approve", json={},
                       headers={"x-csrf-token": csrf}).status_code == 404


def test_firewall_and_lane_pages_speak_in_words_with_local_times(store: Store) -> None:
    Repos(store).settings.save("local", {"notify": {"timezone": "America/New_York"}})
    client = TestClient(create_app(store))
    sign_in(client, "ann")
    push = store.list_messages("PUSH")
    for path in ("/firewall", "/lane/PUSH", "/lane/QUEUE"):
        page = client.get(path).text
        rows = "".join(re.findall(r'<ul class="msgs">(.*?)</ul>', page, re.S))
        assert rows and 'class="why"' in rows, path
        assert "confidence 0." not in page and "trust 0." not in page, path
        assert "· local" not in rows and "urgency 0." not in page, path
        times = re.findall(r'<time class="when" datetime="([^"]+)"', page)
        assert times and all(t.endswith(("-05:00", "-04:00")) for t in times), path
        assert "Times in America/New_York" in page, path
    lane = client.get("/lane/PUSH").text
    for row in push:
        trace = store.get_message(row["id"])["trace"]  # type: ignore[index]
        assert why(trace).replace("'", "&#39;") in lane
        assert f'href="/message/{row["id"]}/trace"' in lane  # the numbers, one click away
    trace_page = client.get(f"/message/{push[0]['id']}/trace").text
    assert "urgency" in trace_page  # the numbers stay on the trace page
    # The API keeps the numbers for programs.
    assert "features" in client.get("/api/messages", params={"lane": "PUSH"}).json()[0]
