"""The heal sweep on a real store (SQLite and PostgreSQL) and a real HTTP model server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi import FastAPI, Request
from sqlalchemy import select

from mailmoat.accounts.secrets import load_key_ring
from mailmoat.judge.config import LLMConfig, ProviderConfig
from mailmoat.judge.heal import REJUDGED, heal
from mailmoat.judge.llm import LLMJudge
from mailmoat.judge.state import JudgeState, provider_key
from mailmoat.notify.dispatch import notify_account
from mailmoat.services.bootstrap import open_store
from mailmoat.store.messages import Incoming
from mailmoat.store.repos import Repos
from mailmoat.store.tables.messages import LedgerRow
from tests.support.llm_server import LLMServer, error, ok
from tests.support.webhelpers import live_server


@pytest.fixture(scope="module")
def server() -> Iterator[LLMServer]:
    with LLMServer() as running:
        yield running


def _raw(n: int) -> bytes:
    return (f"From: Ana <ana@corp.example>\r\nSubject: Status {n}\r\n\r\n"
            f"Update number {n}.\r\n").encode()


def test_heal_rejudges_untouched_degraded_decisions_only(server: LLMServer,
                                                         store_url: str) -> None:
    server.reset(lambda _: error(503, "down"))
    store = open_store(store_url)
    config = LLMConfig(providers=(ProviderConfig("p", server.base_url, ("m1",)),),
                       provider_backoff_s=0)
    judge = LLMJudge(config=config, state=JudgeState(store.engine))
    store.scorers = [judge]
    ids = [r.message_id for r in store.ingest_many([Incoming(_raw(n), "eml")
                                                    for n in range(5)])]
    assert all(store.get_message(i)["trace"]["degraded"] for i in ids)  # type: ignore[index]

    # A person corrects one degraded decision while the provider is down.
    corrected = store.get_message(ids[1])
    assert corrected is not None
    from mailmoat.core.message import parse_message
    from mailmoat.judge.cascade import classify

    trace = classify(parse_message(_raw(1)))
    store.record_decision(ids[1], trace, event="corrected", actor="alice")

    # Still down: the sweep stops at once and rewrites nothing.
    report = heal(store, [judge], batch=2)
    assert (report.rejudged, report.still_degraded) == (0, 1)

    # The provider recovers: bounded batches re-judge the rest through the model.
    server.reset(lambda _: ok(confidence=0.9, urgency=0.1, reason="recovered"))
    judge.state.clear(provider_key(judge.config.provider("p")))
    report = heal(store, [judge], batch=2, max_batches=1)
    assert report.rejudged == 2  # one batch of two
    report = heal(store, [judge], batch=2)
    assert report.rejudged == 2 and report.still_degraded == 0
    for mid in ids:
        message = store.get_message(mid)
        assert message is not None
        if mid == ids[1]:
            assert message["trace"]["source"] == "local"  # the person's decision stands
            assert store.ledger(mid)[-1]["actor"] == "alice"
        else:
            assert message["trace"]["source"] == "llm:m1"
            events = [e["event"] for e in store.ledger(mid)]
            assert events == ["decided", REJUDGED]  # a re-judge is never a new "decided"
    # Nothing left to heal; a second sweep asks the model nothing.
    asked = len(server.chat_requests())
    assert heal(store, [judge]).rejudged == 0
    assert len(server.chat_requests()) == asked
    with store.sessions() as session:
        decided = session.scalars(select(LedgerRow.event).where(LedgerRow.event == "decided"))
        assert len(list(decided)) == 5
    store.engine.dispose()


def test_up_runs_the_sweep_in_the_background(server: LLMServer, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import time

    from mailmoat.entrypoints.cli.judge import start_heal_thread

    server.reset(lambda _: error(503, "down"))
    store = open_store(f"sqlite:///{tmp_path / 'up.db'}")
    config = LLMConfig(providers=(ProviderConfig("p", server.base_url, ("m1",)),),
                       provider_backoff_s=0)
    store.scorers = [LLMJudge(config=config, state=JudgeState(store.engine))]
    (result,) = store.ingest_many([Incoming(_raw(1), "eml")])
    server.reset(lambda _: ok(confidence=0.9, urgency=0.1))
    stop = start_heal_thread(store, every_s=0.2)
    assert stop is not None
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            message = store.get_message(result.message_id)
            if message is not None and not message["trace"]["degraded"]:
                break
            time.sleep(0.1)
    finally:
        stop.set()
    assert message is not None and message["trace"]["source"] == "llm:m1"
    store.engine.dispose()


def test_heal_sweeps_every_account_each_for_its_own_user_and_facts(
    server: LLMServer, store_url: str
) -> None:
    """Degraded decisions of every mail account are re-judged, each billed to its account,
    with the sender facts ingest would read now (a pin set since wins over the model)."""
    from mailmoat.core.lanes import Lane
    from mailmoat.learn.service import Learning
    from mailmoat.store.tables.judge import LLMUsageRow

    server.reset(lambda _: error(503, "down"))
    store = open_store(store_url)
    config = LLMConfig(providers=(ProviderConfig("p", server.base_url, ("m1",)),),
                       provider_backoff_s=0)
    judge = LLMJudge(config=config, state=JudgeState(store.engine))
    store.scorers = [judge]
    found = {account: store.ingest_many([Incoming(_raw(n), "eml")], account=account)[0]
             for n, account in enumerate(("work", "home"))}
    pinned = store.ingest_many(
        [Incoming(b"From: news@shop.example\r\nSubject: Deals\r\n\r\nSale.\r\n", "eml")],
        account="home")[0]
    Learning(store, account="home").pin("news@shop.example", Lane.SILENT, actor="bob")

    server.reset(lambda _: ok(confidence=0.9, urgency=0.1, reason="recovered"))
    report = heal(store, [judge])
    assert (report.rejudged, report.still_degraded) == (3, 0)
    for account, result in found.items():
        message = store.get_message(result.message_id, account=account)
        assert message is not None and message["trace"]["source"] == "llm:m1"
    shop = store.get_message(pinned.message_id, account="home")
    assert shop is not None and (shop["trace"]["source"], shop["lane"]) == ("pin", "SILENT")
    with store.sessions() as session:
        billed = set(session.scalars(select(LLMUsageRow.user_id)
                                     .where(LLMUsageRow.outcome == "ok")))
    assert billed == {"work", "home"}
    store.engine.dispose()


def test_a_healed_decision_is_never_announced_twice(server: LLMServer, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Urgent mail decided while the model was down is notified once (real Apprise to a
    loopback receiver); healing it, and the notifier running again, sends nothing more."""
    hooks: list[dict[str, object]] = []
    receiver = FastAPI()

    @receiver.post("/hook")
    async def hook(request: Request) -> dict[str, str]:
        hooks.append(await request.json())
        return {"ok": "yes"}

    server.reset(lambda _: error(503, "down"))
    store = open_store(f"sqlite:///{tmp_path / 'notify.db'}")
    config = LLMConfig(providers=(ProviderConfig("p", server.base_url, ("m1",)),),
                       provider_backoff_s=0)
    judge = LLMJudge(config=config, state=JudgeState(store.engine))
    store.scorers = [judge]
    web = Repos(store, sealer=load_key_ring())
    # A whole mail, To included: a mail addressed to no one is a spam shape (core/evidence.py).
    urgent = (b"From: ops@example.org\r\nTo: me@example.org\r\n"
              b"Subject: outage again: urgent\r\n\r\n"
              b"Production is down, please respond asap, customers cannot pay.\r\n")
    with live_server(receiver) as live:
        web.settings.save("local", {"mode": "SUGGEST", "notify": {
            "apprise_urls": [f"json://{live.url.removeprefix('http://')}/hook"]}})
        (result,) = store.ingest_many([Incoming(urgent, "eml")])
        before = store.get_message(result.message_id)
        assert before is not None and before["trace"]["degraded"] and before["lane"] == "PUSH"
        assert notify_account(web, "local", live.url).sent == [result.message_id]

        server.reset(lambda _: ok(confidence=0.95, sender_trust=0.8, reversibility=0.2,
                                  urgency=0.95, reason="production outage"))
        assert heal(store, [judge]).rejudged == 1
        after = store.get_message(result.message_id)
        assert after is not None and after["trace"]["source"] == "llm:m1"
        assert after["lane"] == "PUSH", after["trace"]
        again = notify_account(web, "local", live.url)
        assert again.sent == [] and again.digest == []
    assert len(hooks) == 1
    store.engine.dispose()
