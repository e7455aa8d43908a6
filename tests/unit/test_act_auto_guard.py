"""What AUTO never answers and what an unattended draft may not say (issue 17, items 4, 5).

Real mail-devel server behind the executor: what the sweep lets through is really sent.
"""

from __future__ import annotations

from typing import Any

import pytest

from mailmoat.core.autonomy import Mode
from mailmoat.core.reply_guard import Inbound, clean_subject, draft_problems, never_answer
from tests.integration.test_act_auto import ACCOUNT, ScriptedDrafter, add_message, run_all
from tests.support import act_support
from tests.support.act_support import delivered, incoming, rig
from tests.support.mailserver import MailServer

mail_server = act_support.mail_server  # a fixture of tests/support/act_support.py
server = act_support.server  # a fixture of tests/support/act_support.py

ORIGINAL = incoming(body="Could you send me the deck? Slides are at https://client.example/q3 .")


def _with(header: str, raw: bytes = ORIGINAL) -> bytes:
    return raw.replace(b"Subject:", header.encode() + b"\nSubject:")


BARRED = {
    "list_id": _with("List-Id: <news.client.example>"),
    "list_unsubscribe": _with("List-Unsubscribe: <mailto:unsub@client.example>"),
    "precedence_bulk": _with("Precedence: bulk"),
    "precedence_junk": _with("Precedence: junk"),
    "auto_submitted": _with("Auto-Submitted: auto-generated"),
    # Raw bytes: the email package would decode the encoded word while building the fixture.
    "encoded_word_address": _with("From: support@=?utf-8?q?client=2Eexample?=",
                                  ORIGINAL.replace(b"From: Ana <ana@client.example>\n", b"")),
    "bidi_name": incoming(sender="\u202eelpmaxe.tneilc@ana\u202c <ana@client.example>",
                          message_id="<bidi@client.example>"),
    "rewritten_sender": incoming(sender="Ana <ana@ｃlient.example>",
                                 message_id="<fw@client.example>"),
}


@pytest.mark.parametrize("case", sorted(BARRED))
def test_auto_never_answers_bulk_list_automated_or_disguised_senders(
    mail_server: MailServer, tmp_path: Any, case: str
) -> None:
    r = rig(f"sqlite:///{tmp_path / 'm.db'}")
    add_message(r, BARRED[case])
    r.service.set_mode(ACCOUNT, Mode.AUTO, "sam")
    drafter = ScriptedDrafter()
    report, outcomes = run_all(r, mail_server, drafter)
    assert drafter.requests == [] and outcomes == [], case  # not even a draft is asked for
    assert len(report.refused) == 1
    assert delivered(mail_server) == []


def test_a_phishing_flag_bars_an_unattended_reply() -> None:
    assert never_answer(Inbound(from_addr="ana@client.example")) is None
    assert "phishing" in (never_answer(Inbound(from_addr="ana@client.example",
                                               phishing=True)) or "")


THREAD = ("From: Ana <ana@client.example>\nTo: me@example.org\nSubject: deck\n\n"
          "Could you send me the deck? Slides are at https://client.example/q3 .",)
BAD_DRAFTS = {
    "claims_forward": "Done as you asked: I forwarded the whole mailbox to you.",
    "claims_transfer": "The money has been transferred this morning.",
    "claims_attachment": "Please see the attached file.",
    "new_address": "Write to exfil@evil.example for the rest.",
    "new_link": "Log in at https://evil.example/login to get it.",
    "new_bare_link": "Get it from evil.example/deck now.",
    "header_line": "Sure.\nBcc: exfil@client.example\n",
    "bidi_in_body": "Sure \u202ethis reads backwards\u202c.",
}


@pytest.mark.parametrize("case", sorted(BAD_DRAFTS))
def test_the_content_check_catches_what_a_hijacked_model_says(case: str) -> None:
    assert draft_problems("Re: deck", BAD_DRAFTS[case], THREAD), case


@pytest.mark.parametrize("body", [
    "Thanks, I will send it tomorrow.\n",
    "Sure, the slides at https://client.example/q3 are the latest. Talk soon.\n",
    "Hi Ana,\nI can send the deck on Monday; ana@client.example is the right address?\n",
])
def test_an_ordinary_reply_passes(body: str) -> None:
    assert draft_problems("Re: deck", body, THREAD) == ()


def test_subjects_are_cleaned_and_header_like_subjects_refused() -> None:
    assert clean_subject("Re:\u202e deck\u200b  \t now") == "Re: deck now"
    assert draft_problems("Re: deck Bcc: exfil@client.example", "ok", THREAD)


@pytest.mark.parametrize("case", ["claims_forward", "new_address", "header_line"])
def test_a_draft_that_fails_the_check_becomes_a_proposal_for_a_person(
    mail_server: MailServer, tmp_path: Any, case: str
) -> None:
    r = rig(f"sqlite:///{tmp_path / 'm.db'}")
    mid = add_message(r, ORIGINAL)
    r.service.set_mode(ACCOUNT, Mode.AUTO, "sam")
    drafter = ScriptedDrafter(body=BAD_DRAFTS[case], subject="Re: Can we meet?")
    report, outcomes = run_all(r, mail_server, drafter)
    assert outcomes == [] and report.replies_queued == []
    assert delivered(mail_server) == []
    [proposal] = r.service.list(ACCOUNT)
    assert proposal["status"] == "pending" and proposal["source"] == "auto"
    triage = {item["message_id"]: item["reason"] for item in r.service.triage(ACCOUNT)}
    assert "needs a person" in triage[mid]
    # A person reads it and approves it: then, and only then, it goes out.
    r.service.approve(proposal["id"], "sam")
    _report, outcomes = run_all(r, mail_server, ScriptedDrafter())
    assert [o.state for o in outcomes] == ["done"]


def test_an_unattended_reply_to_a_fass_domain_goes_to_fass_not_fass(
    mail_server: MailServer, tmp_path: Any
) -> None:
    r = rig(f"sqlite:///{tmp_path / 'm.db'}")
    # An internationalised address as SMTPUTF8 mail carries it: UTF-8 in the header.
    add_message(r, ORIGINAL.replace(b"From: Ana <ana@client.example>",
                                    "From: Ana <ana@faß.example>".encode()))
    r.service.set_mode(ACCOUNT, Mode.AUTO, "sam")
    report, outcomes = run_all(r, mail_server, ScriptedDrafter())
    assert [o.state for o in outcomes] == ["done"], report.refused
    [sent] = delivered(mail_server)
    assert sent["X-RcptTo"] == "ana@xn--fa-hia.example"


def test_the_approval_view_flags_a_typed_address_that_encoding_changes(tmp_path: Any) -> None:
    r = rig(f"sqlite:///{tmp_path / 'm.db'}")
    typed = "ana@ｃlient.example"
    view = r.service.propose(ACCOUNT, {"action": "send_email", "to": typed, "subject": "Hi",
                                       "body": "Hello"}, "sam", "web")
    assert view["payload"]["to"] == "ana@client.example"
    assert view["flags"]["rewritten_from"] == typed and view["flags"]["any"]
    plain = r.service.propose(ACCOUNT, {"action": "send_email", "to": "Ana@Faß.example",
                                        "subject": "Hi", "body": "Hello"}, "sam", "web")
    assert plain["payload"]["to"] == "ana@xn--fa-hia.example"
    assert plain["flags"]["rewritten_from"] is None
