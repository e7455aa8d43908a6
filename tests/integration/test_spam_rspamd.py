"""The optional local spam engine: a real rspamd (Debian's), started by the test on a free
loopback port with its own config directory; its score is a fact the policy reads.
Skipped outside CI when rspamd is not installed; in CI (.ci/run installs it) it must run."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator

import pytest

from mailmoat.core.lanes import Lane
from mailmoat.core.message import parse_message
from mailmoat.core.policy import THRESHOLDS, Facts
from mailmoat.judge.cascade import classify
from mailmoat.spam.rspamd import RspamdClient, SpamEngineUnavailable, parse_reply
from mailmoat.spam.server import available, private_rspamd
from tests.conftest import IN_CI

# GTUBE: the standard test string every spam engine scores as spam.
GTUBE = "XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X"
SPAM = (f"From: Ops <ops@example.org>\nTo: dana@acme-corp.com\nSubject: Server down, call me "
        f"now\nMessage-ID: <g1@example.org>\nDate: Fri, 04 Dec 2026 04:00:00 +0000\n\n"
        f"The server is down and it is urgent: call me immediately.\n{GTUBE}\n").encode()
HAM = (b"From: Ops <ops@example.org>\nTo: dana@acme-corp.com\nSubject: Server down, call me "
       b"now\nMessage-ID: <g2@example.org>\nDate: Fri, 04 Dec 2026 04:00:00 +0000\n\n"
       b"The server is down and it is urgent: call me immediately.\n")


@pytest.fixture(scope="module")
def rspamd() -> Iterator[RspamdClient]:
    if not available():
        if IN_CI:
            pytest.fail("rspamd is not installed (CI=true: .ci/run installs it)")
        pytest.skip("rspamd is not installed: apt-get install -y rspamd")
    with private_rspamd() as client:
        yield client


def test_rspamd_scores_the_test_spam_and_the_policy_keeps_it_from_push(
        rspamd: RspamdClient) -> None:
    spam, ham = rspamd.check(SPAM), rspamd.check(HAM)
    assert spam.score >= THRESHOLDS.spam_engine_no_push > ham.score
    assert "GTUBE" in spam.symbols
    assert spam.action == "reject"
    # The same words: PUSH without the engine's verdict, not with it.
    message = parse_message(HAM)
    assert classify(message, Facts(spam_score=ham.score)).decision.lane is Lane.PUSH
    spammy = classify(parse_message(SPAM), Facts(spam_score=spam.score))
    assert spammy.decision.lane is Lane.QUEUE
    assert spammy.external.spam_score == spam.score


def test_classify_cli_reads_the_engine_score_as_a_fact(rspamd: RspamdClient, tmp_path,
                                                      monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from typer.testing import CliRunner

    from mailmoat.entrypoints.cli.main import app

    path = tmp_path / "gtube.eml"
    path.write_bytes(SPAM)
    monkeypatch.setenv("MAILMOAT_RSPAMD_URL", rspamd.url)
    result = CliRunner().invoke(app, ["classify", str(path), "--json"])
    assert result.exit_code == 0, result.output
    trace = json.loads(result.stdout)
    assert trace["external"]["spam_score"] >= THRESHOLDS.spam_engine_no_push
    assert trace["lane"] != "PUSH"


def test_a_missing_engine_is_a_clear_error_and_mailmoat_still_decides() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    client = RspamdClient(f"http://127.0.0.1:{port}", timeout=1.0)
    assert not client.ping()
    with pytest.raises(SpamEngineUnavailable, match="unreachable"):
        client.check(HAM)
    assert classify(parse_message(HAM)).decision.lane is Lane.PUSH  # no engine, no fact


def test_classify_cli_decides_when_the_engine_is_down(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from typer.testing import CliRunner

    from mailmoat.entrypoints.cli.main import app

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    path = tmp_path / "ham.eml"
    path.write_bytes(HAM)
    monkeypatch.setenv("MAILMOAT_RSPAMD_URL", f"http://127.0.0.1:{port}")
    result = CliRunner().invoke(app, ["classify", str(path), "--json"])
    assert result.exit_code == 0, result.output
    trace = json.loads(result.stdout)
    assert trace["external"]["spam_score"] is None and trace["lane"] == "PUSH"


@pytest.mark.parametrize("body", [b"", b"not json", b"[]", b'{"score": "high"}',
                                  b'{"score": NaN}', b'{"action": "reject"}'])
def test_a_malformed_reply_is_refused(body: bytes) -> None:
    with pytest.raises(SpamEngineUnavailable):
        parse_reply(body)


def test_a_reply_keeps_the_strongest_symbols() -> None:
    verdict = parse_reply(b'{"score": 7.5, "required_score": 15, "action": "add header", '
                          b'"symbols": {"A": {"score": 1.0}, "B": {"score": 5.0}, '
                          b'"C": {"score": -1.0}}}')
    assert (verdict.score, verdict.required_score, verdict.action) == (7.5, 15.0, "add header")
    assert verdict.symbols == ("B", "A")  # C counted for the mail


def test_the_engine_is_configured_by_url() -> None:
    assert RspamdClient.from_env({}) is None
    client = RspamdClient.from_env({"MAILMOAT_RSPAMD_URL": "http://127.0.0.1:11333/"})
    assert client is not None and client.url == "http://127.0.0.1:11333"


def test_ingest_asks_the_configured_engine_and_keeps_going_without_it(
        rspamd: RspamdClient, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Import and sync store mail through the same decider: with the engine configured its
    score is a fact in every stored trace; with the engine down the batch is still decided."""
    from mailmoat.services.bootstrap import open_store
    from mailmoat.services.ingest import CascadeDecider
    from mailmoat.store.messages import Incoming

    store = open_store(f"sqlite:///{tmp_path / 'm.db'}")
    store.decider = CascadeDecider(rspamd)
    spam, ham = store.ingest_many([Incoming(SPAM, "eml"), Incoming(HAM, "eml")], "local")
    assert (spam.lane, ham.lane) == ("QUEUE", "PUSH")
    stored = store.get_message(spam.message_id)
    assert stored is not None
    assert stored["trace"]["external"]["spam_score"] >= THRESHOLDS.spam_engine_no_push
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    store.decider = CascadeDecider(RspamdClient(f"http://127.0.0.1:{port}", timeout=1.0))
    (again,) = store.ingest_many([Incoming(SPAM + b"\n", "eml")], "local")
    assert again.lane  # decided without the engine
