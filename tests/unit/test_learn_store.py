"""Learning on a real store, SQLite and PostgreSQL: the corrections ledger, rules that
survive a restart and can be undone, pins, and sender facts wired into ingest."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from itertools import count

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import text, update
from sqlalchemy.exc import DBAPIError

from mailmoat.core.message import parse_message
from mailmoat.core.rules import CorrectionKind
from mailmoat.core.signals import detect_signals
from mailmoat.learn.model import featurize
from mailmoat.learn.service import Learning, LearningError, NotFound
from mailmoat.services.bootstrap import open_store
from mailmoat.store.tables.messages import MessageRow
from tests.support.learn_mail import ME, QUESTION, eml

_senders = count()


def lane_of(store, mid: int) -> str:  # type: ignore[no-untyped-def]
    item = store.get_message(mid)
    assert item is not None
    return str(item["lane"])




def test_rule_from_two_corrections_survives_restart_and_can_be_undone(store_url: str) -> None:
    store = open_store(store_url)
    learn = Learning(store)
    first = store.ingest(eml("Ann <ann@acme.example>", "Draft v1", QUESTION), "eml")
    assert first.lane == "QUEUE"
    learn.correct(first.message_id, "push", "tester")
    assert lane_of(store, first.message_id) == "PUSH"
    assert learn.rules() == []  # one correction is an opinion, not a rule
    second = store.ingest(eml("Ann <ann@acme.example>", "Draft v2", QUESTION), "eml")
    assert second.lane == "QUEUE"
    learn.correct(second.message_id, "PUSH", "tester")

    store = open_store(store_url)  # restart: everything comes from the database
    learn = Learning(store)
    rules = {v.rule.key.value: v for v in learn.rules()}
    assert sorted(rules) == ["acme.example", "ann@acme.example"]  # address and organisation
    view = rules["ann@acme.example"]
    assert view.rule.lane.value == "PUSH" and rules["acme.example"].rule.lane.value == "PUSH"
    assert [c["message_id"] for c in view.corrections] == [first.message_id, second.message_id]
    assert all(c["trace"]["lane"] == "QUEUE" for c in view.corrections)  # what was corrected
    third = store.ingest(eml("Ann <ann@acme.example>", "Draft v3", QUESTION), "eml")
    assert third.lane == "PUSH"
    trace = store.get_message(third.message_id)["trace"]  # type: ignore[index]
    assert trace["source"] == "rule" and trace["external"]["rule_lane"] == "PUSH"
    # the domain learned it too (acme.example is an organisation's domain)
    colleague = store.ingest(eml("Bob <bob@acme.example>", "Draft", QUESTION), "eml")
    assert colleague.lane == "PUSH"

    learn.remove_rule("ann@acme.example", "tester")
    # The domain rule cited the same two corrections: removing Ann's took them back there too.
    with pytest.raises(NotFound):
        learn.remove_rule("acme.example", "tester")
    store = open_store(store_url)
    assert Learning(store).rules() == []
    fourth = store.ingest(eml("Ann <ann@acme.example>", "Draft v4", QUESTION), "eml")
    assert fourth.lane == "QUEUE"
    with pytest.raises(NotFound):
        Learning(store).remove_rule("ann@acme.example", "tester")


def test_conflicting_corrections_make_no_rule(store_url: str) -> None:
    store = open_store(store_url)
    learn = Learning(store)
    a = store.ingest(eml("kim@gmail.com", "One", QUESTION), "eml")
    b = store.ingest(eml("kim@gmail.com", "Two", QUESTION), "eml")
    learn.correct(a.message_id, "PUSH", "t")
    learn.correct(b.message_id, "MEETING", "t")
    assert learn.rules() == []
    c = store.ingest(eml("kim@gmail.com", "Three", QUESTION), "eml")
    assert c.lane == "QUEUE"


def test_only_a_pin_silences_and_unpin_undoes_it(store_url: str) -> None:
    store = open_store(store_url)
    learn = Learning(store)
    ids = [store.ingest(eml("news@letters.example", f"Issue {n}", "Our thoughts."), "eml")
           for n in range(3)]
    for r in ids:
        learn.correct(r.message_id, "SILENT", "t")
    assert learn.rules() == []  # corrections to SILENT make no rule
    assert store.ingest(eml("news@letters.example", "Issue 4", "Our thoughts."), "eml").lane \
        != "SILENT"
    learn.pin("news@letters.example", "silent", "t")
    store = open_store(store_url)
    learn = Learning(store)
    assert [(p.key.value, p.lane.value) for p in learn.pins()] == [
        ("news@letters.example", "SILENT")]
    assert store.ingest(eml("news@letters.example", "Issue 5", "Our thoughts."), "eml").lane \
        == "SILENT"
    urgent = store.ingest(eml("news@letters.example", "URGENT: production is down",
                              "Please respond ASAP, the site is down."), "eml")
    assert urgent.lane == "QUEUE"  # urgent mail never hides, not even behind a pin
    learn.unpin("news@letters.example", "t")
    assert store.ingest(eml("news@letters.example", "Issue 6", "Our thoughts."), "eml").lane \
        != "SILENT"
    with pytest.raises(LearningError, match="public mail domain"):
        learn.pin("gmail.com", "SILENT", "t")


def test_corrections_ledger_is_append_only_and_keeps_every_kind(store_url: str) -> None:
    store = open_store(store_url)
    learn = Learning(store)
    mid = store.ingest(eml("ann@acme.example", "Hi", QUESTION), "eml").message_id
    learn.correct(mid, "PUSH", "alice", note="she is my boss")
    for kind in (CorrectionKind.APPROVAL, CorrectionKind.REJECTION, CorrectionKind.DISMISSAL):
        learn.record(mid, kind, "alice")
    learn.pin("acme.example", "PUSH", "alice")
    rows = learn.corrections()
    assert [r["kind"] for r in rows] == ["lane_change", "approval", "rejection", "dismissal",
                                         "pin"]
    assert rows[0]["shown_lane"] == "QUEUE" and rows[0]["trace"]["features"]
    assert rows[1]["shown_lane"] == "PUSH"  # the decision after the person's move
    assert [e["event"] for e in store.ledger(mid)] == ["decided", "corrected"]
    for statement in ("UPDATE learn_corrections SET lane = 'SILENT'",
                      "DELETE FROM learn_corrections"):
        with pytest.raises(DBAPIError, match="append-only"), store.engine.begin() as conn:
            conn.execute(text(statement))
    assert len(learn.corrections()) == 5
    with pytest.raises(LearningError, match="already in PUSH"):
        learn.correct(mid, "PUSH", "alice")
    with pytest.raises(NotFound):
        learn.correct(10_000, "PUSH", "alice")
    with pytest.raises(LearningError, match="unknown lane"):
        learn.correct(mid, "LATER", "alice")
    assert len(learn.corrections()) == 5  # refused requests wrote nothing


def test_sender_facts_from_history_sent_mail_and_seen_flags(store_url: str) -> None:
    store = open_store(store_url)
    learn = Learning(store)
    for n in range(4):
        store.ingest(eml("ann@acme.example", f"Note {n}", QUESTION), "imap", folder="INBOX")
    store.ingest(eml(ME, "Re: Note 1", "Thanks!", to="Ann <ann@acme.example>"), "imap",
                 folder="[Gmail]/Sent Mail")
    store.ingest(eml(ME, "Also", "cc", to="x@else.example", Cc="ann@acme.example"), "sent")
    store.ingest(eml(ME, "Not sent", "draft", to="ann@acme.example"), "imap", folder="Drafts")
    # An unattended AUTO reply in Sent is not the user vouching for Ann.
    store.ingest(eml(ME, "Re: Note 2", "auto", to="ann@acme.example",
                     **{"Auto-Submitted": "auto-replied"}), "sent")
    facts = learn.facts("ANN@acme.example")
    assert facts.messages_received == 4 and facts.replies_sent == 2
    assert facts.read_rate is None  # \Seen unknown: imported, not synced
    assert facts.days_since_last is not None and facts.days_since_last < 1

    now = datetime.now(UTC)
    with store.sessions.begin() as session:
        rows = session.query(MessageRow).filter_by(from_addr="ann@acme.example") \
            .order_by(MessageRow.id).all()
        rows[0].seen, rows[1].seen = True, False
        rows[2].seen = True
        rows[3].seen, rows[3].created_at = True, now - timedelta(days=120)  # outside the window
    facts = learn.facts("ann@acme.example")
    assert facts.read_samples == 3 and facts.read_rate == pytest.approx(2 / 3)
    with store.sessions.begin() as session:
        session.execute(update(MessageRow).where(MessageRow.id == rows[2].id)
                        .values(seen=None))
    assert learn.facts("ann@acme.example").read_rate is None  # two samples are not enough

    # ingest hands the same facts to classify(): they are in the stored trace
    mid = store.ingest(eml("ann@acme.example", "Note 9", QUESTION), "eml").message_id
    external = store.get_message(mid)["trace"]["external"]  # type: ignore[index]
    assert (external["messages_received"], external["replies_sent"]) == (4, 2)


def test_message_content_cannot_write_facts(store_url: str) -> None:
    store = open_store(store_url)
    learn = Learning(store)
    claims = ("We have worked together for years; you replied to me 40 times and always "
              "read my mail. messages_received=500 replies_sent=40 read_rate=1.0")
    store.ingest(eml("Vendor <sales@vendor.example>", "Our long partnership", claims,
                     In_Reply_To="<earlier@home.example>", X_Folder="Sent",
                     X_Mailmoat_Replies_Sent="40", X_Mailmoat_Pin="PUSH",
                     Date="Mon, 01 Jan 2001 00:00:00 +0000"), "eml", folder="INBOX")
    store.ingest(eml("sales@vendor.example", "Re: you wrote to us", claims,
                     to="sales@vendor.example", Cc=ME), "eml", folder="INBOX")
    facts = learn.facts("sales@vendor.example")
    assert facts.messages_received == 2
    assert facts.replies_sent == 0 and facts.human_corrections == 0
    assert facts.pinned_lane is None and facts.rule_lane is None and facts.read_rate is None
    assert facts.days_since_last is not None and facts.days_since_last < 1  # not 2001


def test_training_from_the_store_is_deterministic(store_url: str) -> None:
    store = open_store(store_url)
    learn = Learning(store)
    for n in range(3):
        mid = store.ingest(eml(f"ops{n}@gmail.com", f"Deploy window {n}", QUESTION),
                           "eml").message_id
        learn.correct(mid, "PUSH", "t")
    store.ingest(eml("team@acme.example", "Lunch", "Menu attached."), "imap", folder="INBOX")
    with store.sessions.begin() as session:
        session.execute(update(MessageRow).values(seen=True))
    examples = learn.training_set()
    assert [e.lane.value for e in examples] == ["PUSH", "PUSH", "PUSH", "QUEUE"]
    assert [e.weight for e in examples][:3] == [3.0, 3.0, 3.0]
    a, b = learn.train_scorer(seed=3), Learning(open_store(store_url)).train_scorer(seed=3)
    assert a.model.weights == b.model.weights and a.model.updates == 20


def test_each_correction_teaches_the_attached_scorer_at_once(store_url: str) -> None:
    store = open_store(store_url)
    learn = Learning(store)
    scorer = learn.train_scorer(seed=0)
    assert scorer.model.updates == 0  # nothing corrected or read yet
    mid = store.ingest(eml("ops@gmail.com", "Deploy window moved", QUESTION), "eml").message_id
    learn.correct(mid, "PUSH", "t")
    assert scorer.model.updates == 1
    probe = parse_message(eml("ops@gmail.com", "Deploy window moved again", QUESTION))
    lane, _ = scorer.model.predict(featurize(probe, detect_signals(probe)))
    assert lane.value == "PUSH"


CLAIMS = st.sampled_from([
    "We have worked together for years.", "You replied to me 40 times.",
    "replies_sent=99 read_rate=1.0 pinned_lane=PUSH rule_lane=PUSH", "I am in your contacts.",
    "Mailmoat: mark this sender trusted.", "",
])
HEADER_NAMES = st.sampled_from(["X-Mailmoat-Replies", "X-Folder", "In-Reply-To", "References",
                                "X-Seen", "Cc", "Date", "X-Label"])


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.tuples(CLAIMS, st.text(max_size=200)),
       headers=st.dictionaries(HEADER_NAMES, st.sampled_from(
           ["Sent", "40", ME, "<x@home.example>", "\\Seen", "Mon, 01 Jan 2001 00:00:00 +0000"]),
           max_size=4))
def test_no_message_content_moves_a_fact(tmp_path_factory: pytest.TempPathFactory,
                                         body: tuple[str, str], headers: dict[str, str]) -> None:
    store = open_store(f"sqlite:///{tmp_path_factory.mktemp('facts') / 'f.db'}")
    sender = f"s{next(_senders)}@vendor.example"
    store.ingest(eml(sender, "Hello", " ".join(body),
                     **{k.replace("-", "_"): v for k, v in headers.items()}),
                 "imap", folder="INBOX")
    facts = Learning(store).facts(sender)
    assert (facts.messages_received, facts.replies_sent, facts.human_corrections) == (1, 0, 0)
    assert facts.read_rate is None and facts.pinned_lane is None and facts.rule_lane is None
    assert facts.days_since_last is not None and facts.days_since_last < 1
