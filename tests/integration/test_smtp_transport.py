"""The SMTP/IMAP transport against real servers on loopback: TLS both ways, auth, errors.

mail-devel serves STARTTLS, implicit TLS (SMTPS) and IMAP STARTTLS with a certificate made
here; a small aiosmtpd server that defers the first delivery stands in for a busy MTA.
"""

from __future__ import annotations

import asyncio
import base64
import datetime as dt
import ipaddress
import smtplib
import ssl
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from mailmoat.act.executor import Executor
from mailmoat.mail.smtp import (
    ImapMailbox,
    ImapSettings,
    MailTransport,
    OutcomeUnknown,
    PermanentError,
    SmtpSettings,
    SmtpTransport,
    TransientError,
    TransportConfigError,
)
from tests.support.act_support import delivered, rig, send_payload
from tests.support.mailserver import MailServer, free_port

RAW = (b"From: test@example.org\r\nTo: ana@client.example\r\nSubject: t\r\n"
       b"Message-ID: <t1@x>\r\n\r\nhi\r\n")


def _certificate(directory: Path) -> tuple[Path, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "mailmoat test")])
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name)
        .public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName(
            [x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")]),
            critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = directory / "cert.pem", directory / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()))
    return cert_path, key_path


@pytest.fixture(scope="module")
def tls_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[MailServer, int, Path]]:
    cert, key = _certificate(tmp_path_factory.mktemp("tls"))
    smtps = free_port()
    server = MailServer(extra_args=("--cert", str(cert), "--key", str(key),
                                    "--smtps-port", str(smtps), "--auth-required"))
    server.start()
    try:
        yield server, smtps, cert
    finally:
        server.stop()


def _fixed(secret: str) -> Any:
    return lambda: secret


def _smtp(server: MailServer, cert: Path, password: str | None = None,
          **overrides: Any) -> SmtpSettings:
    values: dict[str, Any] = {
        "host": server.host, "port": server.smtp_port, "from_addr": server.user,
        "security": "starttls", "username": server.user,
        "secret": _fixed(password or server.password), "ca_file": str(cert), "timeout": 10,
    }
    values.update(overrides)
    return SmtpSettings(**values)


def _imap(server: MailServer, password: str | None = None, **overrides: Any) -> ImapSettings:
    values: dict[str, Any] = {
        "host": server.host, "port": server.imap_port, "username": server.user,
        "secret": _fixed(password or server.password), "security": "starttls", "timeout": 10,
    }
    values.update(overrides)
    return ImapSettings(**values)


def test_starttls_with_auth_delivers(tls_server: tuple[MailServer, int, Path]) -> None:
    server, _, cert = tls_server
    answer = SmtpTransport(_smtp(server, cert)).submit(RAW, "ana@client.example")
    assert answer  # the server's answer to DATA
    assert any(m["Message-ID"] == "<t1@x>" for m in delivered(server))


def test_implicit_tls_delivers(tls_server: tuple[MailServer, int, Path]) -> None:
    server, smtps, cert = tls_server
    raw = RAW.replace(b"<t1@x>", b"<t2@x>")
    SmtpTransport(_smtp(server, cert, port=smtps, security="implicit")).submit(raw, "a@b.example")
    assert any(m["Message-ID"] == "<t2@x>" for m in delivered(server))


def test_untrusted_certificate_is_a_permanent_tls_error(
    tls_server: tuple[MailServer, int, Path]
) -> None:
    server, _, cert = tls_server
    with pytest.raises(PermanentError, match="TLS failed"):
        SmtpTransport(_smtp(server, cert, ca_file=None)).submit(RAW, "a@b.example")


def test_wrong_password_is_permanent_and_never_echoed(
    tls_server: tuple[MailServer, int, Path]
) -> None:
    server, _, cert = tls_server
    secret = "not-the-password-4711"
    with pytest.raises(PermanentError, match="authentication failed") as info:
        SmtpTransport(_smtp(server, cert, password=secret)).submit(RAW, "a@b.example")
    assert secret not in str(info.value) and secret not in repr(_smtp(server, cert))


def test_imap_starttls_not_offered_is_a_clear_permanent_error(
    tls_server: tuple[MailServer, int, Path]
) -> None:
    server, _, _ = tls_server  # mail-devel's IMAP side offers no STARTTLS
    with pytest.raises(PermanentError, match="does not offer STARTTLS"):
        _flags(ImapMailbox(_imap(server)), "<x@y>")


def test_wrong_imap_password_is_permanent(tls_server: tuple[MailServer, int, Path]) -> None:
    server, _, _ = tls_server
    with pytest.raises(PermanentError, match="refused the login"):
        _flags(ImapMailbox(_imap(server, "nope", security="plain")), "<x@y>")


def _flags(box: ImapMailbox, message_id: str) -> frozenset[str] | None:
    with box.sent_folder() as sent:
        return sent.flags(message_id)


def test_sent_copy_over_imap_staged_flagged_confirmed(
    tls_server: tuple[MailServer, int, Path]
) -> None:
    """The copy's life as a second IMAP client sees it: a draft before submission, flagged
    just before DATA, an ordinary sent message after the server's 250."""
    server, _, _ = tls_server
    box = ImapMailbox(_imap(server, security="plain"))
    raw = RAW.replace(b"<t1@x>", b"<sent-1@x>")
    assert _flags(box, "<sent-1@x>") is None
    with box.sent_folder() as sent:
        sent.stage(raw, "<sent-1@x>")  # creates Sent when missing
        sent.stage(raw, "<sent-1@x>")  # a retry reuses the staged copy
    assert _flags(box, "<sent-1@x>") == {"\\Seen", "\\Draft"}
    with box.sent_folder() as sent:
        sent.mark_submitting("<sent-1@x>")
    assert _flags(box, "<sent-1@x>") == {"\\Seen", "\\Draft", "\\Flagged"}
    with box.sent_folder() as sent:
        sent.confirm("<sent-1@x>")
    assert _flags(box, "<sent-1@x>") == {"\\Seen"}
    [copy] = delivered(server, "Sent")
    assert copy["Message-ID"] == "<sent-1@x>"
    with box.sent_folder() as sent:
        sent.discard("<sent-1@x>")
    assert delivered(server, "Sent") == []
    # A staged copy removed behind our back (by the person, another client): no DATA.
    with box.sent_folder() as sent:
        sent.stage(raw, "<sent-1@x>")
        other = server.imap()
        other.select_folder("Sent")
        other.delete_messages(other.search(["ALL"]))
        other.expunge()
        other.logout()
        with pytest.raises(TransientError, match="staged Sent copy is gone"):
            sent.mark_submitting("<sent-1@x>")


def test_plain_text_only_on_loopback() -> None:
    with pytest.raises(TransportConfigError, match="loopback"):
        SmtpTransport(SmtpSettings("mail.example.org", 25, "a@b.example", security="plain"))
    with pytest.raises(TransportConfigError, match="loopback"):
        ImapMailbox(ImapSettings("mail.example.org", 143, "a", security="plain"))
    with pytest.raises(TransportConfigError):
        SmtpTransport(SmtpSettings("127.0.0.1", 25, "a@b.example", security="ssl"))  # type: ignore[arg-type]


def test_unreachable_server_is_transient() -> None:
    port = free_port()  # nothing listens here
    settings = SmtpSettings("127.0.0.1", port, "a@b.example", security="plain", timeout=2)
    with pytest.raises(TransientError, match="cannot connect"):
        SmtpTransport(settings).submit(RAW, "a@b.example")


class DeferFirst:
    """An MTA that answers 451 to the first DATA and accepts afterwards."""

    def __init__(self) -> None:
        self.seen: list[bytes] = []
        self.accepted: list[bytes] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.seen.append(envelope.original_content)
        if len(self.seen) == 1:
            return "451 4.3.0 try again later"
        self.accepted.append(envelope.original_content)
        return "250 2.0.0 queued"


@pytest.fixture
def deferring_mta() -> Iterator[tuple[Controller, DeferFirst]]:
    handler = DeferFirst()
    controller = Controller(handler, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        yield controller, handler
    finally:
        controller.stop()


def test_a_deferral_is_retried_with_the_identical_stored_bytes(
    deferring_mta: tuple[Controller, DeferFirst], tmp_path: Path
) -> None:
    controller, handler = deferring_mta
    r = rig(f"sqlite:///{tmp_path / 'm.db'}")
    p = r.service.propose("acct", send_payload(), "sam", "cli")
    r.service.approve(p["id"], "sam")
    t = MailTransport(
        SmtpSettings("127.0.0.1", controller.port, "me@example.org", security="plain",
                     timeout=5),
        ImapSettings("127.0.0.1", 1, "me", security="plain", server_files_sent=True),
    )
    executor = Executor(r.store.engine, {"acct": t}, backoff_base=0)
    outcomes = executor.run_until_idle()
    assert [o.state for o in outcomes] == ["queued", "done"]
    assert len(handler.seen) == 2 and handler.seen[0] == handler.seen[1]
    assert handler.accepted == [handler.seen[0]]


def test_smtplib_stays_inside_the_transport() -> None:
    # The transport speaks SMTP with the standard library client; nothing else needs it.
    assert smtplib.SMTP.__module__ == "smtplib"


class DropDuringData:
    """An MTA that takes the whole message and hangs up before answering: did it go out?"""

    def __init__(self) -> None:
        self.received: list[bytes] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.received.append(envelope.original_content)
        server.transport.close()
        return "250 2.0.0 queued"  # never reaches the client


def test_a_connection_lost_during_data_is_outcome_unknown() -> None:
    handler = DropDuringData()
    controller = Controller(handler, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        settings = SmtpSettings("127.0.0.1", controller.port, "me@example.org",
                                security="plain", timeout=5)
        with pytest.raises(OutcomeUnknown):
            SmtpTransport(settings).submit(RAW, "ana@client.example")
    finally:
        controller.stop()
    assert len(handler.received) == 1  # it did arrive: only reconciliation can tell


class TlsProxy:
    """Implicit TLS in front of mail-devel's plain IMAP port (it has no IMAPS of its own)."""

    def __init__(self, target_port: int, cert: Path, key: Path) -> None:
        self.port = free_port()
        self.target_port = target_port
        self.context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self.context.load_cert_chain(cert, key)
        self.loop = asyncio.new_event_loop()
        # A refused handshake (the untrusted-certificate case) is expected here. Formatting
        # its traceback in this thread would race the main thread inside ast.parse, which
        # Python 3.11 does not survive (shared AST recursion counter), so stay quiet.
        self.loop.set_exception_handler(lambda loop, context: None)
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.server: asyncio.Server | None = None

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (ConnectionError, ssl.SSLError):
            pass
        finally:
            writer.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.close()
            return
        await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))

    async def _start(self) -> None:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", self.port,
                                                 ssl=self.context)

    async def _stop(self) -> None:
        assert self.server is not None
        self.server.close()
        for task in asyncio.all_tasks() - {asyncio.current_task()}:
            task.cancel()

    def __enter__(self) -> TlsProxy:
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(10)
        return self

    def __exit__(self, *exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self._stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


def test_imap_over_implicit_tls(tls_server: tuple[MailServer, int, Path],
                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The IMAP side connects as sync does (mail.imap.connect): trust comes from the system
    store plus MAILMOAT_IMAP_CA_FILE."""
    server, _, cert = tls_server
    key = cert.with_name("key.pem")
    with TlsProxy(server.imap_port, cert, key) as proxy:
        box = ImapMailbox(_imap(server, port=proxy.port, security="implicit"))
        with pytest.raises(PermanentError, match="certificate not trusted"):
            _flags(box, "<tls-1@x>")
        monkeypatch.setenv("MAILMOAT_IMAP_CA_FILE", str(cert))
        with box.sent_folder() as sent:
            sent.stage(RAW.replace(b"<t1@x>", b"<tls-1@x>"), "<tls-1@x>")
        assert _flags(box, "<tls-1@x>") is not None


class OAuthMta:
    """An MTA that accepts AUTH XOAUTH2 with one bearer token and nothing else."""

    def __init__(self, user: str, token: str) -> None:
        self.expected = f"user={user}\x01auth=Bearer {token}\x01\x01"
        self.accepted: list[bytes] = []

    async def auth_XOAUTH2(self, server: Any, args: list[str]) -> AuthResult:
        if len(args) < 2:
            return AuthResult(success=False, handled=False)
        given = base64.b64decode(args[1]).decode("utf-8", "replace")
        return AuthResult(success=given == self.expected, handled=False, auth_data="oauth")

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.accepted.append(envelope.original_content)
        return "250 2.0.0 queued"


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
def test_xoauth2_submission() -> None:
    handler = OAuthMta("me@example.org", "ya29.good-token")
    controller = Controller(handler, hostname="127.0.0.1", port=free_port(),
                            auth_required=True, auth_require_tls=False)
    controller.start()
    try:
        def settings(token: str) -> SmtpSettings:
            return SmtpSettings("127.0.0.1", controller.port, "me@example.org",
                                security="plain", username="me@example.org",
                                auth="xoauth2", secret=_fixed(token), timeout=5)

        SmtpTransport(settings("ya29.good-token")).submit(RAW, "ana@client.example")
        assert handler.accepted == [RAW]
        with pytest.raises(PermanentError, match="authentication failed") as info:
            SmtpTransport(settings("ya29.stolen-token")).submit(RAW, "ana@client.example")
        assert "stolen" not in str(info.value) and "stolen" not in repr(settings("x.stolen"))
    finally:
        controller.stop()
