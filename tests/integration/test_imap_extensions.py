"""Server extensions the test server does not offer (CONDSTORE, Gmail's X-GM-LABELS):
unit tests with a scripted client, next to the proof that the real server's path skips
them cleanly. (The real-server behaviour of sync is covered in test_imap_sync.py.)"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mailmoat.mail.imap import ServerFeatures
from mailmoat.mail.runner import open_client
from mailmoat.mail.sync import MailboxSync
from tests.support.imap_fixtures import make_message, make_setup, running
from tests.support.mailserver import MailServer


@pytest.fixture
def server() -> Iterator[MailServer]:
    with running(MailServer()) as started:
        yield started


class ScriptedServer:
    """Just enough IMAP for one folder, answering like a CONDSTORE (or Gmail) server."""

    def __init__(self, caps: tuple[bytes, ...], messages: dict[int, bytes]) -> None:
        self.caps = caps
        self.messages = messages
        self.flags: dict[int, tuple[bytes, ...]] = {uid: () for uid in messages}
        self.calls: list[tuple[str, Any]] = []

    def capabilities(self) -> tuple[bytes, ...]:
        return self.caps

    def enable(self, *what: str) -> list[str]:
        self.calls.append(("enable", what))
        return list(what)

    def folder_exists(self, folder: str) -> bool:
        return folder == "INBOX"

    def list_folders(self, directory: str = "", pattern: str = "*") -> list[tuple[Any, ...]]:
        return [((b"\\Noselect",), b"/", "")]

    def select_folder(self, folder: str, readonly: bool = False) -> dict[bytes, Any]:
        return {b"UIDVALIDITY": 7, b"UIDNEXT": max(self.messages) + 1,
                b"HIGHESTMODSEQ": 50 + len(self.calls), b"PERMANENTFLAGS": (b"\\*",)}

    def search(self, criteria: Any) -> list[int]:
        return sorted(self.messages)

    def fetch(self, uids: list[int], data: list[str], modifiers: Any = None) -> dict[int, Any]:
        self.calls.append(("fetch", (tuple(data), modifiers)))
        out: dict[int, dict[bytes, Any]] = {}
        for uid in uids:
            item: dict[bytes, Any] = {b"FLAGS": self.flags[uid]}
            if any(d.startswith("BODY.PEEK") for d in data):
                item[b"BODY[]<0>"] = self.messages[uid]
            out[uid] = item
        return out

    def add_gmail_labels(self, uids: list[int], labels: list[str], silent: bool = False) -> None:
        self.calls.append(("add_gmail_labels", (tuple(uids), tuple(labels))))

    def add_flags(self, uids: list[int], flags: list[bytes], silent: bool = False) -> None:
        self.calls.append(("add_flags", (tuple(uids), tuple(flags))))


def test_condstore_asks_only_for_changes_and_gmail_gets_labels(
    tmp_path: Path, server: MailServer
) -> None:
    setup = make_setup(tmp_path, server)
    scripted = ScriptedServer((b"IMAP4REV1", b"CONDSTORE", b"X-GM-EXT-1", b"MOVE"),
                              {1: make_message(1), 2: make_message(2)})
    syncer = MailboxSync(setup.store, setup.account)
    syncer.run_pass(scripted)  # type: ignore[arg-type]
    assert ("enable", ("CONDSTORE",)) in scripted.calls
    labels = [c for c in scripted.calls if c[0] == "add_gmail_labels"]
    assert labels and labels[0][1][1] == ("Moat/Queue",)
    assert not [c for c in scripted.calls if c[0] == "add_flags"], "keywords sent to Gmail"
    scripted.calls.clear()
    syncer.run_pass(scripted)  # type: ignore[arg-type]
    flag_fetches = [args[1] for name, args in scripted.calls
                    if name == "fetch" and args[0] == ("FLAGS",)]
    assert flag_fetches and all(m and m[0].startswith("CHANGEDSINCE ") for m in flag_fetches)


def test_real_server_without_condstore_skips_it_cleanly(tmp_path: Path,
                                                        server: MailServer) -> None:
    server.append(make_message(1))
    setup = make_setup(tmp_path, server)
    client = open_client(setup.store, setup.ring, setup.account)
    try:
        features = ServerFeatures.of(client)
        assert not features.condstore and not features.qresync and not features.gmail
        report = MailboxSync(setup.store, setup.account).run_pass(client)
        assert report.created == 1
        again = MailboxSync(setup.store, setup.account).run_pass(client)
        assert again.fetched == 0
    finally:
        client.logout()
