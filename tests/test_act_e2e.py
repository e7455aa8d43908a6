"""Approve, tamper, SUGGEST: end to end against the real SMTP/IMAP server (mail-devel)."""

from __future__ import annotations

from typing import Any

import pytest
from act_support import body_bytes, delivered, rig, send_payload, transport
from mailserver import MailServer, mail_server  # noqa: F401 - fixture
from sqlalchemy import update

from mailmoat.act.executor import Executor
from mailmoat.store.act_models import OutboxRow


def test_approve_delivers_exactly_one_byte_identical_message(
    mail_server: MailServer, tmp_path: Any  # noqa: F811
) -> None:
    r = rig(f"sqlite:///{tmp_path / 'm.db'}")
    body = "Hi Ana,\r\nline two with ünicode and a trailing space \n.leading dot\n"
    proposal = r.service.propose("acct", send_payload(body=body, subject="Zahlen für Q3"),
                                 "sam", "cli")
    approved = r.service.approve(proposal["id"], "sam", expected_sha256=proposal["payload_sha256"])
    assert approved["receipt"]["payload_sha256"] == proposal["payload_sha256"]
    executor = Executor(r.store.engine, {"acct": transport(mail_server)})
    outcomes = executor.run_until_idle()
    assert [o.state for o in outcomes] == ["done"]
    assert executor.run_until_idle() == []  # nothing left, nothing sent twice

    inbox = delivered(mail_server)
    assert len(inbox) == 1
    msg = inbox[0]
    assert msg["X-RcptTo"] == "ana@client.example"  # the envelope recipient the server saw
    assert msg["To"] == "ana@client.example"
    assert msg["Subject"] == "Zahlen für Q3"
    assert body_bytes(msg) == body.encode("utf-8")
    shown = r.service.show(proposal["id"])
    assert shown["status"] == "done"
    assert msg["Message-ID"] == shown["outbox"]["message_id"]
    sent = delivered(mail_server, "Sent")
    assert [m["Message-ID"] for m in sent] == [msg["Message-ID"]]
