"""A forward or a permanent delete acts on exactly one message (issue 17, items 1 and 2).

The payload a person approves names the message by its server identity (folder, UIDVALIDITY,
UID) and the sha256 of its bytes; the executor re-reads that one UID and refuses unless the
bytes still hash the same. Nothing is looked up by Message-ID: empty, substring and copied
Message-IDs cannot widen a delete or swap a forward. Real mail-devel server, real sync,
a separate IMAP client as the person's own mail app.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, update

from mailmoat.act.executor import Executor
from mailmoat.core.receipts import PayloadError
from mailmoat.mail.runner import sync_once
from mailmoat.mail.smtp import ImapMailbox, PermanentError, crlf
from mailmoat.services.outbox import transport_for
from mailmoat.store.tables.act import OutboxRow
from mailmoat.store.tables.messages import MessageRow
from tests.support import act_support
from tests.support.act_support import add_mail_account, delivered, incoming, rig, secret_key
from tests.support.mailserver import MailServer

server = act_support.server  # a fixture of tests/support/act_support.py

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpora" / "spamassassin"
PAYROLL = incoming(sender="HR <hr@lawfirm.example>", subject="CONFIDENTIAL payroll",
                   body="Salaries for 2027 attached.", message_id="<q3@lawfirm.example>")
COPYCAT = incoming(sender="Deals <win@spam.example>", subject="You won a prize",
                   body="Click here.", message_id="<q3@lawfirm.example>")
MEMO = incoming(sender="Ana <ana@lawfirm.example>", subject="Lunch memo",
                body="Noon at the usual place.", message_id="<memo-7@lawfirm.example>")
NO_ID = incoming(sender="Bob <bob@client.example>", subject="No id here", body="hi",
                 message_id="")


def _server_view(server: MailServer, folder: str = "INBOX") -> dict[int, bytes]:
    """UID -> bytes, as the person's own mail client sees the folder."""
    client = server.imap()
    try:
        client.select_folder(folder, readonly=True)
        uids = client.search(["ALL"])
        data = client.fetch(uids, ["BODY.PEEK[]"]) if uids else {}
        return {uid: bytes(d[b"BODY[]"]) for uid, d in data.items()}
    finally:
        client.logout()


def _fresh(server: MailServer) -> None:
    client = server.imap()
    try:
        for folder in ("INBOX", "Sent"):
            if client.folder_exists(folder):
                client.select_folder(folder)
                uids = client.search(["ALL"])
                if uids:
                    client.delete_messages(uids)
                    client.expunge()
    finally:
        client.logout()


def _synced(server: MailServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
            mails: list[bytes]) -> tuple[Any, Any, dict[str, int]]:
    _fresh(server)
    for raw in mails:
        server.append(raw)
    r = rig(f"sqlite:///{tmp_path / 'm.db'}")
    ring = secret_key(monkeypatch)
    account = add_mail_account(r.store, ring, server)
    sync_once(r.store, ring, account)
    with r.store.sessions() as session:
        ids = {subject: mid for mid, subject in session.execute(
            select(MessageRow.id, MessageRow.subject).where(MessageRow.account == "acct"))}
    executor = Executor(r.store.engine, {"acct": transport_for(r.store, ring, account)},
                        backoff_base=0)
    return r, executor, ids


def _approve(r: Any, payload: dict[str, Any]) -> dict[str, Any]:
    proposal = r.service.propose("acct", payload, "sam", "web")
    return r.service.approve(proposal["id"], "sam", expected_sha256=proposal["payload_sha256"])


@pytest.mark.parametrize("message_id", ["", "@lawfirm", "<q3@lawfirm.example>", "q3"])
def test_a_message_id_alone_names_nothing_to_delete_or_forward(
    server: MailServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    message_id: str,
) -> None:
    r, _executor, _ids = _synced(server, tmp_path, monkeypatch, [PAYROLL, COPYCAT, MEMO])
    for payload in ({"action": "delete_permanent", "message_id": message_id, "folder": "INBOX"},
                    {"action": "forward_external", "to": "ana@client.example",
                     "message_id": message_id, "note": ""}):
        with pytest.raises(PayloadError, match="names one stored message"):
            r.service.propose("acct", payload, "agent", "mcp")
    assert len(_server_view(server)) == 3


def test_a_delete_removes_exactly_the_approved_copy_not_its_namesakes(
    server: MailServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The spam that copies the payroll mail's Message-ID is deleted; the payroll mail, a
    mail whose id shares a substring, and one with no id at all stay."""
    r, executor, ids = _synced(server, tmp_path, monkeypatch, [PAYROLL, COPYCAT, MEMO, NO_ID])
    before = _server_view(server)
    spam_uid = next(u for u, raw in before.items() if b"You won a prize" in raw)
    view = _approve(r, {"action": "delete_permanent", "message": ids["You won a prize"]})
    payload = view["payload"]
    assert payload["uid"] == spam_uid and payload["folder"] == "INBOX"
    assert payload["sha256"] == hashlib.sha256(before[spam_uid]).hexdigest()
    # The approval view shows what will be deleted, not just an id.
    assert view["target"]["subject"] == "You won a prize"
    assert view["target"]["from"].startswith("Deals")
    [outcome] = executor.run_until_idle()
    assert outcome.state == "done", outcome.detail
    after = _server_view(server)
    assert set(after) == set(before) - {spam_uid}
    assert all(after[u] == before[u] for u in after)


def test_a_delete_refuses_a_message_that_is_gone_and_touches_nothing_else(
    server: MailServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    r, executor, ids = _synced(server, tmp_path, monkeypatch, [PAYROLL, COPYCAT])
    view = _approve(r, {"action": "delete_permanent", "message": ids["CONFIDENTIAL payroll"]})
    client = server.imap()  # the person deletes it in their own client first
    try:
        client.select_folder("INBOX")
        client.delete_messages([view["payload"]["uid"]])
        client.expunge()
    finally:
        client.logout()
    left = _server_view(server)
    [outcome] = executor.run_until_idle()
    assert outcome.state == "dead" and "no longer on the server" in outcome.detail
    assert _server_view(server) == left  # zero matches: nothing else deleted


def test_the_transport_checks_uidvalidity_and_the_bytes_before_expunging(
    server: MailServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    r, executor, ids = _synced(server, tmp_path, monkeypatch, [PAYROLL, MEMO])
    view = r.service.propose("acct", {"action": "delete_permanent",
                                      "message": ids["CONFIDENTIAL payroll"]}, "sam", "web")
    p = view["payload"]
    mailbox = ImapMailbox(executor.transports["acct"].imap)
    before = _server_view(server)
    with pytest.raises(PermanentError, match="not the approved one"):
        mailbox.expunge(p["folder"], p["uidvalidity"], p["uid"], "0" * 64)
    with pytest.raises(PermanentError, match="UIDVALIDITY"):
        mailbox.expunge(p["folder"], p["uidvalidity"] + 1, p["uid"], p["sha256"])
    assert mailbox.expunge(p["folder"], p["uidvalidity"], max(before) + 5, p["sha256"]) == 0
    assert _server_view(server) == before
    assert mailbox.expunge(p["folder"], p["uidvalidity"], p["uid"], p["sha256"]) == 1
    assert set(_server_view(server)) == set(before) - {p["uid"]}


def test_a_forward_sends_the_approved_message_not_an_older_namesake(
    server: MailServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two mails share a Message-ID; the person approves forwarding the second. The first
    (lower UID, "CONFIDENTIAL payroll") is what a lookup by Message-ID would have sent."""
    r, executor, ids = _synced(server, tmp_path, monkeypatch, [PAYROLL, COPYCAT])
    view = _approve(r, {"action": "forward_external", "to": "ana@client.example",
                        "message": ids["You won a prize"], "note": "Is this spam?"})
    assert view["target"]["subject"] == "You won a prize"
    [outcome] = executor.run_until_idle()
    assert outcome.state == "done", outcome.detail
    [fwd] = [m for m in delivered(server) if str(m["Subject"]).startswith("Fwd:")]
    assert fwd["Subject"] == "Fwd: You won a prize"
    assert b"CONFIDENTIAL" not in fwd.as_bytes()
    with r.store.sessions() as session:
        row = session.scalars(select(OutboxRow)).one()
    assert row.receipt["payload_sha256"] == view["payload_sha256"]
    assert row.payload["sha256"] == hashlib.sha256(
        _server_bytes(server, "You won a prize")).hexdigest()


def _server_bytes(server: MailServer, subject: str) -> bytes:
    return next(raw for raw in _server_view(server).values() if subject.encode() in raw)


def test_a_forward_whose_bytes_changed_is_refused(
    server: MailServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The approved UID now holds other bytes (the stored hash no longer matches): the
    executor refuses rather than forward whatever sits there."""
    r, executor, ids = _synced(server, tmp_path, monkeypatch, [PAYROLL, MEMO])
    view = _approve(r, {"action": "forward_external", "to": "ana@client.example",
                        "message": ids["Lunch memo"], "note": ""})
    payroll_uid = next(u for u, raw in _server_view(server).items() if b"payroll" in raw)
    # Point the (MAC-protected) approval at another UID: refused by the receipt...
    with r.store.engine.begin() as conn:
        row_payload = {**view["payload"], "uid": payroll_uid}
        conn.execute(update(OutboxRow).values(payload=row_payload))
    [outcome] = executor.run_until_idle()
    assert outcome.state == "dead" and "PayloadMismatch" in outcome.detail
    assert not [m for m in delivered(server) if str(m["Subject"]).startswith("Fwd:")]


def _corpus_mails(count: int) -> list[bytes]:
    """Real mail, stored with bare LF line endings; the largest ones first."""
    files = sorted((p for p in (CORPUS / "easy-ham-2").iterdir() if p.is_file()),
                   key=lambda p: -p.stat().st_size)
    picked = []
    for path in files:
        raw = path.read_bytes()
        if b"\r\n" not in raw and 20_000 < len(raw) < 400_000:
            picked.append(raw)
        if len(picked) == count:
            break
    return picked


@pytest.mark.skipif(not CORPUS.is_dir(), reason="SpamAssassin corpus not present")
def test_real_size_mail_from_the_spamassassin_corpus_forwards_byte_for_byte(
    server: MailServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Bare-LF mail of 20-400 kB used to fail with "Line too long"; now every one goes out
    through real SMTP and the attached message is the server's bytes (CRLF on the wire)."""
    mails = _corpus_mails(4)
    assert len(mails) == 4
    r, executor, _ids = _synced(server, tmp_path, monkeypatch, mails)
    with r.store.sessions() as session:
        stored = list(session.scalars(select(MessageRow).where(MessageRow.account == "acct")))
    assert len(stored) == 4
    for message in stored:
        _approve(r, {"action": "forward_external", "to": "ana@client.example",
                     "message": message.id, "note": "FYI"})
    outcomes = executor.run_until_idle()
    assert [o.state for o in outcomes] == ["done"] * 4, [o.detail for o in outcomes]
    # What the executor handed to SMTP carries the server's bytes untouched (CRLF).
    with r.store.sessions() as session:
        sent = [bytes(row.raw) for row in session.scalars(select(OutboxRow))]
    for message in stored:
        assert sum(crlf(message.raw) in raw for raw in sent) == 1
    # And each arrives: mail-devel stores mail with LF endings and as UTF-8 (invalid bytes
    # replaced) and drops the corpus files' mbox "From " envelope line from the attached
    # part, so the delivered copy is compared after that same normalisation.
    client = server.imap()
    try:
        client.select_folder("INBOX", readonly=True)
        uids = client.search(["SUBJECT", "Fwd:"])
        raws = [bytes(d[b"BODY[]"]) for d in client.fetch(uids, ["BODY.PEEK[]"]).values()]
    finally:
        client.logout()
    assert len(raws) == 4

    def seen_by_mail_devel(raw: bytes) -> bytes:
        text = raw.replace(b"\r\n", b"\n").decode("utf-8", "replace").encode("utf-8")
        return text.split(b"\n", 1)[1] if text.startswith(b"From ") else text

    for message in stored:
        assert sum(seen_by_mail_devel(message.raw) in raw for raw in raws) == 1
