"""The approval page reads like mail: From (the account's sending address), To (as a person
reads it, with the recipient flags in words), Subject and the body, the message it answers
beside it; the canonical JSON and its sha256 sit behind a disclosure, and "Approve exactly
this" still binds that hash."""

from __future__ import annotations

import html
import re
from pathlib import Path

from fastapi.testclient import TestClient

from mailmoat.accounts.registry import AccountSettings, Submission, add_account
from mailmoat.accounts.secrets import load_key_ring
from mailmoat.act.service import ActionService
from mailmoat.entrypoints.web.app import create_app
from mailmoat.services.bootstrap import open_store
from tests.support.act_support import incoming, send_payload
from tests.support.webhelpers import make_user, sign_in


def _text(page: str, element_id: str) -> str:
    found = re.search(rf'id="{element_id}"[^>]*>(.*?)</(?:dd|pre|code)>', page, re.S)
    assert found is not None, f"no #{element_id} on the page"
    return html.unescape(re.sub(r"<[^>]+>", "", found.group(1))).strip()


def test_a_reply_reads_as_mail_and_the_approval_binds_the_hash(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'mail.db'}")
    add_account(store, load_key_ring(), AccountSettings(
        name="acct", host="127.0.0.1", port=1143, username="sam@acme.example", tls="plain",
        submission=Submission(host="127.0.0.1", port=1025, tls="plain",
                              from_addr="sam@acme.example")), "pw")
    make_user(store, "ann", ["acct"])
    mid = store.ingest(incoming(subject="Can we meet?", body="Could you send me the deck?"),
                       "imap", account="acct").message_id
    service = ActionService(store.engine)
    proposed = service.propose("acct", {"action": "send_email", "subject": "Re: Can we meet?",
                                        "body": "Hi Ana,\n<b>deck</b> attached.\n— Sam\n"},
                               "agent", "api", reply_to_message=mid)
    client = TestClient(create_app(store))
    csrf = sign_in(client, "ann")
    page = client.get(f"/approvals/{proposed['id']}").text

    assert _text(page, "mail-from") == "sam@acme.example"
    assert _text(page, "mail-to").startswith("ana@client.example")
    assert _text(page, "mail-subject") == "Re: Can we meet?"
    # The body as text, escaped: mail content is data, never markup.
    assert "Hi Ana,\n&lt;b&gt;deck&lt;/b&gt; attached." in page
    # The message it answers is beside it.
    assert "The message it answers" in page and "Could you send me the deck?" in page
    # The exact payload and its hash are one click away, inside a closed disclosure.
    details = re.search(r'<details class="exact">(.*?)</details>', page, re.S)
    assert details is not None, "the canonical payload is not behind a disclosure"
    assert proposed["payload_sha256"] in details.group(1)
    assert "&#34;subject&#34;: &#34;Re: Can we meet?&#34;" in details.group(1)

    # A tampered hash is refused, the shown one approves exactly those bytes.
    refused = client.post(f"/approvals/{proposed['id']}/approve",
                          data={"csrf": csrf, "expected_sha256": "0" * 64})
    assert refused.status_code == 409
    assert service.show(proposed["id"])["status"] == "pending"
    shown = re.search(r'name="expected_sha256" value="([0-9a-f]{64})"', page)
    assert shown is not None
    ok = client.post(f"/approvals/{proposed['id']}/approve",
                     data={"csrf": csrf, "expected_sha256": shown.group(1)})
    assert ok.status_code == 200
    assert service.show(proposed["id"])["receipt"]["payload_sha256"] == proposed[
        "payload_sha256"]


def test_recipient_flags_are_said_in_words_and_the_encoded_form_is_shown(
        tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'flags.db'}")
    make_user(store, "ann", ["acct"])
    service = ActionService(store.engine)
    lookalike = service.propose("acct", send_payload(to="billing@pаypal.com"), "agent", "api")
    client = TestClient(create_app(store))
    sign_in(client, "ann")
    page = client.get(f"/approvals/{lookalike['id']}").text
    to = _text(page, "mail-to")
    assert to.startswith("billing@pаypal.com") and "sent as billing@xn--" in to
    assert "mixes alphabets" in page and 'role="alert"' in page
    # No SMTP on this account: From says so instead of inventing an address.
    assert "no sending address" in _text(page, "mail-from")
    api = client.get(f"/api/approvals/{lookalike['id']}").json()
    assert api["mail"]["to"].startswith("billing@xn--") and api["mail"]["subject"]
