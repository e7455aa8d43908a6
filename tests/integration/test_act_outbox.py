"""The outbox and the executor's state machine, on SQLite and PostgreSQL.

The transport here is a recording stand-in (these are unit tests of the state machine);
the same paths run against the real mail server in test_act_e2e.py and test_act_crash.py.
"""

from __future__ import annotations

import contextlib
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from mailmoat.act.errors import InvalidState, StaleApproval
from mailmoat.act.executor import Executor
from mailmoat.core.outbox import (
    Recovery,
    SentCopy,
    backoff_seconds,
    recover_unknown,
    sent_copy_state,
)
from mailmoat.core.receipts import PayloadError
from mailmoat.eval.agentdojo_bridge import MemorySent  # the Sent folder, in memory
from mailmoat.mail.smtp import OutcomeUnknown, PermanentError, TransientError
from mailmoat.store.tables.act import AuditRow, OutboxRow
from tests.support.act_support import Rig, rig, send_payload


@dataclass
class FakeTransport:
    from_addr: str = "me@example.org"
    server_files_sent: bool = False
    failures: list[Exception] = field(default_factory=list)  # raised by submit, in order
    submitted: list[bytes] = field(default_factory=list)
    sent: MemorySent = field(default_factory=MemorySent)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def submit(self, raw: bytes, recipient: str,
               before_data: Callable[[], None] | None = None) -> str:
        with self.lock:
            if self.failures and not isinstance(self.failures[0], OutcomeUnknown):
                raise self.failures.pop(0)
            if before_data is not None:
                before_data()
            if self.failures:
                raise self.failures.pop(0)
            self.submitted.append(raw)
        return "250 ok"

    @contextlib.contextmanager
    def sent_folder(self) -> Iterator[MemorySent]:
        yield self.sent

    def fetch(self, message_id: str, folder: str = "INBOX") -> bytes | None:
        return None

    def expunge(self, message_id: str, folder: str) -> int:
        return 0


class Clock:
    """The executor's clock, starting just after the (real-time) approvals it runs."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC) + timedelta(seconds=1)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def approved(r: Rig, n: int = 1) -> list[int]:
    ids = []
    for i in range(n):
        p = r.service.propose("acct", send_payload(subject=f"s{i}"), "sam", "api")
        r.service.approve(p["id"], "sam")
        ids.append(p["id"])
    return ids


def test_approval_enqueues_exactly_one_row_keyed_by_the_receipt(store_url: str) -> None:
    r = rig(store_url)
    [aid] = approved(r)
    with pytest.raises(InvalidState):
        r.service.approve(aid, "sam")  # a second approval adds nothing
    with r.service.sessions() as session:
        rows = list(session.scalars(select(OutboxRow)))
    assert len(rows) == 1 and len(rows[0].idempotency_key) == 64
    with pytest.raises(IntegrityError), r.service.sessions.begin() as session:
        session.execute(insert(OutboxRow).values(
            {c: getattr(rows[0], c) for c in ("action_id", "idempotency_key", "account",
             "action", "payload", "receipt", "message_id", "state", "attempts",
             "next_attempt_at", "last_error", "created_at")}))


def test_approval_is_refused_when_the_approver_saw_other_bytes(store_url: str) -> None:
    r = rig(store_url)
    p = r.service.propose("acct", send_payload(), "sam", "cli")
    r.service.edit(p["id"], send_payload(body="changed\n"), "mallory")
    with pytest.raises(StaleApproval):
        r.service.approve(p["id"], "sam", expected_sha256=p["payload_sha256"])


def test_bad_proposals_get_clear_errors_and_store_nothing(store_url: str) -> None:
    r = rig(store_url)
    bad = [
        send_payload(to="a@x.example, b@y.example"),
        send_payload(to="a@x.example\r\nBcc: b@y.example"),
        send_payload(subject="hi\nBcc: b@y.example"),
        {"action": "launch_missiles"},
        {"action": "archive", "message": 12345},  # no such stored message
        {"action": "archive", "message": True},
        {"action": "send_email", "to": "a@x.example", "subject": "s", "body": "b", "cc": "z"},
    ]
    for payload in bad:
        with pytest.raises(PayloadError):
            r.service.propose("acct", payload, "sam", "cli")
    assert r.service.list() == []


def test_two_executors_never_run_the_same_row(store_url: str) -> None:
    r = rig(store_url)
    approved(r, 12)
    transport = FakeTransport()
    executors = [Executor(r.store.engine, {"acct": transport}, worker=f"w{i}")
                 for i in range(3)]
    errors: list[BaseException] = []

    def drain(executor: Executor) -> None:
        try:
            executor.run_until_idle()
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    threads = [threading.Thread(target=drain, args=(e,)) for e in executors]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    ids = Counter(raw.split(b"Message-ID: ")[1].split(b"\r\n")[0] for raw in transport.submitted)
    assert len(ids) == 12 and set(ids.values()) == {1}


def test_transient_failures_retry_with_backoff_replaying_the_same_bytes(store_url: str) -> None:
    r = rig(store_url)
    [aid] = approved(r)
    clock = Clock()
    transport = FakeTransport(failures=[TransientError("451 try later"),
                                        TransientError("timeout")])
    executor = Executor(r.store.engine, {"acct": transport}, clock=clock, backoff_base=10)
    assert executor.run_once().state == "queued"  # type: ignore[union-attr]
    assert executor.run_once() is None  # not due yet: backoff
    clock.advance(10)
    assert executor.run_once().state == "queued"  # type: ignore[union-attr]
    clock.advance(10)
    assert executor.run_once() is None  # the second delay doubled
    clock.advance(10)
    assert executor.run_once().state == "done"  # type: ignore[union-attr]
    with r.service.sessions() as session:
        row = session.scalars(select(OutboxRow)).one()
    assert transport.submitted == [row.raw]  # exactly the stored bytes went out
    assert row.attempts == 3
    assert backoff_seconds(1, 10) == 10 and backoff_seconds(2, 10) == 20
    events = [e["event"] for e in r.service.audit_trail(aid)]
    assert events.count("retry_scheduled") == 2 and events[-1] == "executed"


def test_retries_give_up_into_the_dead_letter(store_url: str) -> None:
    r = rig(store_url)
    approved(r)
    clock = Clock()
    transport = FakeTransport(failures=[TransientError("451")] * 5)
    executor = Executor(r.store.engine, {"acct": transport}, clock=clock, max_attempts=3,
                        backoff_base=1)
    states = []
    for _ in range(5):
        outcome = executor.run_once()
        states.append(outcome.state if outcome else None)
        clock.advance(100)
    assert states[:3] == ["queued", "queued", "dead"] and transport.submitted == []


def test_permanent_refusal_is_dead_lettered_at_once(store_url: str) -> None:
    r = rig(store_url)
    approved(r)
    transport = FakeTransport(failures=[PermanentError("550 no such user")])
    outcomes = Executor(r.store.engine, {"acct": transport}).run_until_idle()
    assert [o.state for o in outcomes] == ["dead"]


def test_stored_bytes_tampered_between_attempts_are_refused(store_url: str) -> None:
    r = rig(store_url)
    approved(r)
    clock = Clock()
    transport = FakeTransport(failures=[TransientError("451")])
    executor = Executor(r.store.engine, {"acct": transport}, clock=clock, backoff_base=1)
    executor.run_once()
    with r.service.sessions.begin() as session:
        row = session.scalars(select(OutboxRow)).one()
        session.execute(update(OutboxRow).values(
            raw=row.raw.replace(b"Subject: s0", b"Subject: s1")))  # type: ignore[union-attr]
    clock.advance(5)
    outcome = executor.run_once()
    assert outcome is not None and outcome.state == "dead" and "PayloadMismatch" in outcome.detail
    assert transport.submitted == []


def test_a_row_without_a_receipt_is_refused_with_its_own_error(store_url: str) -> None:
    r = rig(store_url)
    approved(r)
    with r.service.sessions.begin() as session:
        session.execute(update(OutboxRow).values(receipt={}))
    transport = FakeTransport()
    [outcome] = Executor(r.store.engine, {"acct": transport}).run_until_idle()
    assert outcome.state == "dead" and "NoReceipt" in outcome.detail
    assert transport.submitted == []


def test_outcome_unknown_is_reconciled_before_any_retry(store_url: str) -> None:
    r = rig(store_url)
    approved(r)
    clock = Clock()
    transport = FakeTransport(server_files_sent=True,
                              failures=[OutcomeUnknown("connection lost during DATA")])
    executor = Executor(r.store.engine, {"acct": transport}, clock=clock)
    assert executor.run_once().state == "sending"  # type: ignore[union-attr]
    # Say the server did accept it: its filed copy carries our Message-ID.
    with r.service.sessions() as session:
        row = session.scalars(select(OutboxRow)).one()
    transport.sent.copies[row.message_id] = {"\\Seen"}
    clock.advance(1)
    outcome = executor.run_once()
    assert outcome is not None and outcome.state == "done" and "reconciled" in outcome.detail
    assert transport.submitted == []  # never re-sent


@pytest.mark.parametrize(("copy", "server_files_sent", "staged", "verdict"), [
    (SentCopy.FINAL, False, True, Recovery.DONE),
    (SentCopy.FINAL, True, False, Recovery.DONE),
    (SentCopy.SUBMITTING, False, True, Recovery.HOLD),  # DATA began: only a person can say
    (SentCopy.STAGED, False, True, Recovery.RETRY),  # DATA never began
    (SentCopy.ABSENT, False, True, Recovery.RETRY),  # staging comes before submission
    (SentCopy.ABSENT, True, False, Recovery.RETRY),  # the server files every acceptance
    (SentCopy.ABSENT, False, False, Recovery.HOLD),  # a row from before staging existed
])
def test_recovery_rule(copy: SentCopy, server_files_sent: bool, staged: bool,
                       verdict: Recovery) -> None:
    assert recover_unknown(copy, server_files_sent, staged) is verdict


def test_the_sent_copy_flags_say_how_far_a_send_got() -> None:
    assert sent_copy_state(None) is SentCopy.ABSENT
    assert sent_copy_state(frozenset({"\\Seen", "\\Draft"})) is SentCopy.STAGED
    assert sent_copy_state(frozenset({"\\Draft", "\\Flagged"})) is SentCopy.SUBMITTING
    assert sent_copy_state(frozenset({"\\Seen", "\\Flagged"})) is SentCopy.FINAL  # user's star
    assert sent_copy_state(frozenset()) is SentCopy.FINAL


def test_an_answer_lost_during_data_is_held_and_a_refusal_leaves_no_copy(
    store_url: str
) -> None:
    r = rig(store_url)
    approved(r, 2)
    clock = Clock()
    transport = FakeTransport(failures=[OutcomeUnknown("connection lost during DATA"),
                                        PermanentError("550 no such user")])
    executor = Executor(r.store.engine, {"acct": transport}, clock=clock)
    assert executor.run_once().state == "sending"  # type: ignore[union-attr]
    assert executor.run_once().state == "dead"  # type: ignore[union-attr]
    clock.advance(1)
    [held] = executor.run_until_idle()
    assert held.state == "dead" and "DATA began" in held.detail
    assert transport.submitted == []  # never re-sent
    assert list(transport.sent.copies.values()) == [{"\\Seen", "\\Draft", "\\Flagged"}]


def test_audit_trail_is_append_only(store_url: str) -> None:
    r = rig(store_url)
    approved(r)
    with pytest.raises(Exception, match="append-only"), r.service.sessions.begin() as s:
        s.execute(update(AuditRow).values(actor="someone else"))
    with pytest.raises(Exception, match="append-only"), r.service.sessions.begin() as s:
        s.execute(AuditRow.__table__.delete())


def test_reject_withdraws_a_queued_approval(store_url: str) -> None:
    r = rig(store_url)
    [aid] = approved(r)
    r.service.reject(aid, "sam", note="wrong recipient")
    transport = FakeTransport()
    assert Executor(r.store.engine, {"acct": transport}).run_until_idle() == []
    assert transport.submitted == []
    shown: dict[str, Any] = r.service.show(aid)
    assert shown["status"] == "rejected" and shown["outbox"]["state"] == "cancelled"
