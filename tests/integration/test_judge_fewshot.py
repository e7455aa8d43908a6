"""Few-shot corrections in the judge's prompt: the pure lane -> numbers mapping, and the
wiring from the learn store, per mail account, into the LLM scorer (scripted server)."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mailmoat.core.fewshot import IMPLIED, Example, implied_features, model_examples
from mailmoat.core.lanes import HIDDEN_LANES, Lane
from mailmoat.core.policy import decide
from mailmoat.core.signals import Signals
from mailmoat.judge.config import LLMConfig, ProviderConfig
from mailmoat.learn.service import Learning
from mailmoat.services.bootstrap import build_judge, open_store
from mailmoat.store.messages import Incoming, Store
from tests.support.llm_server import LLMServer, Recorded, ok

SIGNAL_NAMES = tuple(Signals.__dataclass_fields__)
ALL_SIGNALS = [Signals(**dict(zip(SIGNAL_NAMES, bits, strict=True)))
               for bits in itertools.product((False, True), repeat=len(SIGNAL_NAMES))]
VISIBLE = [lane for lane in Lane if lane not in HIDDEN_LANES]


def test_every_lane_has_numbers_that_land_in_it() -> None:
    assert set(IMPLIED) == set(Lane)
    plain, meeting, receipt = Signals(), Signals(scheduling=True), Signals(transactional=True)
    assert decide(implied_features(Lane.PUSH), plain).lane is Lane.PUSH
    assert decide(implied_features(Lane.QUEUE), plain).lane is Lane.QUEUE
    assert decide(implied_features(Lane.QUEUE), receipt).lane is Lane.QUEUE
    assert decide(implied_features(Lane.MEETING), meeting).lane is Lane.MEETING
    assert decide(implied_features(Lane.INFO), receipt).lane is Lane.INFO
    assert decide(implied_features(Lane.SILENT), plain).lane is Lane.SILENT


@pytest.mark.parametrize("lane", VISIBLE)
def test_a_visible_lane_s_numbers_never_hide_mail_whatever_the_signals(lane: Lane) -> None:
    for signals in ALL_SIGNALS:
        assert decide(implied_features(lane), signals).lane not in HIDDEN_LANES, signals


@given(st.lists(st.tuples(st.sampled_from(list(Lane)), st.sampled_from(list(Lane))),
                max_size=12), st.integers(0, 8))
def test_only_corrections_toward_visible_lanes_reach_a_model(
    moves: list[tuple[Lane, Lane]], limit: int
) -> None:
    examples = [Example(n, "a@x.example", f"s{n}", "", shown, lane)
                for n, (shown, lane) in enumerate(moves)]
    picked = model_examples(examples, limit)
    assert all(e.corrected_lane not in HIDDEN_LANES for e in picked)
    expected = [e for e in examples if e.corrected_lane not in HIDDEN_LANES][:limit]
    assert picked == expected  # selection order kept, cut after filtering


def test_a_recurring_correction_is_shown_once_and_makes_room_for_the_next() -> None:
    same = [Example(n, "Alerts@Bank.example", "Login alert", "", Lane.QUEUE, Lane.PUSH)
            for n in range(4)]
    other = Example(9, "alerts@bank.example", "Statement ready", "", Lane.INFO, Lane.QUEUE)
    moved = Example(8, "alerts@bank.example", "Login alert", "", Lane.PUSH, Lane.QUEUE)
    assert model_examples([*same, moved, other]) == [same[0], moved, other]


# -- wired from the learn store, per account, through a real HTTP model server ---------------


@pytest.fixture(scope="module")
def server() -> Iterator[LLMServer]:
    with LLMServer() as running:
        yield running


def _raw(sender: str, subject: str, body: str = "Details inside.") -> bytes:
    return f"From: {sender}\r\nSubject: {subject}\r\n\r\n{body}\r\n".encode()


def _ratings(request: Recorded) -> list[dict[str, float]]:
    user = request.json["messages"][1]["content"]
    if "The user's ratings of them:" not in user:
        return []
    lines = user.split("The user's ratings of them:\n", 1)[1].split("\n\n", 1)[0]
    return [json.loads(line.split(": ", 1)[1]) for line in lines.splitlines()]


def _store(server: LLMServer, tmp_path: Path) -> Store:
    store = open_store(f"sqlite:///{tmp_path / 'fewshot.db'}")
    config = LLMConfig(providers=(ProviderConfig("p", server.base_url, ("m1",)),))
    judge = build_judge(store.engine, config, environ={})
    assert judge is not None
    store.scorers = [judge]
    return store


def test_the_judge_is_shown_the_account_s_own_corrections_as_numbers(
    server: LLMServer, tmp_path: Path
) -> None:
    server.reset(lambda _: ok(confidence=0.9, urgency=0.1))
    store = _store(server, tmp_path)
    boss = "Boss <boss@corp.example>"
    work = [r.message_id for r in store.ingest_many(
        [Incoming(_raw(boss, f"Board deck {n}"), "eml") for n in range(3)], account="work")]
    (home,) = [r.message_id for r in store.ingest_many(
        [Incoming(_raw(boss, "Board deck at home"), "eml")], account="home")]
    learning = Learning(store, account="work")
    learning.correct(work[0], Lane.PUSH, actor="alice")
    learning.correct(work[1], Lane.SILENT, actor="alice")  # hiding: never shown to a model
    Learning(store, account="home").correct(home, Lane.MEETING, actor="bob")

    server.reset(lambda _: ok(confidence=0.9, urgency=0.1))
    store.ingest(_raw(boss, "Board deck 9", "New numbers."), "eml", account="work")
    store.ingest(_raw(boss, "Board deck 9", "New numbers."), "eml", account="home")
    work_call, home_call = server.chat_requests()
    assert _ratings(work_call) == [IMPLIED[Lane.PUSH].as_dict()]  # work's, not home's
    assert _ratings(home_call) == [IMPLIED[Lane.MEETING].as_dict()]
    user = work_call.json["messages"][1]["content"]
    assert "Board deck 0" in user and "Board deck 1" not in user
    assert "1 (same sender): {" in user
    for lane in Lane:  # the corrections' lanes travel as numbers only
        assert lane.value not in user
    store.engine.dispose()


def test_no_corrections_means_no_examples_and_a_broken_source_costs_only_the_examples(
    server: LLMServer, tmp_path: Path
) -> None:
    server.reset(lambda _: ok(confidence=0.9, urgency=0.1))
    store = _store(server, tmp_path)
    store.ingest(_raw("a@b.example", "hello"), "eml", account="work")
    assert "rated by hand" not in server.chat_requests()[0].prompt_text

    def broken(account: str, message: object) -> list[Example]:
        raise RuntimeError("learn store unavailable")

    store.scorers[0].examples = broken  # type: ignore[attr-defined]
    result = store.ingest(_raw("a@b.example", "hello again"), "eml", account="work")
    message = store.get_message(result.message_id, account="work")
    assert message is not None and message["trace"]["source"] == "llm:m1"
    store.engine.dispose()
