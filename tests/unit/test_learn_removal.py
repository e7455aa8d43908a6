"""Issue 16 bug 4: `rules remove` undoes everything the removed corrections taught, and the
learned scorer abstains until it has learned from 20 corrected messages (docs/learning.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mailmoat.core.lanes import Lane
from mailmoat.core.local_scorer import score_local
from mailmoat.core.message import message_from_fields, parse_message
from mailmoat.core.policy import Facts
from mailmoat.core.rules import CorrectionKind, Event, Scope, SenderKey, all_rules, standing
from mailmoat.core.signals import detect_signals
from mailmoat.entrypoints.cli.main import app
from mailmoat.learn.model import Labelled, LinearModel, _bucket, featurize
from mailmoat.learn.scorer import MIN_CORRECTIONS, LearnedScorer
from mailmoat.learn.service import Learning
from mailmoat.services.bootstrap import open_store
from mailmoat.store import Store
from tests.integration.test_learn_default import DEPLOY, default_store, deploy, trace
from tests.support.learn_mail import QUESTION, eml

runner = CliRunner()
ANN = "Ann <ann@acme.example>"


def _ann(n: int) -> bytes:
    return eml(ANN, f"Deploy window moved {n}", DEPLOY)


def test_a_removal_withdraws_the_keys_earlier_lane_changes_everywhere() -> None:
    ann = [Event(n, CorrectionKind.LANE_CHANGE, address="ann@acme.example", lane=Lane.PUSH)
           for n in (1, 2)]
    bob = Event(4, CorrectionKind.LANE_CHANGE, address="bob@acme.example", lane=Lane.PUSH)
    removal = Event(3, CorrectionKind.RULE_REMOVED,
                    target=SenderKey(Scope.ADDRESS, "ann@acme.example"))
    before = {r.key.value for r in all_rules([*ann])}
    assert before == {"ann@acme.example", "acme.example"}
    left = standing([*ann, removal, bob])
    assert [e.id for e in left] == [3, 4]  # Ann's two moves no longer count anywhere
    assert standing(left) == left  # reading it twice takes nothing more
    assert all_rules([*ann, removal, bob]) == []  # bob alone is one opinion


def test_removing_a_domain_rule_takes_back_its_addresses_moves_too() -> None:
    moves = [Event(n, CorrectionKind.LANE_CHANGE, address=a, lane=Lane.PUSH)
             for n, a in enumerate(["ann@acme.example"] * 2 + ["bob@acme.example"] * 2, 1)]
    moves.append(Event(5, CorrectionKind.LANE_CHANGE, address="cy@other.example",
                       lane=Lane.PUSH))
    assert {r.key.value for r in all_rules(moves)} == {
        "ann@acme.example", "bob@acme.example", "acme.example"}
    removal = Event(6, CorrectionKind.RULE_REMOVED, target=SenderKey(Scope.DOMAIN, "acme.example"))
    assert [e.id for e in standing([*moves, removal])] == [5, 6]  # another domain's stays
    assert all_rules([*moves, removal]) == []
    later = [Event(n, CorrectionKind.LANE_CHANGE, address="bob@acme.example", lane=Lane.QUEUE)
             for n in (7, 8)]
    assert {r.key.value for r in all_rules([*moves, removal, *later])} == {
        "bob@acme.example", "acme.example"}  # what comes after a removal counts


def test_cli_rules_remove_takes_the_domain_rule_with_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path / 'm.db'}"
    monkeypatch.setenv("MAILMOAT_DATABASE_URL", url)
    store = open_store(url)
    learn = Learning(store)
    for n in range(2):
        mid = store.ingest(eml(ANN, f"Draft {n}", QUESTION), "eml").message_id
        learn.correct(mid, "PUSH", "me")
    listed = json.loads(runner.invoke(app, ["rules", "list", "--json"]).output)
    assert sorted(r["key"] for r in listed["rules"]) == ["acme.example", "ann@acme.example"]

    removed = runner.invoke(app, ["rules", "remove", "ann@acme.example"])
    assert removed.exit_code == 0, removed.output
    assert "removed learned rule ann@acme.example -> PUSH" in removed.output
    assert "also gone (learned from the same corrections): acme.example -> PUSH" in \
        removed.output
    assert json.loads(runner.invoke(app, ["rules", "list", "--json"]).output)["rules"] == []
    shown = runner.invoke(app, ["rules", "show", "acme.example"])
    assert shown.exit_code == 0 and "learned rule: none" in shown.output
    assert runner.invoke(app, ["rules", "remove", "acme.example"]).exit_code == 2
    store = open_store(url)  # after a restart too
    colleague = store.ingest(eml("Bob <bob@acme.example>", "Draft", QUESTION), "eml")
    again = store.ingest(eml(ANN, "Draft 3", QUESTION), "eml")
    assert (colleague.lane, again.lane) == ("QUEUE", "QUEUE")
    assert Learning(store).facts("ann@acme.example").human_corrections == 0
    assert Learning(store).examples("ann@acme.example", "draft") == []  # no few-shot either
    # A new pair of corrections after the removal makes a rule again.
    for n in (4, 5):
        mid = store.ingest(eml(ANN, f"Draft {n}", QUESTION), "eml").message_id
        Learning(store).correct(mid, "PUSH", "me")
    assert {v.rule.key.value for v in Learning(store).rules()} == {
        "ann@acme.example", "acme.example"}


def _corrected_from(examples: list[Labelled], address: str) -> list[Labelled]:
    mark = _bucket(f"from:{address}")
    return [e for e in examples if mark in e.buckets]


def test_removed_corrections_never_train_the_learned_scorer_again(store_url: str) -> None:
    store, scorer = default_store(store_url)
    ann = [store.ingest(_ann(n), "eml").message_id for n in range(MIN_CORRECTIONS)]
    others = [store.ingest(deploy(n), "eml").message_id for n in range(MIN_CORRECTIONS)]
    learn = Learning(open_store(store_url))
    for mid in ann + others:
        learn.correct(mid, "PUSH", "sam")
    assert len(_corrected_from(learn.training_set(), "ann@acme.example")) == MIN_CORRECTIONS

    learn.remove_rule("ann@acme.example", "sam")
    examples = learn.training_set()
    assert _corrected_from(examples, "ann@acme.example") == []  # not even as read mail
    assert sum(e.corrected for e in examples) == MIN_CORRECTIONS  # the others still teach
    assert learn.rules() == []  # no address rule, and no domain rule citing Ann's moves

    # The live scorer retrains without them at its next look at the ledger.
    scorer.refresh()
    live = scorer.for_account("local")
    live.refresh()
    assert live.scorer.model.corrections == MIN_CORRECTIONS
    assert _bucket("from:ann@acme.example") not in live.scorer.model.weights



def test_after_rules_remove_anns_mail_is_judged_as_if_never_taught(store_url: str) -> None:
    """The issue's walk: enough moves of Ann's mail to PUSH for rules and the learned scorer
    to push it, then `rules remove ann@acme.example`."""
    store, _scorer = default_store(store_url)
    learn = Learning(open_store(store_url))
    for mid in [store.ingest(_ann(n), "eml").message_id for n in range(MIN_CORRECTIONS)]:
        learn.correct(mid, "PUSH", "sam")
    taught = trace(store, store.ingest(_ann(100), "eml").message_id)
    assert (taught["lane"], taught["source"]) == ("PUSH", "rule")

    learn.remove_rule("ann@acme.example", "sam")
    for sender in (ANN, "Bob <bob@acme.example>"):
        got = trace(store, store.ingest(eml(sender, "Deploy window moved 101", DEPLOY),
                                        "eml").message_id)
        assert (got["lane"], got["source"]) == ("QUEUE", "local"), sender


def _deploy_message(n: int) -> Labelled:
    message = parse_message(deploy(n))
    return Labelled(featurize(message, detect_signals(message)), Lane.PUSH, 3.0,
                    corrected=True)


def test_five_epochs_over_four_corrections_are_still_four() -> None:
    probe = message_from_fields(sender="new@gmail.com", subject="Deploy window moved",
                                body=DEPLOY)
    signals = detect_signals(probe)
    local = score_local(probe, signals)
    model = LinearModel()
    model.fit([_deploy_message(n) for n in range(4)], epochs=5, seed=0)
    assert model.updates == 20 and model.corrections == 4
    assert LearnedScorer(model).score(probe, signals, Facts()) == local  # abstains
    model.fit([_deploy_message(n) for n in range(MIN_CORRECTIONS - 1)], epochs=5, seed=0)
    assert LearnedScorer(model).score(probe, signals, Facts()) == local
    model.partial_fit([_deploy_message(99)])
    assert model.corrections == MIN_CORRECTIONS
    answered = LearnedScorer(model).score(probe, signals, Facts())
    assert answered.source == "learned" and "learned: PUSH" in answered.reason
    # Mail read and left alone teaches it, but does not count toward the 20.
    read = LinearModel()
    read.fit([Labelled(e.buckets, e.lane, 1.0) for e in
              (_deploy_message(n) for n in range(50))], epochs=5, seed=0)
    assert read.corrections == 0
    assert LearnedScorer(read).score(probe, signals, Facts()) == local


def _store_with_corrections(url: str, n: int) -> Store:
    store, _scorer = default_store(url)
    ids = [store.ingest(deploy(k), "eml").message_id for k in range(n)]
    learn = Learning(open_store(url))
    for mid in ids:
        learn.correct(mid, "PUSH", "sam")
    return default_store(url)[0]  # a restart: the first training reads them all at once


@pytest.mark.parametrize("corrected", [4, MIN_CORRECTIONS - 1, MIN_CORRECTIONS])
def test_the_live_scorer_answers_only_from_20_corrected_messages(
    tmp_path: Path, corrected: int
) -> None:
    store = _store_with_corrections(f"sqlite:///{tmp_path / 'm.db'}", corrected)
    got = trace(store, store.ingest(deploy(999), "eml").message_id)
    if corrected < MIN_CORRECTIONS:
        assert (got["lane"], got["source"]) == ("QUEUE", "local")
    else:
        assert (got["lane"], got["source"]) == ("PUSH", "learned")


def test_api_delete_rule_says_what_went_with_it(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from mailmoat.entrypoints.web.app import create_app
    from tests.support.webhelpers import make_user, sign_in

    store = open_store(f"sqlite:///{tmp_path / 'm.db'}")
    client = TestClient(create_app(store))
    make_user(store, "owner", ["local"])
    client.headers["X-CSRF-Token"] = sign_in(client, "owner")
    for n in range(2):
        mid = store.ingest(eml(ANN, f"Draft {n}", QUESTION), "eml").message_id
        assert client.post(f"/api/messages/{mid}/corrections",
                           json={"lane": "PUSH"}).status_code == 201
    gone = client.delete("/api/rules/ann@acme.example").json()
    assert gone["removed"]["key"] == "ann@acme.example"
    assert [(r["key"], r["lane"]) for r in gone["also_gone"]] == [("acme.example", "PUSH")]
    assert client.get("/api/rules").json()["rules"] == []
    assert client.delete("/api/rules/acme.example").status_code == 404
