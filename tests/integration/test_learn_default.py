"""The learned scorer on the default no-model path (services/bootstrap.py scorers_for): untrained it
is the local scorer exactly; it learns from corrections made by any process; it never hides
what the local scorer shows; with a model configured the cascade stays LLM -> local."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, update
from typer.testing import CliRunner

from mailmoat.accounts.secrets import load_key_ring
from mailmoat.core.lanes import HIDDEN_LANES
from mailmoat.core.local_scorer import score_local
from mailmoat.core.message import message_from_fields
from mailmoat.core.policy import Facts
from mailmoat.core.signals import detect_signals
from mailmoat.demo import demo_messages
from mailmoat.entrypoints.cli.main import app
from mailmoat.judge.cascade import classify
from mailmoat.judge.llm import LLMJudge
from mailmoat.learn.live import LiveLearnedScorer
from mailmoat.learn.service import Learning
from mailmoat.services.bootstrap import model_scorers, open_store, scorers_for
from mailmoat.store import Incoming, Store
from mailmoat.store.tables.messages import MessageRow
from tests.support.imap_fixtures import running
from tests.support.learn_mail import eml
from tests.support.mailserver import MailServer

runner = CliRunner()
NO_MODEL: dict[str, str] = {}
DEPLOY = "The deploy window moved to Thursday."


def deploy(n: int) -> bytes:
    # Distinct public-domain senders: no sender rule can form, only the model can learn.
    return eml(f"Dev {n} <dev{n}@gmail.com>", f"Deploy window moved {n}", DEPLOY)


def default_store(url: str) -> tuple[Store, LiveLearnedScorer]:
    store = open_store(url)
    store.scorers = scorers_for(store.engine, environ=NO_MODEL)
    scorer = store.scorers[0]
    assert isinstance(scorer, LiveLearnedScorer)
    scorer.refresh_s = 0.0  # look at the ledger before every message
    return store, scorer


def trace(store: Store, mid: int, account: str = "local") -> dict:  # type: ignore[type-arg]
    found = store.get_message(mid, account=account)
    assert found is not None
    return found["trace"]  # type: ignore[no-any-return]


def test_no_model_means_the_learned_scorer_and_a_model_keeps_llm_then_local(
    tmp_path: Path,
) -> None:
    engine = open_store(f"sqlite:///{tmp_path / 'm.db'}").engine
    plain = scorers_for(engine, environ=NO_MODEL)
    assert [type(s) for s in plain] == [LiveLearnedScorer] and model_scorers(plain) == []
    env = {"MAILMOAT_LLM_BASE_URL": "http://127.0.0.1:9/v1", "MAILMOAT_LLM_MODEL": "m"}
    with_model = scorers_for(engine, environ=env)
    assert [type(s) for s in with_model] == [LLMJudge] and model_scorers(with_model) == with_model
    down = classify(message_from_fields(sender="a@b.example", subject="hi", body="x"),
                    Facts(), with_model)
    assert down.source == "local:degraded" and down.degraded  # nothing listens on port 9


def test_untrained_it_decides_exactly_like_the_local_scorer(
    store_url: str, tmp_path: Path
) -> None:
    learned, _ = default_store(store_url)
    reference = open_store(f"sqlite:///{tmp_path / 'reference.db'}")  # no scorers: local
    batch = [Incoming(raw, "demo", folder="INBOX") for raw in demo_messages()]
    got = learned.ingest_many(batch)
    want = reference.ingest_many(batch)
    assert [trace(learned, r.message_id) for r in got] == \
        [trace(reference, r.message_id) for r in want]
    assert {trace(learned, r.message_id)["source"] for r in got} <= {"local", "rule", "pin"}


def test_it_learns_corrections_made_by_another_process(store_url: str) -> None:
    store, _ = default_store(store_url)
    first = [store.ingest(deploy(n), "eml") for n in range(20)]
    assert {r.lane for r in first} == {"QUEUE"}  # the static path keeps these calm
    assert {trace(store, r.message_id)["source"] for r in first} == {"local"}
    elsewhere = Learning(open_store(store_url))  # the web app, the CLI: another engine
    for r in first:
        elsewhere.correct(r.message_id, "PUSH", "sam")
    assert elsewhere.rules() == []  # one correction per sender: no rule, only the model

    fresh = store.ingest(deploy(99), "eml")
    assert fresh.lane == "PUSH"
    got = trace(store, fresh.message_id)
    assert got["source"] == "learned" and "learned: PUSH" in got["scorer_reason"]

    restarted = LiveLearnedScorer(open_store(store_url).engine)
    restarted.refresh()  # trains from the store from scratch, seed 0
    again = LiveLearnedScorer(open_store(store_url).engine)
    again.refresh()
    assert restarted.scorer.model.weights == again.scorer.model.weights  # deterministic
    assert restarted.scorer.model.weights == \
        Learning(open_store(store_url)).train_scorer(seed=0).model.weights


def test_an_undone_correction_is_unlearned(store_url: str) -> None:
    from mailmoat.store.repos import Repos

    store, scorer = default_store(store_url)
    first = [store.ingest(deploy(n), "eml") for n in range(20)]
    learning = Learning(open_store(store_url))
    for r in first:
        learning.correct(r.message_id, "PUSH", "sam")
    assert store.ingest(deploy(98), "eml").lane == "PUSH"
    web = Repos(open_store(store_url), sealer=load_key_ring())
    for r in first:
        assert web.decisions.undo(r.message_id, "local", "sam",
                                  also=lambda session, undone, m=r.message_id:
                                  learning.withdraw(session, m, undone, "sam")) == "QUEUE"
    after = store.ingest(deploy(99), "eml")  # the undos mean a retrain without them
    assert after.lane == "QUEUE"
    assert scorer.for_account("local").last_undo > 0


def test_corrections_toward_hidden_lanes_never_hide_on_the_live_path(store_url: str) -> None:
    store, scorer = default_store(store_url)
    ids = [store.ingest(deploy(n), "eml").message_id for n in range(25)]
    learn = Learning(open_store(store_url))
    for n, mid in enumerate(ids):
        learn.correct(mid, "SILENT" if n % 2 else "INFO", "sam")
    fresh = store.ingest(deploy(99), "eml")
    assert fresh.lane == "QUEUE"  # what the static path shows stays shown
    scorer.refresh()
    assert scorer.scorer.model.updates >= 25
    with store.sessions.begin() as session:  # read and left alone: teaches, never hides
        session.execute(update(MessageRow).values(seen=True))
    retrained = LiveLearnedScorer(store.engine)
    message = message_from_fields(sender="new@gmail.com", subject="Deploy window moved",
                                  body=DEPLOY)
    lane = classify(message, Facts(), [retrained]).decision.lane
    assert lane not in HIDDEN_LANES
    assert lane == classify(message, Facts()).decision.lane


def test_an_unreadable_store_leaves_the_local_scorer_deciding() -> None:
    broken = LiveLearnedScorer(create_engine("sqlite://"))  # no tables at all
    message = message_from_fields(sender="a@b.example", subject="Invoice", body="Paid.")
    signals = detect_signals(message)
    assert broken.score(message, signals, Facts()) == score_local(message, signals)


@pytest.fixture
def server() -> Iterator[MailServer]:
    with running(MailServer()) as started:
        yield started


def test_sync_learns_out_of_the_box(env: str, server: MailServer) -> None:
    """`mailmoat sync --once` against a real IMAP server, no model configured."""
    for n in range(20):  # it abstains until it has learned from 20 corrected messages
        server.append(deploy(n))
    for n in range(6):  # read and left where the firewall put them
        server.append(eml(f"Cook {n} <cook{n}@gmail.com>", f"Lunch menu {n}",
                          "Soup and bread today."), flags=(b"\\Seen",))
    added = runner.invoke(app, [
        "account", "add", "work", "--host", server.host, "--port", str(server.imap_port),
        "--user", server.user, "--tls", "plain", "--secret-stdin"], input=server.password + "\n")
    assert added.exit_code == 0, added.output
    synced = runner.invoke(app, ["sync", "--once"])
    assert synced.exit_code == 0, synced.output
    store = open_store(env)
    learn = Learning(store, account="work")
    with store.sessions() as session:
        rows = session.query(MessageRow.id, MessageRow.subject).all()
    assert len(rows) == 26
    for mid, subject in rows:
        assert trace(store, mid, "work")["source"] == "local"
        if subject.startswith("Deploy"):
            learn.correct(mid, "PUSH", "sam")

    server.append(deploy(99))
    server.append(eml("Cook 99 <cook99@gmail.com>", "Lunch menu 99", "Soup and bread today."))
    again = runner.invoke(app, ["sync", "--once"])
    assert again.exit_code == 0, again.output
    with store.sessions() as session:
        new = dict(session.query(MessageRow.subject, MessageRow.id)
                   .filter(MessageRow.subject.like("% 99")).all())
    pushed = trace(store, new["Deploy window moved 99"], "work")
    assert pushed["lane"] == "PUSH" and pushed["source"] == "learned"
    lunch = trace(store, new["Lunch menu 99"], "work")
    assert lunch["lane"] == "QUEUE"


def test_status_and_heal_do_not_mistake_it_for_a_model(tmp_path: Path) -> None:
    from mailmoat.entrypoints.cli.judge import start_heal_thread
    from mailmoat.entrypoints.web.views import status
    from mailmoat.store.repos import Repos

    store = open_store(f"sqlite:///{tmp_path / 'm.db'}")
    store.scorers = scorers_for(store.engine, environ=NO_MODEL)
    shown = status(store, Repos(store, sealer=load_key_ring()), "local", 0)
    assert shown["scorers"] == ["learned"]
    assert shown["scorer_health"] == "local scorer only (no model)"
    assert model_scorers(store.scorers) == []  # what `judge heal` and `up`'s sweep re-judge with
    assert start_heal_thread(store) is None  # no model: no heal sweep


def test_it_looks_at_the_ledger_at_most_every_refresh_interval(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'm.db'}"
    store = open_store(url)
    ids = [store.ingest(deploy(n), "eml").message_id for n in range(3)]
    now = [0.0]
    scorer = LiveLearnedScorer(store.engine, refresh_s=30.0, clock=lambda: now[0])
    probe = message_from_fields(sender="x@gmail.com", subject="Deploy window", body=DEPLOY)
    signals = detect_signals(probe)
    scorer.score(probe, signals, Facts())  # first use: trains on an empty history
    assert scorer.trained and scorer.scorer.model.updates == 0
    learn = Learning(open_store(url))
    for mid in ids:
        learn.correct(mid, "PUSH", "sam")
    now[0] = 29.0
    scorer.score(probe, signals, Facts())
    assert scorer.scorer.model.updates == 0  # not yet: one ledger query per interval
    now[0] = 30.0
    scorer.score(probe, signals, Facts())
    assert scorer.scorer.model.updates == 3 and scorer.last_correction == max(
        r["id"] for r in learn.corrections())
