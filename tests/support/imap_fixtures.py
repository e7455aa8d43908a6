"""Helpers for the live-mailbox tests: a store with an account on the test server, test
messages, and a TCP proxy that can be cut and restored while the server keeps its mail."""

from __future__ import annotations

import contextlib
import socket
import ssl
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path

from mailmoat.accounts.registry import AccountSettings, add_account, get_account
from mailmoat.accounts.secrets import KeyRing, load_key_ring
from mailmoat.core.lane_actions import LaneActions
from mailmoat.services.bootstrap import open_store
from mailmoat.store import Store
from tests.support.mailserver import HOST, MailServer, free_port


def make_message(i: int, subject: str | None = None, sender: str = "friend@example.net",
                 body: str = "Hello, just a note.", days_ago: int = 0) -> bytes:
    when = datetime.now(UTC) - timedelta(days=days_ago, minutes=i)
    return (
        f"From: Friend {i} <{sender}>\r\n"
        f"To: test@example.org\r\n"
        f"Subject: {subject or f'note number {i}'}\r\n"
        f"Date: {format_datetime(when)}\r\n"
        f"Message-ID: <m{i}.{id(when)}@example.net>\r\n"
        f"\r\n{body} ({i})\r\n"
    ).encode()


def marketing(i: int) -> bytes:
    """A message the local scorer files SILENT: bulk marketing from an unknown sender."""
    when = datetime.now(UTC) - timedelta(minutes=i)
    return (
        f"From: Deals <deals@shop-offers.example>\r\n"
        f"To: test@example.org\r\n"
        f"Subject: 50% off everything this weekend only {i}\r\n"
        f"Date: {format_datetime(when)}\r\n"
        f"Message-ID: <promo{i}.{id(when)}@shop-offers.example>\r\n"
        f"List-Unsubscribe: <https://shop-offers.example/unsub>\r\n"
        f"Precedence: bulk\r\n"
        f"Content-Type: text/plain\r\n"
        f"\r\nHuge sale! Shop now, limited time offer, unsubscribe any time. {i}\r\n"
    ).encode()


@dataclass
class Setup:
    store: Store
    ring: KeyRing
    account: AccountSettings


def make_setup(tmp_path: Path, server: MailServer, *, name: str = "work",
               port: int | None = None, moves: bool = False, url: str | None = None,
               backfill_days: int = 30) -> Setup:
    store = open_store(url or f"sqlite:///{tmp_path / 'mailmoat.db'}")
    ring = load_key_ring(tmp_path / "secret.key")
    add_account(store, ring, AccountSettings(
        name=name, host=HOST, port=port or server.imap_port, username=server.user,
        tls="plain", lane_actions=LaneActions.with_moves() if moves else LaneActions(),
        backfill_days=backfill_days,
    ), server.password)
    return Setup(store, ring, get_account(store, name))


class Proxy:
    """Forwards a fixed loopback port to the server; `cut()` drops every connection and
    stops listening (the network goes away), `restore()` listens again on the same port.
    With `tls` (a server-side SSLContext) it terminates implicit TLS in front of the
    plain test server, as a TLS front end would."""

    def __init__(self, target_port: int, tls: ssl.SSLContext | None = None) -> None:
        self.target_port = target_port
        self.tls = tls
        self.port = free_port()
        self._listener: socket.socket | None = None
        self._conns: list[socket.socket] = []
        self._lock = threading.Lock()

    def restore(self) -> Proxy:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((HOST, self.port))
        listener.listen(16)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()
        return self

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        if self.tls is not None:
            try:
                client = self.tls.wrap_socket(client, server_side=True)
            except (OSError, ssl.SSLError):
                client.close()  # the client refused our certificate: nothing to forward
                return
        upstream = socket.create_connection((HOST, self.target_port))
        with self._lock:
            self._conns += [client, upstream]
        for a, b in ((client, upstream), (upstream, client)):
            threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        if self._listener is not None:
            with contextlib.suppress(OSError):  # wakes the thread blocked in accept()
                self._listener.shutdown(socket.SHUT_RDWR)
            self._listener.close()
            self._listener = None
        with self._lock:
            conns, self._conns = self._conns, []
        for conn in conns:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
            conn.close()


@contextlib.contextmanager
def running(server: MailServer) -> Iterator[MailServer]:
    server.start()
    try:
        yield server
    finally:
        server.stop()
