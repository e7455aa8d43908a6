"""Approve, tamper, SUGGEST: end to end against the real SMTP/IMAP server (mail-devel)."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import update

from mailmoat.act.executor import Executor
from mailmoat.core.receipts import payload_hash
from mailmoat.store.tables.act import ActionRow, OutboxRow
from tests.support import act_support
from tests.support.act_support import body_bytes, delivered, rig, send_payload, transport
from tests.support.mailserver import MailServer

mail_server = act_support.mail_server  # a fixture of tests/support/act_support.py
server = act_support.server  # a fixture of tests/support/act_support.py


def test_approve_delivers_exactly_one_byte_identical_message(
    mail_server: MailServer, tmp_path: Any
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
    assert msg["Auto-Submitted"] is None  # a person approved it
    assert body_bytes(msg) == body.encode("utf-8")
    shown = r.service.show(proposal["id"])
    assert shown["status"] == "done"
    assert msg["Message-ID"] == shown["outbox"]["message_id"]
    sent = delivered(mail_server, "Sent")
    assert [m["Message-ID"] for m in sent] == [msg["Message-ID"]]


def _tamper_payload(field: str, value: Any) -> Any:
    def change(row: OutboxRow) -> dict[str, Any]:
        return {"payload": {**row.payload, field: value}}
    return change


def _flip_one_body_char(row: OutboxRow) -> dict[str, Any]:
    body = row.payload["body"]
    return {"payload": {**row.payload, "body": body[:5] + chr(ord(body[5]) + 1) + body[6:]}}


TAMPERS = {
    "recipient": _tamper_payload("to", "mallory@evil.example"),
    "one_body_char": _flip_one_body_char,
    "subject": _tamper_payload("subject", "Quarterly numbers (updated)"),
    "action_type": lambda row: {"action": "delete_permanent"},
    "action_type_in_payload": lambda row: {
        "payload": {"action": "forward_external", "account": row.account,
                    "to": row.payload["to"], "message_id": "<x@y>", "note": ""}},
    "receipt_removed": lambda row: {"receipt": {}},
    "receipt_date_garbled": lambda row: {"receipt": {**row.receipt, "approved_at": "soon"}},
    "body_field_dropped": lambda row: {"payload": {k: v for k, v in row.payload.items()
                                                   if k != "body"}},
}


@pytest.mark.parametrize("tamper", sorted(TAMPERS))
def test_tampering_after_approval_is_refused_and_dead_lettered(
    mail_server: MailServer, tmp_path: Any, tamper: str
) -> None:
    r = rig(f"sqlite:///{tmp_path / 'm.db'}")
    proposal = r.service.propose("acct", send_payload(), "sam", "api")
    r.service.approve(proposal["id"], "sam")
    with r.service.sessions.begin() as session:
        row = session.query(OutboxRow).one()
        session.execute(update(OutboxRow).where(OutboxRow.id == row.id)
                        .values(**TAMPERS[tamper](row)))
    executor = Executor(r.store.engine, {"acct": transport(mail_server)})
    outcomes = executor.run_until_idle()
    assert [o.state for o in outcomes] == ["dead"]  # terminal: not requeued
    assert "refused" in outcomes[0].detail
    assert executor.run_until_idle() == []  # never retried
    assert delivered(mail_server) == []
    assert delivered(mail_server, "Sent") == []
    shown = r.service.show(proposal["id"])
    assert shown["status"] == "failed" and shown["outbox"]["state"] == "dead"
    events = [e["event"] for e in r.service.audit_trail(proposal["id"])]
    assert events[-1] == "refused"


@pytest.mark.parametrize("rewrite", ["payload_and_hash", "approver", "another_actions_receipt",
                                     "mac_stripped"])
def test_a_database_rewrite_of_payload_and_hash_is_refused(
    mail_server: MailServer, tmp_path: Any, rewrite: str
) -> None:
    """Whoever can write the database can recompute a payload hash; the receipt is a MAC
    with a key outside the database, so the rewrite is refused and nothing is sent."""
    r = rig(f"sqlite:///{tmp_path / 'm.db'}")
    other = r.service.propose("acct", send_payload(to="bob@client.example"), "sam", "api")
    r.service.approve(other["id"], "sam")
    proposal = r.service.propose("acct", send_payload(), "sam", "api")
    r.service.approve(proposal["id"], "sam")
    with r.service.sessions.begin() as session:
        row = session.query(OutboxRow).filter_by(action_id=proposal["id"]).one()
        session.query(OutboxRow).filter_by(action_id=other["id"]).delete()
        payload, receipt = dict(row.payload), dict(row.receipt)
        if rewrite == "payload_and_hash":
            payload["to"] = "mallory@evil.example"
            receipt["payload_sha256"] = payload_hash(payload)
        elif rewrite == "approver":
            receipt["approved_by"] = "ann"
        elif rewrite == "another_actions_receipt":
            receipt = dict(session.get(ActionRow, other["id"]).receipt)
            payload = dict(session.get(ActionRow, other["id"]).payload)
        else:
            receipt = {k: v for k, v in receipt.items() if k not in ("mac", "key_id")}
        session.execute(update(OutboxRow).where(OutboxRow.id == row.id)
                        .values(payload=payload, receipt=receipt))
        session.execute(update(ActionRow).where(ActionRow.id == proposal["id"])
                        .values(payload=payload, receipt=receipt))
    executor = Executor(r.store.engine, {"acct": transport(mail_server)})
    outcomes = executor.run_until_idle()
    assert [o.state for o in outcomes] == ["dead"]
    expected = "ReceiptUnverifiable" if rewrite == "mac_stripped" else "ReceiptForged"
    assert expected in outcomes[0].detail
    assert delivered(mail_server) == [] and delivered(mail_server, "Sent") == []


def test_editing_after_approval_voids_the_receipt(
    mail_server: MailServer, tmp_path: Any
) -> None:
    r = rig(f"sqlite:///{tmp_path / 'm.db'}")
    proposal = r.service.propose("acct", send_payload(), "sam", "cli")
    r.service.approve(proposal["id"], "sam")
    edited = r.service.edit(proposal["id"], send_payload(body="A different body.\n"), "sam")
    assert edited["status"] == "pending" and edited["receipt"] is None
    assert edited["outbox"]["state"] == "cancelled"
    executor = Executor(r.store.engine, {"acct": transport(mail_server)})
    assert executor.run_until_idle() == []  # the voided approval sends nothing
    assert delivered(mail_server) == []
    # Approved again, the new bytes go out once.
    r.service.approve(proposal["id"], "sam")
    assert [o.state for o in executor.run_until_idle()] == ["done"]
    inbox = delivered(mail_server)
    assert [body_bytes(m) for m in inbox] == [b"A different body.\n"]
