"""Reaching a mailbox: each failure names its step (dns, tcp, tls, auth, capability,
guard) and never shows the secret. Against the real test server on loopback."""

from __future__ import annotations

import datetime as dt
import ipaddress
import ssl
from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from mailmoat.core.address_guard import AddressPolicy, parse_allow_list
from mailmoat.mail.imap import ENV_CA_FILE, ConnectError, Endpoint, connect
from tests.support.imap_fixtures import Proxy, running
from tests.support.mailserver import HOST, MailServer, free_port

SECRET = "hunter2-never-print-me"

@pytest.fixture
def server() -> Iterator[MailServer]:
    with running(MailServer()) as started:
        yield started



def _connect(port: int, password: str, *, tls: str = "plain", host: str = HOST,
             policy: AddressPolicy | None = None, user: str = "test@example.org",
             auth: str = "password"):  # type: ignore[no-untyped-def]
    endpoint = Endpoint(host, port, tls, policy or AddressPolicy(), timeout=5)
    return connect(endpoint, user, lambda: password, auth)


def _fails(stage: str, **kwargs: object) -> str:
    with pytest.raises(ConnectError) as caught:
        _connect(**kwargs)  # type: ignore[arg-type]
    assert caught.value.stage == stage, str(caught.value)
    assert SECRET not in str(caught.value)
    return str(caught.value)


def test_login_works_and_wrong_password_is_an_auth_error(server: MailServer) -> None:
    client = _connect(server.imap_port, server.password)
    assert client.select_folder("INBOX")[b"EXISTS"] == 0
    client.logout()
    message = _fails("auth", port=server.imap_port, password=SECRET)
    assert "refused the login for test@example.org" in message


def test_unreachable_host_and_unknown_name() -> None:
    message = _fails("tcp", port=free_port(), password=SECRET)
    assert "cannot connect" in message
    _fails("dns", port=993, password=SECRET, host="no-such-host.invalid")


def test_tls_expected_but_server_speaks_plain(server: MailServer) -> None:
    message = _fails("tls", port=server.imap_port, password=SECRET, tls="implicit")
    assert "handshake" in message
    message = _fails("tls", port=server.imap_port, password=SECRET, tls="starttls")
    assert "STARTTLS" in message


def test_xoauth2_needs_the_capability(server: MailServer) -> None:
    message = _fails("capability", port=server.imap_port, password=SECRET, auth="xoauth2")
    assert "AUTH=XOAUTH2" in message


@pytest.fixture(scope="module")
def self_signed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "mailmoat test")])
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name)
        .public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=1)).not_valid_after(now + dt.timedelta(days=2))
        .add_extension(x509.SubjectAlternativeName(
            [x509.IPAddress(ipaddress.ip_address(HOST))]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    folder = tmp_path_factory.mktemp("tls")
    cert_file, key_file = folder / "cert.pem", folder / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_file, key_file


@pytest.fixture
def tls_front(server: MailServer, self_signed: tuple[Path, Path]) -> Iterator[Proxy]:
    """Implicit TLS with a self-signed certificate in front of the test server (mail-devel
    itself offers no IMAP TLS)."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(*self_signed)
    proxy = Proxy(server.imap_port, tls=context).restore()
    try:
        yield proxy
    finally:
        proxy.cut()


def test_self_signed_certificate_is_refused_unless_trusted(
    tls_front: Proxy, server: MailServer, self_signed: tuple[Path, Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(ENV_CA_FILE, raising=False)
    message = _fails("tls", port=tls_front.port, password=server.password, tls="implicit")
    assert "certificate not trusted" in message
    monkeypatch.setenv(ENV_CA_FILE, str(self_signed[0]))
    client = _connect(tls_front.port, server.password, tls="implicit")
    assert client.select_folder("INBOX")[b"EXISTS"] == 0
    client.logout()


def test_abuse_guard_checks_the_resolved_address(server: MailServer) -> None:
    multi = AddressPolicy(multi_user=True)
    message = _fails("guard", port=server.imap_port, password=server.password,
                     policy=multi)
    assert "127.0.0.1" in message and "allow-list" in message
    # A name is checked on what it resolves to, not on how it is spelled.
    _fails("guard", port=server.imap_port, password=server.password,
           policy=multi, host="localhost")
    allowed = AddressPolicy(multi_user=True, allow=parse_allow_list("127.0.0.0/8"))
    client = _connect(server.imap_port, server.password, policy=allowed)
    client.logout()


def test_no_secret_in_debug_logs(server: MailServer, caplog: pytest.LogCaptureFixture) -> None:
    import logging

    caplog.set_level(logging.DEBUG)
    client = _connect(server.imap_port, server.password)
    client.select_folder("INBOX")
    client.logout()
    _fails("auth", port=server.imap_port, password=SECRET)
    assert caplog.records, "nothing was logged: the check would prove nothing"
    assert server.password not in caplog.text and SECRET not in caplog.text
