"""The MEETING lane on the web page and the JSON API: slot, conflict, alternatives, the two
proposals and one approve button; the calendar is a real Radicale."""

from __future__ import annotations

import requests
from fastapi.testclient import TestClient
from sqlalchemy import select

from mailmoat.accounts.secrets import load_key_ring
from mailmoat.calendar.registry import CalendarSettings, add_calendar
from mailmoat.calendar.sync import sync_calendar
from mailmoat.store.tables.messages import MessageRow
from tests.support.radicale_server import PASSWORD, USER, Radicale

BUSY = ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:busy-1\r\n"
        "DTSTAMP:20261130T000000Z\r\nDTSTART:20261208T150000Z\r\nDTEND:20261208T160000Z\r\n"
        "SUMMARY:<script>alert(1)</script>Dentist\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")


def _ids(store) -> dict[str, int]:  # type: ignore[no-untyped-def]
    with store.sessions() as session:
        return {s: i for i, s in session.execute(select(MessageRow.id, MessageRow.subject))}


def _calendar(store, radicale: Radicale, tmp_path) -> None:  # type: ignore[no-untyped-def]
    url = radicale.make_calendar(f"web-{tmp_path.name[-6:]}")
    r = requests.put(f"{url}busy-1.ics", data=BUSY.encode(), auth=(USER, PASSWORD), timeout=10,
                     headers={"Content-Type": "text/calendar"})
    assert r.status_code in (201, 204)
    ring = load_key_ring(tmp_path / "k")
    add_calendar(store, ring, CalendarSettings("work", url, username=USER, zone="Europe/Berlin"),
                 PASSWORD)
    sync_calendar(store, ring, "work")


def test_meeting_lane_page_shows_slot_conflict_alternatives_and_one_approve(
        client: TestClient, store, radicale: Radicale, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("MAILMOAT_SECRET_KEY", raising=False)
    _calendar(store, radicale, tmp_path)
    ids = _ids(store)
    invite = ids["Invitation: Roadmap sync (Tue 8 Dec, 15:00 UTC)"]
    page = client.get(f"/message/{invite}")
    assert page.status_code == 200
    assert 'id="meeting-slot">2026-12-08T15:00:00+00:00' in page.text
    assert 'id="meeting-conflict"' in page.text and "Dentist" in page.text
    assert "<script>alert(1)" not in page.text and "&lt;script&gt;alert(1)" in page.text
    assert "2026-12-08T17:00:00+01:00" in page.text  # first free half hour after, Berlin
    assert 'id="meeting-theirs-state">unknown<' in page.text  # never shown as free
    assert 'id="meeting-propose"' in page.text
    move = ids["Reschedule: Thursday's design review"]
    made = client.post(f"/message/{move}/meeting/propose", data={"csrf": client.csrf,
                                                                 "answer": "auto"},
                       follow_redirects=False)
    assert made.status_code == 303, made.text
    shown = client.get(f"/message/{move}").text
    assert 'id="meeting-free"' in shown and "Approve both" in shown
    assert "works for me" in shown and "BEGIN:VCALENDAR" in shown  # the exact bytes
    event_id = client.get(f"/api/meeting/{move}").json()["proposals"][0]["event_action_id"]
    review = client.get(f"/approvals/{event_id}").text
    assert "calendar_event: put mailmoat-" in review and "BEGIN:VCALENDAR" in review
    approved = client.post(f"/message/{move}/meeting/approve", data={"csrf": client.csrf},
                           follow_redirects=False)
    assert approved.status_code == 303
    data = client.get(f"/api/meeting/{move}").json()
    (proposal,) = data["proposals"]
    assert proposal["reply"]["status"] == "approved" and proposal["event"]["status"] == "approved"
    assert proposal["reply"]["receipt"]["payload_sha256"] != \
        proposal["event"]["receipt"]["payload_sha256"]
    assert "Approve both" not in client.get(f"/message/{move}").text


def test_meeting_json_api(client: TestClient, store, radicale: Radicale, tmp_path,  # type: ignore[no-untyped-def]
                          monkeypatch) -> None:
    monkeypatch.delenv("MAILMOAT_SECRET_KEY", raising=False)
    _calendar(store, radicale, tmp_path)
    invite = _ids(store)["Invitation: Roadmap sync (Tue 8 Dec, 15:00 UTC)"]
    head = {"X-CSRF-Token": client.csrf}
    ctx = client.get(f"/api/meeting/{invite}").json()
    assert ctx["reading"]["kind"] == "request" and ctx["clash"] is True
    assert [c["uid"] for c in ctx["conflicts"]] == ["busy-1"]
    assert len(ctx["alternatives"]) == 3 and ctx["proposals"] == []
    made = client.post(f"/api/meeting/{invite}/propose", json={"answer": "auto"}, headers=head)
    assert made.status_code == 200, made.text
    assert made.json()["answer"] == "decline" and made.json()["event_action_id"] is None
    again = client.post(f"/api/meeting/{invite}/propose", json={}, headers=head)
    assert again.status_code == 409
    done = client.post(f"/api/meeting/{invite}/approve", headers=head).json()
    assert [a["action"] for a in done["approved"]] == ["send_email"]
    assert client.post(f"/api/meeting/{invite}/approve", headers=head).status_code == 409
    assert client.get("/api/meeting/999999").status_code == 404
    assert client.post(f"/api/meeting/{invite}/approve").status_code in (401, 403)  # no CSRF
