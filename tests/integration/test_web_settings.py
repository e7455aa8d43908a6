"""The settings page edits the AUTO guidelines and cap (act/'s mode) and each lane's server
actions (the account row mail/ reads): plain forms, CSRF-guarded, refused with a clear reason
and nothing lost. End to end: a lane action saved on the page is what the next sync does on
the real IMAP server."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from mailmoat.accounts.registry import get_account
from mailmoat.act.service import ActionService
from mailmoat.core.lanes import Lane
from mailmoat.entrypoints.web.app import create_app
from mailmoat.entrypoints.web.settings_forms import FormError, parse_lane_actions
from mailmoat.mail.runner import sync_once
from mailmoat.store import Store
from tests.integration.test_imap_lane_actions import _folder
from tests.support.imap_fixtures import make_message, make_setup, marketing
from tests.support.mailserver import MailServer
from tests.support.webhelpers import make_user, sign_in


def test_guidelines_and_cap_are_saved_where_the_auto_sweep_reads_them(
        client: TestClient, store: Store) -> None:
    text = "Short and friendly.\nSign as Ann. Never promise a date."
    reply = client.post("/settings/mode", data={
        "csrf": client.csrf, "mode": "AUTO", "guidelines": text, "daily_cap": "3"})  # type: ignore[attr-defined]
    assert reply.status_code == 200 and "mode AUTO saved" in reply.text
    mode = ActionService(store.engine).mode("local")
    assert (mode.mode.value, mode.guidelines, mode.daily_cap) == ("AUTO", text, 3)
    page = client.get("/settings").text
    assert "Sign as Ann. Never promise a date.</textarea>" in page
    assert 'id="daily_cap" name="daily_cap" type="number" min="0" max="1000" value="3"' in page
    api = client.get("/api/settings").json()
    assert api["guidelines"] == text and api["daily_cap"] == 3 and api["mode"] == "AUTO"


@pytest.mark.parametrize(("field", "value", "reason"), [
    ("daily_cap", "five", "the daily cap must be a whole number"),
    ("daily_cap", "-1", "between 0 and 1000"),
    ("guidelines", "x" * 4001, "keep them under 4000"),
    ("guidelines", "hello\x1b[31m", "control characters"),
])
def test_bad_mode_input_is_refused_saves_nothing_and_keeps_what_was_typed(
        client: TestClient, store: Store, field: str, value: str, reason: str) -> None:
    form = {"csrf": client.csrf, "mode": "AUTO", "guidelines": "be brief",  # type: ignore[attr-defined]
            "daily_cap": "2", field: value}
    reply = client.post("/settings/mode", data=form)
    assert reply.status_code == 400 and reason in reply.text
    assert "Not saved" in reply.text
    if field == "daily_cap":
        assert f'value="{value}"' in reply.text  # the typed value is shown again
    mode = ActionService(store.engine).mode("local")
    assert (mode.mode.value, mode.guidelines, mode.daily_cap) == ("SUGGEST", "", 5)


def test_settings_forms_need_the_csrf_token(client: TestClient, store: Store) -> None:
    assert client.post("/settings/mode", data={"mode": "AUTO", "guidelines": "x"}).status_code \
        == 403
    assert client.post("/settings/lanes", data={"keyword_PUSH": "$X"}).status_code == 403
    assert ActionService(store.engine).mode("local").mode.value == "SUGGEST"


def test_imported_mail_account_has_no_lane_form(client: TestClient) -> None:
    page = client.get("/settings").text
    assert "has no mail server" in page and 'action="/settings/lanes"' not in page
    reply = client.put("/api/settings/lanes", json={"PUSH": {"keyword": "$P"}},
                       headers={"X-CSRF-Token": client.csrf})  # type: ignore[attr-defined]
    assert reply.status_code == 409
    assert client.get("/api/settings").json()["lane_actions"] is None


def _lane_form(**overrides: str) -> dict[str, str]:
    form = {f"keyword_{lane.value}": f"$Moat{lane.value.capitalize()}" for lane in Lane}
    form.update(overrides)
    return form


def test_lane_form_rules() -> None:
    parsed = parse_lane_actions(_lane_form(folder_SILENT="Moat/Hidden", mark_read_SILENT="1"))
    silent = parsed.for_lane(Lane.SILENT)
    assert (silent.keyword, silent.folder, silent.mark_read) == ("$MoatSilent", "Moat/Hidden",
                                                                 True)
    assert parsed.for_lane(Lane.PUSH).folder is None
    for bad, reason in (
        ({"keyword_PUSH": "two words"}, "no spaces"),
        ({"keyword_PUSH": "\\Deleted"}, "no spaces"),  # a system flag is not a lane keyword
        ({"keyword_QUEUE": "$MoatPush"}, "share the keyword"),
        ({"folder_INFO": "Moat/X", "folder_SILENT": "moat/x"}, "share the folder"),
        ({"folder_SILENT": "inbox"}, "leave it empty"),
        ({"folder_SILENT": "a\rb"}, "printable"),
    ):
        with pytest.raises(FormError, match=reason):
            parse_lane_actions(_lane_form(**bad))


def test_lane_actions_saved_on_the_page_drive_the_next_sync(
        tmp_path: Path, keyword_server: MailServer) -> None:
    keyword_server.append(make_message(1, subject="a friendly note"))
    keyword_server.append(marketing(2))
    setup = make_setup(tmp_path, keyword_server)
    make_user(setup.store, "ann", ["work"])
    client = TestClient(create_app(setup.store))
    csrf = sign_in(client, "ann")
    page = client.get("/settings").text
    assert 'name="keyword_SILENT" value="$MoatSilent"' in page

    refused = client.post("/settings/lanes", data={
        "csrf": csrf, **_lane_form(keyword_QUEUE="$MoatPush", folder_SILENT="Moat/Hidden")})
    assert refused.status_code == 400 and "share the keyword" in refused.text
    assert 'name="folder_SILENT" value="Moat/Hidden"' in refused.text  # kept for a retry
    assert get_account(setup.store, "work").lane_actions == setup.account.lane_actions

    saved = client.post("/settings/lanes", data={
        "csrf": csrf, **_lane_form(folder_SILENT="Moat/Hidden", mark_read_SILENT="on")})
    assert saved.status_code == 200 and "lane actions saved" in saved.text
    sync_once(setup.store, setup.ring, get_account(setup.store, "work"))
    hidden = _folder(keyword_server, "Moat/Hidden")
    assert len(hidden) == 1
    flags = next(iter(hidden.values()))
    assert b"$MoatSilent" in flags and b"\\Seen" in flags
    assert list(_folder(keyword_server, "INBOX")) == ["a friendly note"]
    api = client.get("/api/settings").json()["lane_actions"]
    assert api["SILENT"] == {"keyword": "$MoatSilent", "folder": "Moat/Hidden",
                             "mark_read": True}
    headers = {"X-CSRF-Token": csrf}
    clash = client.put("/api/settings/lanes", headers=headers, json={
        "INFO": {"folder": "Moat/Hidden"}, "SILENT": {"folder": "Moat/Hidden"}})
    assert clash.status_code == 422 and "share the folder" in clash.json()["detail"]
    system_flag = client.put("/api/settings/lanes", headers=headers,
                             json={"SILENT": {"keyword": "\\Deleted"}})
    assert system_flag.status_code == 422  # refused by the schema's keyword pattern
    assert get_account(setup.store, "work").lane_actions.for_lane(Lane.SILENT).folder \
        == "Moat/Hidden"
    saved_api = client.put("/api/settings/lanes", headers=headers,
                           json={"SILENT": {"keyword": "$Quiet", "mark_read": True}})
    assert saved_api.status_code == 200
    now = get_account(setup.store, "work").lane_actions
    assert now.for_lane(Lane.SILENT).keyword == "$Quiet"
    assert now.for_lane(Lane.PUSH).keyword is None  # a lane left out does nothing
