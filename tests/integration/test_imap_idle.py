"""Continuous sync: a message delivered over SMTP while IDLE lands with its decision
within seconds; a dropped connection is re-established with backoff."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from mailmoat.mail.runner import run_forever
from tests.support.imap_fixtures import Proxy, make_message, make_setup, running
from tests.support.mailserver import MailServer


@pytest.fixture
def server() -> Iterator[MailServer]:
    with running(MailServer()) as started:
        yield started


def _wait_for(condition: Callable[[], bool], timeout: float) -> float:
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if condition():
            return time.monotonic() - start
        time.sleep(0.05)
    raise AssertionError(f"condition not met within {timeout}s")


def test_delivery_while_idle_lands_within_seconds(tmp_path: Path, server: MailServer) -> None:
    setup = make_setup(tmp_path, server)
    stop = threading.Event()
    # A long poll interval: only IDLE can make this fast.
    worker = threading.Thread(target=run_forever, args=(setup.store, setup.ring, setup.account,
                                                        stop), kwargs={"poll_seconds": 120})
    worker.start()
    try:
        time.sleep(1.5)  # let the watcher finish its first pass and enter IDLE
        server.deliver(make_message(1, subject="urgent: are you there?"))
        took = _wait_for(lambda: sum(setup.store.lane_counts("work").values()) == 1, 10)
        assert took < 5, f"arrival took {took:.2f}s"
        message = setup.store.list_messages(next(iter(setup.store.lane_counts("work"))),
                                            account="work")[0]
        assert message["subject"] == "urgent: are you there?" and message["reason"]
    finally:
        stop.set()
        worker.join(timeout=10)
    assert not worker.is_alive()


def test_reconnects_with_backoff_after_the_connection_drops(tmp_path: Path,
                                                            server: MailServer) -> None:
    proxy = Proxy(server.imap_port).restore()
    setup = make_setup(tmp_path, server, port=proxy.port)
    stop = threading.Event()
    worker = threading.Thread(target=run_forever, args=(setup.store, setup.ring, setup.account,
                                                        stop),
                              kwargs={"poll_seconds": 2, "max_backoff": 1})
    worker.start()
    try:
        server.deliver(make_message(1))
        _wait_for(lambda: setup.store.count("work") == 1, 10)
        proxy.cut()
        server.deliver(make_message(2, subject="sent while we were away"))
        time.sleep(1.5)  # at least one failed reconnect attempt
        assert setup.store.count("work") == 1
        proxy.restore()
        _wait_for(lambda: setup.store.count("work") == 2, 15)
    finally:
        stop.set()
        worker.join(timeout=10)
        proxy.cut()


def test_polling_when_the_server_has_no_idle(tmp_path: Path, server: MailServer,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses

    from mailmoat.mail import runner
    from mailmoat.mail.imap import ServerFeatures

    real = ServerFeatures.of
    monkeypatch.setattr(runner.ServerFeatures, "of",
                        staticmethod(lambda c: dataclasses.replace(real(c), idle=False)))
    setup = make_setup(tmp_path, server)
    stop = threading.Event()
    worker = threading.Thread(target=run_forever, args=(setup.store, setup.ring, setup.account,
                                                        stop), kwargs={"poll_seconds": 1})
    worker.start()
    try:
        time.sleep(0.5)
        server.deliver(make_message(1, subject="found by polling"))
        _wait_for(lambda: setup.store.count("work") == 1, 10)
    finally:
        stop.set()
        worker.join(timeout=10)


def test_mail_delivered_during_a_pass_is_not_left_for_the_next_poll(
        tmp_path: Path, server: MailServer) -> None:
    """IDLE reports only what happens while it runs. A message delivered while a pass was
    already past its search would otherwise wait for the next delivery or the poll."""
    from mailmoat.mail.ingress import Arrival

    class DeliverDuringThePass:
        def __init__(self) -> None:
            self.delivered = False

        def on_decided(self, arrival: Arrival) -> None:
            if not self.delivered:  # the first pass is storing the first message
                self.delivered = True
                server.deliver(make_message(2, subject="arrived mid-pass"))

    server.append(make_message(1, subject="already there"))
    setup = make_setup(tmp_path, server)
    hook = DeliverDuringThePass()
    stop = threading.Event()
    worker = threading.Thread(target=run_forever, args=(setup.store, setup.ring, setup.account,
                                                        stop),
                              kwargs={"poll_seconds": 120, "hook": hook})
    worker.start()
    try:
        _wait_for(lambda: hook.delivered, 10)
        took = _wait_for(lambda: setup.store.count("work") == 2, 10)
        assert took < 5, f"the mid-pass arrival took {took:.2f}s"
    finally:
        stop.set()
        worker.join(timeout=10)
    assert not worker.is_alive()
