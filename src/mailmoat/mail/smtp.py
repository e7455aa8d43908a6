"""The transport for floor actions: SMTP submission, the Sent copy, and the IMAP side of
permanent deletes and forwards.

Only the guarded executor (`mailmoat.act.executor`) may call into this module; a test scans
the source tree for any other caller. Sending is gated there; this module only moves bytes.

* Submission: implicit TLS (port 465) or STARTTLS (587), AUTH (password or XOAUTH2) when a
  username is set. Plain SMTP only on a loopback host, and only when asked for explicitly.
  Both sides connect through `mail.imap`'s vetted socket, so the multi-user address guard
  covers SMTP hosts as it covers IMAP hosts; the IMAP side logs in with `mail.imap.connect`,
  the same code sync uses.
* Secrets are fetched at connect time through a callable (the accounts store opens the
  password or refreshes the access token), so a long-running worker never holds a stale one.
* Rendering is deterministic: the same payload, sender, Message-ID and date always give the
  same bytes, so the executor can re-render and compare with the stored bytes before sending.
  The body travels base64-encoded so no hop rewrites its line endings or bytes.
* Errors say which side of the DATA command they happened on: before it nothing was sent
  (`TransientError` / `PermanentError`); during or after it the outcome is unknown
  (`OutcomeUnknown`) and the executor reconciles by Message-ID before any retry.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import ipaddress
import re
import smtplib
import ssl
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from email.message import EmailMessage
from email.policy import SMTP as SMTP_POLICY
from email.utils import format_datetime
from typing import Any, Literal

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientError

from mailmoat.core.outbox import DRAFT, FLAGGED, STAGED_FLAGS
from mailmoat.mail.imap import (
    ConnectError,
    Endpoint,
    address_policy_from_env,
    connect,
    vetted_socket,
)

# The same names as the accounts store (accounts.registry.TLS_MODES).
Security = Literal["implicit", "starttls", "plain"]
Auth = Literal["password", "xoauth2"]
Secret = Callable[[], str]
# Connection steps whose failure may pass (name lookup, TCP, a dropped greeting); the rest
# (TLS, login, capability, the address guard) need a person to change something.
_TRANSIENT_STAGES = frozenset({"dns", "tcp", "protocol"})


class TransportError(Exception):
    """Base class. Messages never contain a password."""


class TransportConfigError(TransportError):
    """Settings that must not be used (plain text off loopback, unknown security)."""


class TransientError(TransportError):
    """Nothing was sent; trying again later may work (4xx, timeout, connection refused)."""


class PermanentError(TransportError):
    """Nothing was sent; the server refused for good (5xx)."""


class OutcomeUnknown(TransportError):
    """The connection failed during or right after DATA: the message may have gone out."""


class AttachmentMissing(TransportError):
    """An attachment named by hash is not stored, or its bytes no longer hash to that name."""


@dataclass(frozen=True, slots=True)
class SmtpSettings:
    host: str
    port: int
    from_addr: str
    security: Security = "starttls"
    username: str = ""  # empty: no AUTH (a relay that trusts this host)
    auth: Auth = "password"
    # Called at connect time: the password, or for xoauth2 a current access token (Gmail,
    # Outlook); getting and refreshing it is the accounts store's job.
    secret: Secret | None = field(default=None, repr=False, compare=False)
    timeout: float = 30.0
    ca_file: str | None = None  # an extra trust anchor (a private CA, a test server)


@dataclass(frozen=True, slots=True)
class ImapSettings:
    """The account's IMAP side. TLS trust comes from `mail.imap.tls_context` (the system
    store plus MAILMOAT_IMAP_CA_FILE), as for sync."""

    host: str
    port: int
    username: str
    auth: Auth = "password"
    secret: Secret | None = field(default=None, repr=False, compare=False)
    security: Security = "implicit"
    sent_folder: str = "Sent"
    # True when the server itself files every accepted submission in `sent_folder` (Gmail,
    # Outlook, Sieve copies): then we never APPEND, and "not in Sent" means "not sent".
    server_files_sent: bool = False
    timeout: float = 30.0


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@functools.lru_cache(maxsize=16)
def _tls_context(ca_file: str | None) -> ssl.SSLContext:
    # Loading the system trust store costs ~80 ms: once per CA file, not once per message.
    context = ssl.create_default_context()
    if ca_file:
        context.load_verify_locations(cafile=ca_file)
    return context


def _check_security(security: str, host: str) -> None:
    if security not in ("implicit", "starttls", "plain"):
        raise TransportConfigError(
            f"unknown security {security!r}: use implicit, starttls or plain")
    if security == "plain" and not _is_loopback(host):
        raise TransportConfigError(f"plain text is allowed only on a loopback host, not {host!r}")


# -- rendering ------------------------------------------------------------------------------


def message_id_for(key: str, from_addr: str) -> str:
    """Our Message-ID, derived from the outbox idempotency key: one action, one id."""
    domain = from_addr.rpartition("@")[2] or "mailmoat.invalid"
    return f"<mailmoat.{key[:40]}@{domain}>"


def _boundary(message_id: str) -> str:
    return "mm-" + hashlib.sha256(message_id.encode()).hexdigest()[:32]


def _headers(msg: EmailMessage, from_addr: str, to: str, subject: str, message_id: str,
             date: datetime) -> None:
    msg["From"] = from_addr
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = format_datetime(date)
    msg["Message-ID"] = message_id


def render_send(
    payload: Mapping[str, Any],
    from_addr: str,
    message_id: str,
    date: datetime,
    attachments: Mapping[str, bytes] = {},
    auto_replied: bool = False,
) -> bytes:
    """RFC 822 bytes for a canonical send_email payload. An unattended reply says so
    (`Auto-Submitted: auto-replied`, RFC 3834): other responders will not answer it, and
    sync can tell it from a reply the user wrote."""
    msg = EmailMessage(policy=SMTP_POLICY)
    _headers(msg, from_addr, payload["to"], payload["subject"], message_id, date)
    if auto_replied:
        msg["Auto-Submitted"] = "auto-replied"
    if payload.get("in_reply_to"):
        msg["In-Reply-To"] = payload["in_reply_to"]
    if payload.get("references"):
        msg["References"] = " ".join(payload["references"])
    _set_text(msg, payload["body"])
    for item in payload.get("attachments") or []:
        content = attachments.get(item["sha256"])
        if content is None or hashlib.sha256(content).hexdigest() != item["sha256"]:
            raise AttachmentMissing(f"attachment {item['filename']!r} is missing or changed")
        maintype, _, subtype = item["content_type"].partition("/")
        method = _itip_method(content) if (maintype, subtype) == ("text", "calendar") else None
        msg.add_attachment(
            content, maintype=maintype or "application",
            subtype=subtype or "octet-stream", filename=item["filename"],
            params={"method": method} if method else {},
        )
    if msg.is_multipart():
        msg.set_boundary(_boundary(message_id))
    return msg.as_bytes()


ITIP_METHODS = frozenset({"PUBLISH", "REQUEST", "REPLY", "ADD", "CANCEL", "REFRESH", "COUNTER",
                          "DECLINECOUNTER"})
_METHOD_LINE = re.compile(rb"^METHOD:([A-Za-z-]{1,20})\r?$", re.MULTILINE)


def _itip_method(content: bytes) -> str | None:
    """The iTIP METHOD a text/calendar attachment carries, which iMIP (RFC 6047 2.4) wants
    named on its Content-Type too (mail clients show it as an invitation answer then). Read
    from the attachment's own (receipted) bytes; only a known method is named."""
    found = _METHOD_LINE.search(content[:8192])
    method = found.group(1).decode("ascii").upper() if found else ""
    return method if method in ITIP_METHODS else None


def render_forward(
    payload: Mapping[str, Any], from_addr: str, message_id: str, date: datetime, original: bytes
) -> bytes:
    """The original message attached whole under the user's note.

    Its bytes travel as they are, only with line endings made CRLF (the form SMTP carries
    anyway; mail stored with bare LF would otherwise read as one endless line): as
    message/rfc822 when every line fits SMTP's 998 octets, else base64 as an .eml file, so
    no hop has to rewrap it. The executor has already checked the bytes' hash."""
    msg = EmailMessage(policy=SMTP_POLICY)
    _headers(msg, from_addr, payload["to"], "Fwd: " + _subject_of(original), message_id, date)
    _set_text(msg, payload.get("note") or "")
    wire = crlf(original)
    if max((len(line) for line in wire.split(b"\r\n")), default=0) > _MAX_LINE:
        msg.add_attachment(wire, maintype="application", subtype="octet-stream",
                           cte="base64", filename="forwarded.eml")
        msg.set_boundary(_boundary(message_id))
        return msg.as_bytes()
    # Assembled by hand: the email package would re-encode the original's 8-bit bytes (and
    # fail on some) and add headers of its own to it; the original goes in untouched.
    boundary = _boundary(message_id)
    if b"--" + boundary.encode() in wire:
        raise PermanentError("the message to forward contains our MIME boundary")
    note = EmailMessage(policy=SMTP_POLICY)
    _set_text(note, payload.get("note") or "")
    del note["MIME-Version"]
    del msg["Content-Type"], msg["Content-Transfer-Encoding"], msg["MIME-Version"]
    msg.set_payload(None)  # type: ignore[call-overload]  # typeshed omits None; clears the body
    head = msg.as_bytes().rstrip(b"\r\n") + (
        f"\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; "
        f'boundary="{boundary}"\r\n\r\n'
    ).encode()
    part = (b"Content-Type: message/rfc822\r\nContent-Transfer-Encoding: 8bit\r\n"
            b'Content-Disposition: attachment; filename="forwarded.eml"\r\n\r\n')
    # The CRLF before a delimiter belongs to the delimiter: one more keeps the original's own.
    tail = b"\r\n"
    sep = b"--" + boundary.encode()
    return (head + sep + b"\r\n" + note.as_bytes() + b"\r\n" + sep + b"\r\n" + part + wire
            + tail + sep + b"--\r\n")


_MAX_LINE = 998  # RFC 5321 4.5.3.1.6, without the CRLF
_ANY_EOL = re.compile(rb"\r\n|\r|\n")


def crlf(raw: bytes) -> bytes:
    """`raw` with every line ending (CRLF, bare LF, bare CR) made CRLF."""
    return _ANY_EOL.sub(b"\r\n", raw)


def _set_text(msg: EmailMessage, text: str) -> None:
    # As bytes, so the email package cannot rewrite line endings: the body arrives exactly.
    msg.set_content(text.encode("utf-8"), maintype="text", subtype="plain", cte="base64")
    msg.set_param("charset", "utf-8")


def _subject_of(raw: bytes) -> str:
    from mailmoat.core.message import parse_message

    return parse_message(raw).subject


# -- SMTP -----------------------------------------------------------------------------------

_CONNECT_ERRORS = (OSError, smtplib.SMTPConnectError, smtplib.SMTPServerDisconnected)


class _VettedSMTP(smtplib.SMTP):
    """smtplib over `mail.imap.vetted_socket`: the address guard vets the resolved address
    and the socket connects to that very address."""

    def _get_socket(self, host: str, port: int, timeout: float) -> Any:
        return vetted_socket(Endpoint(host, port, "plain", address_policy_from_env()), timeout)


class _VettedSMTPSSL(smtplib.SMTP_SSL, _VettedSMTP):
    """Implicit TLS: SMTP_SSL wraps the socket `_VettedSMTP` hands it (method order)."""


def _secret(secret: Secret | None) -> str:
    return secret() if secret is not None else ""


def _connect_error(side: str, exc: ConnectError) -> TransportError:
    kind = TransientError if exc.stage in _TRANSIENT_STAGES else PermanentError
    return kind(f"{side} {exc}")


class SmtpTransport:
    def __init__(self, settings: SmtpSettings) -> None:
        _check_security(settings.security, settings.host)
        self.settings = settings

    def _connect(self) -> smtplib.SMTP:
        s = self.settings
        context = None if s.security == "plain" else _tls_context(s.ca_file)
        if s.security == "implicit":
            client: smtplib.SMTP = _VettedSMTPSSL(
                s.host, s.port, timeout=s.timeout, context=context
            )
        else:
            client = _VettedSMTP(s.host, s.port, timeout=s.timeout)
        client.ehlo()
        if s.security == "starttls":
            if not client.has_extn("starttls"):
                client.close()
                raise PermanentError(f"{s.host}:{s.port} does not offer STARTTLS")
            client.starttls(context=context)
            client.ehlo()
        if s.username and s.auth == "xoauth2":
            client.auth("XOAUTH2", _xoauth2(s.username, _secret(s.secret)))
        elif s.username:
            client.login(s.username, _secret(s.secret))
        return client

    def submit(self, raw: bytes, recipient: str,
               before_data: Callable[[], None] | None = None) -> str:
        """Hand one message to the server; return its answer to DATA. `before_data` runs
        once the server has taken the envelope and nothing has been sent yet; if it raises,
        DATA is never sent."""
        try:
            client = self._connect()
        except ConnectError as exc:
            raise _connect_error("SMTP", exc) from None
        except smtplib.SMTPAuthenticationError as exc:
            raise PermanentError(f"SMTP authentication failed ({exc.smtp_code})") from None
        except smtplib.SMTPNotSupportedError:
            raise PermanentError("the SMTP server does not offer AUTH here") from None
        except smtplib.SMTPResponseException as exc:
            raise _refused("connect", exc.smtp_code) from None
        except ssl.SSLError as exc:
            raise PermanentError(f"TLS failed: {exc.reason}") from None
        except (TimeoutError, *_CONNECT_ERRORS) as exc:
            raise TransientError(f"cannot reach SMTP server: {type(exc).__name__}") from None
        try:
            try:
                code, _ = client.mail(self.settings.from_addr)
                if code != 250:
                    raise _refused("MAIL FROM", code)
                code, _ = client.rcpt(recipient)
                if code not in (250, 251):
                    raise _refused("RCPT TO", code)
            except smtplib.SMTPServerDisconnected:
                raise TransientError("SMTP server hung up before DATA") from None
            except (TimeoutError, OSError) as exc:
                raise TransientError(f"SMTP failed before DATA: {type(exc).__name__}") from None
            if before_data is not None:
                before_data()
            try:
                code, answer = client.data(raw)
            except smtplib.SMTPDataError as exc:  # the server answered: it refused the data
                raise _refused("DATA", exc.smtp_code) from None
            except (OSError, smtplib.SMTPServerDisconnected) as exc:
                raise OutcomeUnknown(f"connection lost during DATA: {type(exc).__name__}") from None
            if code != 250:
                raise _refused("DATA", code)
            return answer.decode("utf-8", "replace")
        finally:
            try:
                client.quit()
            except (OSError, smtplib.SMTPException):
                client.close()


def _xoauth2(user: str, token: str) -> Callable[..., str]:
    def respond(challenge: bytes | None = None) -> str:
        # The initial response carries the token; to an error challenge the client answers
        # empty so the server sends its final (failure) reply.
        return f"user={user}\x01auth=Bearer {token}\x01\x01" if challenge is None else ""

    return respond


def _refused(stage: str, code: int) -> TransportError:
    if 400 <= code < 500:
        return TransientError(f"server deferred {stage} ({code})")
    return PermanentError(f"server refused {stage} ({code})")


_APPENDUID = re.compile(rb"\[APPENDUID \d+ (\d+)\]")

# -- IMAP -----------------------------------------------------------------------------------


class ImapMailbox:
    """The IMAP operations the executor needs: Sent copies, reconciliation, delete, fetch."""

    def __init__(self, settings: ImapSettings) -> None:
        _check_security(settings.security, settings.host)
        self.settings = settings

    def _connect(self) -> IMAPClient:
        s = self.settings
        endpoint = Endpoint(s.host, s.port, s.security, address_policy_from_env(), s.timeout)
        try:
            return connect(endpoint, s.username, lambda: _secret(s.secret), s.auth)
        except ConnectError as exc:
            raise _connect_error("IMAP", exc) from None

    @contextlib.contextmanager
    def sent_folder(self) -> Iterator[SentFolder]:
        """One logged-in session on the Sent folder, for the life of one send."""
        client = self._connect()
        try:
            yield SentFolder(client, self.settings.sent_folder)
        finally:
            _logout(client)

    def find_delivered(self, message_id: str) -> str | None:
        """A folder holding a copy of our message that is not our own staged draft: the
        server's Sent copy, or the message itself where it was delivered back to this
        account. Looked up by SEARCH and confirmed by the exact Message-ID (SEARCH matches
        substrings). None: no such copy anywhere on this account's server."""
        client = self._connect()
        try:
            for flags, _delim, folder in client.list_folders():
                if any(f.lower() in (b"\\noselect", b"\\nonexistent") for f in flags):
                    continue
                client.select_folder(folder, readonly=True)
                uids = client.search(["HEADER", "Message-ID", message_id])
                if not uids:
                    continue
                data = client.fetch(uids, ["FLAGS", "BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)]"])
                for item in data.values():
                    header = next((v for k, v in item.items() if k.startswith(b"BODY")), b"")
                    found = bytes(header).decode("ascii", "replace").partition(":")[2].strip()
                    ours = DRAFT.encode() in set(item.get(b"FLAGS", ()))
                    if found == message_id and not ours:
                        return str(folder)
            return None
        except (OSError, IMAPClientError) as exc:
            raise TransientError(f"IMAP search failed: {type(exc).__name__}") from None
        finally:
            _logout(client)

    def _select_exact(self, client: IMAPClient, folder: str, uidvalidity: int) -> bool:
        """Select `folder` and check it is still the one the UIDs were read under."""
        if not client.folder_exists(folder):
            return False
        answer = client.select_folder(folder)
        current = answer.get(b"UIDVALIDITY")
        if current is None or int(current) != uidvalidity:
            raise PermanentError(f"folder {folder!r} has a new UIDVALIDITY: the approved "
                                 "message can no longer be named; propose it again")
        return True

    def fetch_exact(self, folder: str, uidvalidity: int, uid: int) -> bytes | None:
        """The bytes of the one message at (folder, UIDVALIDITY, UID); None if it is gone."""
        client = self._connect()
        try:
            if not self._select_exact(client, folder, uidvalidity):
                return None
            data = client.fetch([uid], ["BODY.PEEK[]"])
            if uid not in data or b"BODY[]" not in data[uid]:
                return None
            return bytes(data[uid][b"BODY[]"])
        except (OSError, IMAPClientError) as exc:
            raise TransientError(f"IMAP fetch failed: {type(exc).__name__}") from None
        finally:
            _logout(client)

    def expunge(self, folder: str, uidvalidity: int, uid: int, sha256: str) -> int:
        """Permanently remove the one message at (folder, UIDVALIDITY, UID), and only if its
        bytes still hash to `sha256`: 1 when removed, 0 when it is already gone. UIDs are
        never reused under one UIDVALIDITY, so no other message can be hit; the expunge is
        by UID (UIDPLUS), so nothing else the person marked \\Deleted goes with it."""
        client = self._connect()
        try:
            if b"UIDPLUS" not in client.capabilities():
                raise PermanentError("the server has no UID EXPUNGE (UIDPLUS): a permanent "
                                     "delete could take other messages with it; refused")
            if not self._select_exact(client, folder, uidvalidity):
                return 0
            data = client.fetch([uid], ["BODY.PEEK[]"])
            if uid not in data or b"BODY[]" not in data[uid]:
                return 0
            if hashlib.sha256(bytes(data[uid][b"BODY[]"])).hexdigest() != sha256:
                raise PermanentError("the message at that UID is not the approved one "
                                     "(its bytes changed); nothing was deleted")
            client.add_flags([uid], [b"\\Deleted"])
            client.uid_expunge([uid])
            return 1
        except (OSError, IMAPClientError) as exc:
            raise TransientError(f"IMAP expunge failed: {type(exc).__name__}") from None
        finally:
            _logout(client)


class SentFolder:
    """Our copy of one message in the Sent folder, found by our Message-ID. Its flags record
    how far the send got (core.outbox.SentCopy): staged before submission, flagged just
    before DATA, cleared once the server accepted it."""

    def __init__(self, client: IMAPClient, folder: str) -> None:
        self.client = client
        self.folder = folder
        # One session serves one send: select once, find the copy once (or take its UID
        # from the APPEND answer), instead of a SELECT and SEARCH per step.
        self._selected = False
        self._found: dict[str, list[int]] = {}

    def _select(self) -> bool:
        if not self._selected:
            if not self.client.folder_exists(self.folder):
                return False
            self.client.select_folder(self.folder)
            self._selected = True
        return True

    def _uids(self, message_id: str) -> list[int]:
        if not self._select():
            return []
        if message_id not in self._found:
            uids = list(self.client.search(["HEADER", "Message-ID", message_id]))
            if not uids:
                return []
            self._found[message_id] = uids
        return self._found[message_id]

    def _do(self, what: str, step: Callable[[], Any]) -> Any:
        try:
            return step()
        except (OSError, IMAPClientError) as exc:
            raise TransientError(f"IMAP {what} failed: {type(exc).__name__}") from None

    def flags(self, message_id: str) -> frozenset[str] | None:
        """The copy's flags, or None when there is no copy."""
        def look() -> frozenset[str] | None:
            uids = self._uids(message_id)
            if not uids:
                return None
            got = self.client.get_flags(uids[:1]).get(uids[0], ())
            return frozenset(f.decode() if isinstance(f, bytes) else str(f) for f in got)

        return self._do("search", look)

    def stage(self, raw: bytes, message_id: str) -> None:
        """File the exact bytes as a draft copy before they are submitted; a copy staged by
        an earlier attempt is reused (and un-flagged: that attempt's DATA never began)."""
        def stage() -> None:
            uids = self._uids(message_id)
            if uids:
                self.client.remove_flags(uids, [FLAGGED.encode()], silent=True)
                self.client.add_flags(uids, [DRAFT.encode()], silent=True)
                return
            if not self.client.folder_exists(self.folder):
                self.client.create_folder(self.folder)
            answer = self.client.append(self.folder, raw, flags=[f.encode() for f in STAGED_FLAGS])
            uid = _APPENDUID.search(answer if isinstance(answer, bytes) else b"")
            if uid and self._select():  # UIDPLUS told us where the copy is
                self._found[message_id] = [int(uid.group(1))]

        self._do("APPEND", stage)

    def mark_submitting(self, message_id: str) -> None:
        def mark() -> None:
            # Looked up afresh, not from the cache: if someone removed the staged copy
            # meanwhile, the send must not go ahead without it. The STORE answer lists the
            # messages it flagged: none means the same.
            self._found.pop(message_id, None)
            uids = self._uids(message_id)
            if not uids or not self.client.add_flags(uids, [FLAGGED.encode()]):
                raise TransientError("the staged Sent copy is gone; staging again")

        self._do("STORE", mark)

    def confirm(self, message_id: str) -> None:
        """The server accepted the message: the copy becomes an ordinary sent message."""
        def confirm() -> None:
            uids = self._uids(message_id)
            if uids:
                self.client.remove_flags(uids, [DRAFT.encode(), FLAGGED.encode()], silent=True)

        self._do("STORE", confirm)

    def discard(self, message_id: str) -> None:
        """The server refused the message for good: remove our never-sent draft copy."""
        def discard() -> None:
            uids = self._uids(message_id)
            if uids:
                self.client.add_flags(uids, [b"\\Deleted"], silent=True)
                self.client.uid_expunge(uids)
                self._found.pop(message_id, None)

        self._do("EXPUNGE", discard)


def _logout(client: IMAPClient) -> None:
    with contextlib.suppress(OSError, IMAPClientError):
        client.logout()


@dataclass(frozen=True, slots=True)
class MailTransport:
    """SMTP plus IMAP for one account, in the shape the executor's `FloorTransport` wants."""

    smtp: SmtpSettings
    imap: ImapSettings

    @property
    def from_addr(self) -> str:
        return self.smtp.from_addr

    @property
    def server_files_sent(self) -> bool:
        return self.imap.server_files_sent

    def submit(self, raw: bytes, recipient: str,
               before_data: Callable[[], None] | None = None) -> str:
        return SmtpTransport(self.smtp).submit(raw, recipient, before_data)

    def sent_folder(self) -> contextlib.AbstractContextManager[SentFolder]:
        return ImapMailbox(self.imap).sent_folder()

    def fetch_exact(self, folder: str, uidvalidity: int, uid: int) -> bytes | None:
        return ImapMailbox(self.imap).fetch_exact(folder, uidvalidity, uid)

    def find_delivered(self, message_id: str) -> str | None:
        return ImapMailbox(self.imap).find_delivered(message_id)

    def expunge(self, folder: str, uidvalidity: int, uid: int, sha256: str) -> int:
        return ImapMailbox(self.imap).expunge(folder, uidvalidity, uid, sha256)
