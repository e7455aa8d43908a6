"""End to end: urgent mail delivered over SMTP, synced over IMAP, decided PUSH, notified once
through real Apprise to a loopback receiver; calm mail from the same pass notifies nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from mailmoat.accounts.secrets import load_key_ring
from mailmoat.mail.runner import sync_once
from mailmoat.notify.hook import NotifyOnArrival
from mailmoat.store.repos import Repos
from tests.integration.test_notify_dispatch import Receiver, configure
from tests.support.imap_fixtures import make_setup
from tests.support.mailserver import MailServer
from tests.support.webhelpers import live_server

URGENT = (b"From: ops@example.org\r\nTo: test@example.org\r\nSubject: Production is down\r\n"
          b"Message-ID: <down-1@example.org>\r\n\r\n"
          b"Production is down, please respond asap, customers cannot pay.\r\n")
CALM = (b"From: news@letters.example\r\nTo: test@example.org\r\nSubject: Weekly digest\r\n"
        b"Message-ID: <digest-1@letters.example>\r\n"
        b"List-Unsubscribe: <mailto:u@letters.example>\r\n\r\nThis week's reading list.\r\n")


@pytest.fixture
def receiver() -> Iterator[tuple[Receiver, str]]:
    rec = Receiver()
    with live_server(rec.app()) as server:
        yield rec, server.url


def test_synced_push_mail_notifies_once(tmp_path: Path, mail_server: MailServer,
                                        receiver: tuple[Receiver, str]) -> None:
    rec, url = receiver
    setup = make_setup(tmp_path, mail_server)
    web = Repos(setup.store, sealer=load_key_ring())
    configure(web, url)
    # The notifier reads the settings of the account the mail arrives on.
    web.settings.save("work", web.settings.get("local"))
    mail_server.deliver(URGENT)
    mail_server.deliver(CALM)

    hook = NotifyOnArrival(setup.store, "http://127.0.0.1:8025")
    report = sync_once(setup.store, setup.ring, setup.account, hook=hook)
    assert report.created == 2
    lanes = setup.store.lane_counts("work")
    assert lanes.get("PUSH") == 1
    assert len(rec.hooks) == 1
    assert "Production is down" in str(rec.hooks[0])

    # A second pass finds nothing new and sends nothing again.
    sync_once(setup.store, setup.ring, setup.account, hook=hook)
    assert len(rec.hooks) == 1

