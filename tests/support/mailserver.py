"""A real IMAP + SMTP server for tests: mail-devel (pure Python, in memory) in a subprocess.

One helper for every test that needs a mailbox, so sync, transport, authority and web tests
talk to the same kind of server. The server runs as its own process so a test can kill it
(SIGKILL) and start it again on the same ports, the way a real server drops mid-sync.
Its mailbox lives in memory: a restart comes back empty, like a server whose storage was
replaced, which is also how a UIDVALIDITY change is provoked.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

HOST = "127.0.0.1"

# mail-devel runs SMTP in its own thread and event loop, so a delivery sets the IMAP side's
# asyncio event from the wrong thread and a client in IDLE is not told until something else
# wakes the IMAP loop. This boot line hands each delivery to the IMAP loop, as a real
# server's local delivery would notify its IDLE clients.
_IDLE_BOOT = (
    "import asyncio; from mail_devel import smtp as _s; "
    "_init = _s.MemoryHandler.__init__; _handle = _s.MemoryHandler.handle_message\n"
    "def _patched_init(self, *a, **k):\n"
    "    _init(self, *a, **k); self._imap_loop = asyncio.get_running_loop()\n"
    "async def _patched_handle(self, message):\n"
    "    await asyncio.wrap_future(asyncio.run_coroutine_threadsafe("
    "_handle(self, message), self._imap_loop))\n"
    "_s.MemoryHandler.__init__ = _patched_init; _s.MemoryHandler.handle_message = _patched_handle\n"
)
# mail-devel's in-memory backend keeps only the system flags. Real servers (Dovecot, Gmail,
# Fastmail) also keep keywords, announced by `\\*` in PERMANENTFLAGS; this boot line lets the
# test server do the same, so keyword-per-lane behaviour can be seen by a second client.
_KEYWORD_BOOT = (
    "from pymap.backend import mailbox as _m\n"
    "from pymap.parsing.specials.flag import Recent, Wildcard, get_system_flags\n"
    "_m.MailboxDataInterface.permanent_flags = property("
    "lambda self: (get_system_flags() - {Recent}) | {Wildcard})\n"
)
# mail-devel offers only PLAIN and LOGIN over IMAP. This boot line adds SASL XOAUTH2 the way
# Gmail and Outlook use it, checking the bearer token against the account's password, so a
# test can hand out that password as the access token from its own token endpoint.
_XOAUTH2_BOOT = (
    "from pymap import config as _c; from pysasl import SASLAuth\n"
    "from pysasl.mechanism.oauth import OAuth2Mechanism\n"
    "from pysasl.creds.external import ExternalCredentials\n"
    "from pysasl.creds.plain import PlainCredentials\n"
    "from mail_devel import auth as _a\n"
    "_c.IMAPConfig.tls_auth = property("
    "lambda self: SASLAuth([*SASLAuth.defaults().server_mechanisms, OAuth2Mechanism()]))\n"
    "_authenticate = _a.IMAPAuthenticator.authenticate\n"
    "async def _xoauth2(self, creds):\n"
    "    if isinstance(creds, ExternalCredentials):\n"
    "        creds = PlainCredentials(creds.authzid, creds._token or '')\n"
    "    return await _authenticate(self, creds)\n"
    "_a.IMAPAuthenticator.authenticate = _xoauth2\n"
)
_RUN = "import runpy; runpy.run_module('mail_devel', run_name='__main__')\n"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def wait_for_port(port: int, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((HOST, port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"nothing listening on {HOST}:{port} after {timeout}s")


@dataclass
class LoopbackImap:
    """The IMAP side of a test server (mail-devel or Dovecot): its login, a separate client
    for it, and APPEND."""

    user: str = "test@example.org"
    password: str = "test-password"  # a throwaway credential for a loopback test server
    imap_port: int = field(default_factory=free_port)

    @property
    def host(self) -> str:
        return HOST

    def imap(self):  # type: ignore[no-untyped-def]
        """A separate, logged-in IMAP client (imapclient), as a user's own mail app."""
        from imapclient import IMAPClient

        client = IMAPClient(HOST, port=self.imap_port, ssl=False, timeout=10)
        client.login(self.user, self.password)
        return client

    def append(self, raw: bytes, folder: str = "INBOX", flags: tuple[bytes, ...] = ()) -> None:
        """Put one message straight into a folder (IMAP APPEND): fast bulk loading."""
        client = self.imap()
        try:
            client.append(folder, raw, flags=flags)
        finally:
            client.logout()


@dataclass
class MailServer(LoopbackImap):
    """Handle on a running mail-devel process; `user`/`password` log in to IMAP and SMTP."""

    smtp_port: int = field(default_factory=free_port)
    extra_args: tuple[str, ...] = ()
    keywords: bool = False  # True: the server keeps custom keywords (PERMANENTFLAGS \\*)
    xoauth2: bool = False  # True: IMAP also offers AUTH=XOAUTH2 (bearer token = password)
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> MailServer:
        boot = (_IDLE_BOOT + (_KEYWORD_BOOT if self.keywords else "")
                + (_XOAUTH2_BOOT if self.xoauth2 else "") + _RUN)
        args = [
            sys.executable, "-c", boot,
            "--host", HOST,
            "--user", self.user,
            "--password", self.password,
            "--imap-port", str(self.imap_port),
            "--smtp-port", str(self.smtp_port),
            "--no-http",
            *self.extra_args,
        ]
        self.process = subprocess.Popen(
            args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        try:
            wait_for_port(self.imap_port)
            wait_for_port(self.smtp_port)
        except TimeoutError:
            self.stop()
            raise
        return self

    def kill(self) -> None:
        """SIGKILL, as a crash: no goodbye to connected clients."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        self.process = None

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.process = None

    def restart(self) -> MailServer:
        self.kill()
        return self.start()

    def deliver(self, raw: bytes, sender: str = "sender@example.net") -> None:
        """Deliver one message through the server's SMTP port, as a remote MTA would."""
        import smtplib

        with smtplib.SMTP(HOST, self.smtp_port, timeout=10) as smtp:
            smtp.sendmail(sender, [self.user], raw)


@pytest.fixture
def mail_server() -> Iterator[MailServer]:
    server = MailServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def keyword_server() -> Iterator[MailServer]:
    """A server that keeps custom keywords, as Dovecot or Fastmail do (mail-devel as shipped
    drops them): for lane keywords, labels and snoozes."""
    server = MailServer(keywords=True).start()
    try:
        yield server
    finally:
        server.stop()
