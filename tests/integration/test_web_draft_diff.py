"""The approvals page shows what an edit changed in a draft: act/ keeps the replaced version in
its audit trail, the page diffs consecutive versions (recipients, subject, body)."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from mailmoat.act.service import ActionService
from mailmoat.entrypoints.web.app import create_app
from mailmoat.entrypoints.web.draft_diff import Edit, draft_diff, readable_lines
from mailmoat.services.bootstrap import open_store
from tests.support.act_support import send_payload
from tests.support.webhelpers import make_user, sign_in


def _diff_block(html: str) -> str:
    found = re.search(r'<pre class="body diff"[^>]*>(.*?)</pre>', html, re.S)
    assert found is not None, "no diff on the page"
    return found.group(1)


def test_edited_draft_shows_each_change_and_that_it_voided_the_approval(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'diff.db'}")
    make_user(store, "ann", ["acct"])
    service = ActionService(store.engine)
    first = send_payload(subject="Quarterly numbers", body="Hi Ana,\nnumbers attached.\n")
    proposed = service.propose("acct", first, "agent", "api")
    client = TestClient(create_app(store))
    csrf = sign_in(client, "ann")
    assert "What changed" not in client.get(f"/approvals/{proposed['id']}").text

    service.approve(proposed["id"], "ann")
    service.edit(proposed["id"], {**first, "body": "Hi Ana,\nnumbers <b>attached</b>.\n"},
                 "ann")
    service.edit(proposed["id"], send_payload(to="bo@client.example", subject="Q3 numbers",
                                              body="Hi Ana,\nnumbers <b>attached</b>.\n"),
                 "agent")
    page = client.get(f"/approvals/{proposed['id']}").text
    diff = _diff_block(page)
    # Edit 1 (after an approval): the body line changed; the approval it voided is said.
    assert "revision 1" in diff and "this voided an earlier approval" in diff
    assert "<del>-numbers attached.</del>" in diff
    # Draft text is data: escaped, never markup.
    assert "<ins>+numbers &lt;b&gt;attached&lt;/b&gt;.</ins>" in diff
    # Edit 2 by the agent: the recipient and subject changed, visibly.
    assert "<del>-To: ana@client.example</del>" in diff
    assert "<ins>+To: bo@client.example</ins>" in diff
    assert "<ins>+Subject: Q3 numbers</ins>" in diff and "edited by agent" in diff
    assert 'class="tag">edited<' in client.get("/approvals").text
    # The JSON API carries the same diff; approving binds the edited bytes shown.
    shown = client.get(f"/api/approvals/{proposed['id']}").json()
    assert "+To: bo@client.example" in shown["draft_diff"]
    reply = client.post(f"/approvals/{proposed['id']}/approve",
                        data={"csrf": csrf, "expected_sha256": shown["payload_sha256"]})
    assert reply.status_code == 200
    receipt = service.show(proposed["id"])["receipt"]
    assert receipt["payload_sha256"] == shown["payload_sha256"]


def test_diff_of_unchanged_draft_fields_says_so() -> None:
    before = {"action": "send_email", "to": "a@b.example", "subject": "s", "body": "x",
              "in_reply_to": "<1@b>"}
    after = {**before, "in_reply_to": "<2@b>"}
    text = draft_diff([Edit(2, "ann", "2026-12-03T10:00:00", False, before)], after)
    assert text == "revision 2: no visible change (only fields outside the draft changed)"
    assert draft_diff([], after) == ""
    assert readable_lines(before) == ["To: a@b.example", "Subject: s", "", "x"]
