"""Shared pieces for the authority tests: a store, the service, a transport to mail-devel."""

from __future__ import annotations

import email
import email.policy
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any

import pytest

from mailmoat.accounts.registry import AccountSettings, Submission, add_account
from mailmoat.accounts.secrets import ENV_KEY, KeyRing, encode_key, load_key_ring, new_key
from mailmoat.act.service import ActionService
from mailmoat.mail.smtp import ImapSettings, MailTransport, SmtpSettings
from mailmoat.services.bootstrap import open_store
from mailmoat.store import Store
from tests.support.mailserver import MailServer


@dataclass
class Rig:
    store: Store
    service: ActionService
    url: str


def rig(url: str) -> Rig:
    store = open_store(url)
    return Rig(store, ActionService(store.engine), url)


def transport(server: MailServer, *, server_files_sent: bool = False,
              sent_folder: str = "Sent") -> MailTransport:
    """Plain text on loopback, asked for explicitly: the test server has no certificate."""
    def secret() -> str:
        return server.password

    return MailTransport(
        smtp=SmtpSettings(host=server.host, port=server.smtp_port, from_addr=server.user,
                          security="plain", username=server.user, secret=secret, timeout=10),
        imap=ImapSettings(host=server.host, port=server.imap_port, username=server.user,
                          secret=secret, security="plain", timeout=10,
                          sent_folder=sent_folder, server_files_sent=server_files_sent),
    )


def secret_key(monkeypatch: pytest.MonkeyPatch) -> KeyRing:
    """A throwaway sealing key in the environment, inherited by worker subprocesses."""
    monkeypatch.setenv(ENV_KEY, encode_key(new_key()))
    return load_key_ring()


def add_mail_account(store: Store, ring: KeyRing, server: MailServer, name: str = "acct", *,
                     server_files_sent: bool = False, sent_folder: str = "Sent"
                     ) -> AccountSettings:
    """The account as `mailmoat account add --smtp-host ...` stores it, for the test server."""
    submission = Submission(host=server.host, port=server.smtp_port, tls="plain",
                            sent_folder=sent_folder, server_files_sent=server_files_sent)
    return add_account(store, ring, AccountSettings(
        name=name, host=server.host, port=server.imap_port, username=server.user, tls="plain",
        submission=submission), server.password)


def send_payload(to: str = "ana@client.example", subject: str = "Quarterly numbers",
                 body: str = "Hi Ana,\nthe numbers are attached.\n— Sam\n") -> dict[str, Any]:
    return {"action": "send_email", "to": to, "subject": subject, "body": body}


def delivered(server: MailServer, folder: str = "INBOX") -> list[EmailMessage]:
    """Every message in `folder`, parsed, as a separate mail client sees them."""
    client = server.imap()
    try:
        if not client.folder_exists(folder):
            return []
        client.select_folder(folder)
        uids = client.search(["ALL"])
        if not uids:
            return []
        data = client.fetch(uids, ["BODY.PEEK[]"])
        return [
            email.message_from_bytes(data[u][b"BODY[]"], policy=email.policy.default)  # type: ignore[misc]
            for u in uids
        ]
    finally:
        client.logout()


def body_bytes(msg: EmailMessage) -> bytes:
    part = msg.get_body(("plain",))
    assert part is not None
    return part.get_payload(decode=True)  # type: ignore[return-value]


def incoming(sender: str = "Ana <ana@client.example>", subject: str = "Can we meet?",
             body: str = "Could you send me the deck?", message_id: str = "<orig-1@client.example>"
             ) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "test@example.org"
    msg["Subject"] = subject
    msg["Message-ID"] = message_id
    msg["Date"] = "Thu, 03 Dec 2026 08:00:00 +0000"
    msg.set_content(body)
    return msg.as_bytes()


def wipe(server: MailServer) -> MailServer:
    """Empty INBOX and Sent so one server can serve a whole test module."""
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
    return server


# One mail server per test module, emptied between tests: starting mail-devel costs more
# than wiping it. Import both names into a module to use them.
@pytest.fixture(scope="module")
def server() -> Iterator[MailServer]:
    running = MailServer().start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def mail_server(server: MailServer) -> MailServer:
    return wipe(server)
