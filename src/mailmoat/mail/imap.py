"""Connect and log in to an IMAP server, and say exactly which step failed.

The abuse guard runs here, at connect time, on the address the name resolved to — and the
socket connects to that same vetted address, so a name cannot re-resolve in between.
Errors name the step (dns, tcp, tls, auth, capability, guard) and never carry a secret.
"""

from __future__ import annotations

import contextlib
import imaplib
import os
import socket
import ssl
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from imapclient import IMAPClient
from imapclient.exceptions import CapabilityError, LoginError
from imapclient.imapclient import ARCHIVE, TRASH

from mailmoat.core.actions import SpecialFolders
from mailmoat.core.address_guard import AddressPolicy, parse_allow_list, refused_address

ENV_MULTI_USER = "MAILMOAT_MULTI_USER"
ENV_ALLOW = "MAILMOAT_IMAP_ALLOW"
ENV_CA_FILE = "MAILMOAT_IMAP_CA_FILE"
TIMEOUT_S = 30.0


class ConnectError(RuntimeError):
    """One step of reaching the mailbox failed; `stage` says which."""

    def __init__(self, stage: str, message: str) -> None:
        super().__init__(f"{stage}: {message}")
        self.stage = stage


def address_policy_from_env() -> AddressPolicy:
    multi = os.environ.get(ENV_MULTI_USER, "").lower() in {"1", "true", "yes"}
    return AddressPolicy(multi_user=multi, allow=parse_allow_list(os.environ.get(ENV_ALLOW, "")))


def tls_context() -> ssl.SSLContext:
    context = ssl.create_default_context()
    ca_file = os.environ.get(ENV_CA_FILE)
    if ca_file:
        context.load_verify_locations(cafile=ca_file)
    return context


@dataclass(frozen=True)
class Endpoint:
    host: str
    port: int
    tls: str  # implicit | starttls | plain
    policy: AddressPolicy = field(default_factory=AddressPolicy)
    timeout: float = TIMEOUT_S


def vetted_socket(endpoint: Endpoint, timeout: float | None) -> socket.socket:
    try:
        infos = socket.getaddrinfo(endpoint.host, endpoint.port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise ConnectError("dns", f"cannot resolve {endpoint.host}: {exc.strerror}") from None
    last: OSError | None = None
    refused: str | None = None
    for family, kind, proto, _name, sockaddr in infos:
        address = str(sockaddr[0])
        if refused_address(endpoint.policy, [address]) is not None:
            refused = address
            continue
        sock = socket.socket(family, kind, proto)
        sock.settimeout(timeout)
        try:
            sock.connect(sockaddr)
            return sock
        except OSError as exc:
            sock.close()
            last = exc
    if last is None and refused is not None:
        raise ConnectError(
            "guard",
            f"{endpoint.host} resolves to {refused}, a loopback/private/link-local address; "
            f"multi-user mode refuses it unless the operator allow-lists it ({ENV_ALLOW})",
        )
    reason = last.strerror if last is not None and last.strerror else type(last).__name__
    raise ConnectError("tcp", f"cannot connect to {endpoint.host}:{endpoint.port}: {reason}")


def vet_url_host(url: str, policy: AddressPolicy) -> None:
    """Refuse (ConnectError "guard") a URL whose host resolves to an address the policy
    keeps out: the XOAUTH2 token endpoint the refresh token is posted to, in multi-user
    mode, so an account cannot make the server post to its internal network. Checked at
    each connect, before the exchange; a name that re-resolves between this check and the
    HTTP client's own lookup is the remaining gap (docs/mailboxes.md)."""
    if not policy.multi_user:
        return
    host = urlsplit(url).hostname or ""
    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise ConnectError("dns", f"cannot resolve the token endpoint {host}: "
                                  f"{getattr(exc, 'strerror', '') or type(exc).__name__}"
                           ) from None
    refused = refused_address(policy, [str(info[4][0]) for info in infos])
    if refused is not None:
        raise ConnectError(
            "guard", f"the token endpoint {host} resolves to {refused}, a loopback/private/"
            f"link-local address; multi-user mode refuses it unless the operator "
            f"allow-lists it ({ENV_ALLOW})")


class _VettedIMAP4(imaplib.IMAP4):
    """imaplib over a socket from `vetted_socket`, TLS-wrapped when `context` is given."""

    def __init__(self, endpoint: Endpoint, context: ssl.SSLContext | None) -> None:
        self._endpoint = endpoint
        self._context = context
        super().__init__(endpoint.host, endpoint.port, timeout=endpoint.timeout)

    def _create_socket(self, timeout: float | None = None) -> socket.socket:
        sock = vetted_socket(self._endpoint, timeout or self._endpoint.timeout)
        if self._context is None:
            return sock
        try:
            return self._context.wrap_socket(sock, server_hostname=self._endpoint.host)
        except ssl.SSLCertVerificationError as exc:
            sock.close()
            raise ConnectError("tls", f"certificate not trusted: {exc.verify_message}") from None
        except (ssl.SSLError, OSError) as exc:
            sock.close()
            raise ConnectError(
                "tls", f"TLS handshake with {self._endpoint.host}:{self._endpoint.port} failed "
                f"({getattr(exc, 'reason', None) or type(exc).__name__}); is this port TLS?"
            ) from None


class MailClient(IMAPClient):
    """IMAPClient whose connection goes through the guard and the vetted socket."""

    def __init__(self, endpoint: Endpoint) -> None:
        self._endpoint = endpoint
        implicit = endpoint.tls == "implicit"
        super().__init__(
            endpoint.host, port=endpoint.port, ssl=implicit,
            ssl_context=tls_context() if implicit else None, timeout=endpoint.timeout,
        )

    def _create_IMAP4(self) -> imaplib.IMAP4:
        return _VettedIMAP4(self._endpoint, self.ssl_context if self.ssl else None)


def connect(
    endpoint: Endpoint,
    username: str,
    secret: Callable[[], str],
    auth: str = "password",
) -> MailClient:
    """Connect, secure, log in. `secret` is called only once the connection is up."""
    try:
        client = MailClient(endpoint)
    except ConnectError:
        raise
    except (imaplib.IMAP4.error, OSError, EOFError) as exc:
        raise ConnectError(
            "protocol", f"{endpoint.host}:{endpoint.port} did not greet as IMAP "
            f"({type(exc).__name__})"
        ) from None
    try:
        if endpoint.tls == "starttls":
            try:
                client.starttls(tls_context())
            except CapabilityError:
                raise ConnectError("tls", "server does not offer STARTTLS") from None
            except ssl.SSLCertVerificationError as exc:
                raise ConnectError(
                    "tls", f"certificate not trusted: {exc.verify_message}"
                ) from None
            except (ssl.SSLError, imaplib.IMAP4.error) as exc:
                raise ConnectError("tls", f"STARTTLS failed ({type(exc).__name__})") from None
        caps = set(client.capabilities())
        if not caps & {b"IMAP4REV1", b"IMAP4REV2"}:
            raise ConnectError("capability", "server does not speak IMAP4rev1")
        if auth == "xoauth2":
            if b"AUTH=XOAUTH2" not in caps:
                raise ConnectError("capability", "server does not offer AUTH=XOAUTH2")
            client.oauth2_login(username, secret())
        else:
            client.login(username, secret())
    except LoginError:
        _close(client)
        raise ConnectError("auth", f"the server refused the login for {username}") from None
    except ConnectError:
        _close(client)
        raise
    except (imaplib.IMAP4.error, OSError, EOFError) as exc:
        _close(client)
        raise ConnectError(
            "protocol", f"connection lost while logging in ({type(exc).__name__})"
        ) from None
    return client


def _close(client: IMAPClient) -> None:
    with contextlib.suppress(Exception):  # closing an already broken connection
        client.shutdown()


@dataclass(frozen=True)
class ServerFeatures:
    idle: bool
    condstore: bool
    qresync: bool
    move: bool
    uidplus: bool
    gmail: bool
    keywords: bool | None = None  # known only after SELECT (PERMANENTFLAGS has \*)

    @classmethod
    def of(cls, client: IMAPClient) -> ServerFeatures:
        caps = set(client.capabilities())
        return cls(
            idle=b"IDLE" in caps, condstore=b"CONDSTORE" in caps, qresync=b"QRESYNC" in caps,
            move=b"MOVE" in caps, uidplus=b"UIDPLUS" in caps, gmail=b"X-GM-EXT-1" in caps,
        )

    def names(self) -> list[str]:
        return [n for n in ("idle", "condstore", "qresync", "move", "uidplus", "gmail")
                if getattr(self, n)]


def special_folders(client: IMAPClient) -> SpecialFolders:
    """The server's own \\Archive and \\Trash folders (RFC 6154 LIST attributes, then the
    usual names), falling back to core/actions' defaults, which a move creates if missing."""
    found: dict[str, str] = {}
    for name, flag in (("archive", ARCHIVE), ("trash", TRASH)):
        folder = client.find_special_folder(flag)
        if isinstance(folder, str) and folder:
            found[name] = folder
    return SpecialFolders(**found)
