"""The messages repository: save new messages with the decisions a Decider gives them
(services/ingest.py), record later decisions, list lanes, read one back.

Every write of a decision also appends to the decision ledger, in the same transaction.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

from sqlalchemy import Engine, func, insert, or_, select, text, true
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from mailmoat.core.facts import SENT_ORIGIN, is_own_mail, is_sent
from mailmoat.core.hashing import is_stale
from mailmoat.core.message import Message, parse_message, parse_message_with_html
from mailmoat.core.trace import Trace
from mailmoat.store.db import StoreError, make_engine, migrate
from mailmoat.store.tables.messages import DecisionRow, LedgerRow, MessageRow, table_of

SYSTEM = "system"
# A parsed message and what it reads as on its own (the judge's Perception: the store only
# carries it from the caller to the decider).
Prepared = tuple[Message, Any]


class Decider(Protocol):
    """What decides a new message's lane while the store saves it: services/ingest.py's
    cascade (parse -> sender facts -> classify). The store persists; it never decides, so it
    is handed one. Both calls run inside the store's write transaction."""

    def decide(self, session: Session, account: str,
               todo: Sequence[tuple[Message, Any]], scorers: Sequence[Any],
               now: datetime, spam_scores: Sequence[float | None] = (),
               raws: Sequence[bytes] = ()) -> list[dict[str, Any]]:
        """One trace (`Trace.as_dict()`) per (message, perception or None); `spam_scores`,
        when given, holds a spam engine score the caller already has per message (None: not
        asked), and `raws` the exact bytes, for a decider that asks the engine itself."""
        ...

    def after_save(self, session: Session, account: str,
                   sent: Sequence[tuple[int, Message]]) -> None:
        """Called with the new messages the user sent (their ids and parsed form)."""
        ...


def content_sha256(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


@dataclass(frozen=True, slots=True)
class Incoming:
    raw: bytes
    origin: str
    folder: str | None = None
    labels: tuple[str, ...] = ()
    # The account's own addresses: mail From one of them outside the inbox is the user's
    # own (core.facts.is_own_mail), stored but not judged.
    own_addresses: frozenset[str] = frozenset()
    # The local spam engine's score for these bytes (spam/rspamd.py), when the caller asked
    # it: handed to the policy as `Facts.spam_score`. The store never asks the engine.
    spam_score: float | None = None


@dataclass(frozen=True, slots=True)
class IngestResult:
    message_id: int
    created: bool
    lane: str
    # The new message's subject and sender, for the arrival notification (created only).
    subject: str = ""
    sender: str = ""
    # The user's own mail (core.facts.is_own_mail): stored without a decision, `lane` "".
    own: bool = False


def _now() -> datetime:
    return datetime.now(UTC)


def _decision_values(
    message_id: int, account: str, d: dict[str, Any], now: datetime
) -> dict[str, Any]:
    """The decisions row for a trace already in dict form (`Trace.as_dict()`)."""
    return {
        "message_id": message_id,
        "account": account,
        "lane": d["lane"],
        "reason": d["reason"],
        "auto_eligible": d["auto_eligible"],
        "branch": d["branch"],
        "policy_version": d["policy_version"],
        "source": d["source"],
        "input_hash": d["input_hash"],
        "degraded": d["degraded"],
        "trace": d,
        "actor": SYSTEM,
        "updated_at": now,
    }


def _ledger_values(
    mid: int, event: str, d: dict[str, Any], actor: str, now: datetime
) -> dict[str, Any]:
    return {"message_id": mid, "event": event, "lane": d["lane"], "trace": d, "actor": actor,
            "created_at": now}


def _decision_row(message_id: int, account: str, trace: Trace, now: datetime) -> DecisionRow:
    return DecisionRow(**_decision_values(message_id, account, trace.as_dict(), now))


class Store:
    def __init__(self, engine: Engine, scorers: Sequence[Any] = (),
                 decider: Decider | None = None) -> None:
        self.engine = engine
        self.sessions = sessionmaker(engine, expire_on_commit=False)
        # The scorers the decider asks (judge.cascade.Scorer); the store only holds them.
        self.scorers: Sequence[Any] = scorers
        self.decider = decider

    # -- writes ---------------------------------------------------------------------------

    def ingest(
        self,
        raw: bytes,
        origin: str,
        folder: str | None = None,
        account: str = "local",
        labels: tuple[str, ...] = (),
    ) -> IngestResult:
        return self.ingest_many([Incoming(raw, origin, folder, labels)], account)[0]

    def ingest_many(
        self,
        batch: Iterable[Incoming],
        account: str = "local",
        prepared: Sequence[Prepared] | None = None,
    ) -> list[IngestResult]:
        """Parse, decide and store a batch in one transaction; idempotent on content hash.

        `prepared` (one per item: `parse_message(item.raw, labels=item.labels)` and its
        `perceive`) lets a caller do that CPU work elsewhere, for example in a process pool
        while it fetches the next batch."""
        items = list(batch)
        if prepared is not None and len(prepared) != len(items):
            raise ValueError(f"{len(prepared)} prepared messages for {len(items)} items")
        try:
            return self._ingest(items, account, prepared)
        except IntegrityError:
            # Another writer stored one of these meanwhile: go one by one, each re-checked.
            return [r for i, item in enumerate(items)
                    for r in self._ingest([item], account,
                                         None if prepared is None else [prepared[i]])]

    def _ingest(self, items: list[Incoming], account: str,
                prepared: Sequence[Prepared] | None) -> list[IngestResult]:
        hashes = [content_sha256(i.raw) for i in items]
        now = _now()
        with self.sessions.begin() as session:
            known = self._existing(session, account, hashes)
            todo: dict[str, tuple[Incoming, Message]] = {}
            perceived: dict[str, Any] = {}
            for n, (item, digest) in enumerate(zip(items, hashes, strict=True)):
                if digest in known or digest in todo:
                    continue
                if prepared is None:
                    todo[digest] = (item, parse_message(item.raw, labels=item.labels))
                else:
                    todo[digest] = (item, prepared[n][0])
                    perceived[digest] = prepared[n][1]
            # The user's own mail is stored (sender history reads it) but never judged: no
            # scorer, no decision, no lane, so nothing downstream acts on it (core.facts rule).
            own = {digest for digest, (item, message) in todo.items()
                   if is_own_mail(item.origin, item.folder, item.labels, message.from_addr,
                                  item.own_addresses)}
            judged = [d for d in todo if d not in own]
            decided = self._decider().decide(
                session, account, [(todo[d][1], perceived.get(d)) for d in judged],
                self.scorers, now, [todo[d][0].spam_score for d in judged],
                [todo[d][0].raw for d in judged])
            traces: dict[str, dict[str, Any]] = dict(zip(judged, decided, strict=True))
            # Core bulk inserts on the tables (the ORM's bulk path costs more per row than
            # the insert itself), one statement per table. The new ids come back in no
            # particular order (asking SQLAlchemy for parameter order makes SQLite insert
            # row by row), so each is matched to its message by content hash, unique here.
            ids: dict[str, int] = {}
            if todo:
                streamed = _streams_blobs(session)
                ids = dict((digest, mid) for mid, digest in session.execute(
                    insert(table_of(MessageRow)).returning(
                        MessageRow.__table__.c.id, MessageRow.__table__.c.content_sha256),
                    [self._message_values(item, message, digest, account, now, streamed)
                     for digest, (item, message) in todo.items()],
                ))
                if streamed:
                    _write_big_raws(session, [(ids[digest], item.raw)
                                              for digest, (item, _m) in todo.items()])
            if traces:
                session.execute(insert(table_of(DecisionRow)), [
                    _decision_values(ids[digest], account, d, now)
                    for digest, d in traces.items()])
                session.execute(insert(table_of(LedgerRow)), [
                    _ledger_values(ids[digest], "decided", d, SYSTEM, now)
                    for digest, d in traces.items()])
            self._decider().after_save(session, account, [
                (ids[digest], message) for digest, (item, message) in todo.items()
                if is_sent(item.origin, item.folder, tuple(item.labels))])
        results: list[IngestResult] = []
        reported: set[str] = set()
        for digest in hashes:
            if digest in ids:
                # The same bytes twice in one batch: only the first one is new.
                message = todo[digest][1]
                lane = traces[digest]["lane"] if digest in traces else ""
                results.append(IngestResult(ids[digest], digest not in reported, lane,
                                            message.subject, message.from_addr[:500],
                                            own=digest not in traces))
                reported.add(digest)
            else:
                mid, lane = known[digest]
                results.append(IngestResult(mid, False, lane or "", own=lane is None))
        return results

    def undecided(self, account: str, own_addresses: frozenset[str] = frozenset()) -> list[int]:
        """This account's stored messages that have no decision and are not the user's own
        mail (core.facts.is_own_mail, the rule ingest applies), oldest first. Ingest stores
        a message and its decision in one transaction, so these exist only when the rule
        said "own mail" then and says otherwise now (an inbox once taken for a Sent folder):
        `decide_late` gives them their decision. Asked on every sync pass: mail found in a
        Sent folder (origin `sent` outside the inbox) is own mail by that rule and is left
        out in SQL, so the common answer is one anti-join over a few rows."""
        message, decision = MessageRow.__table__.c, DecisionRow.__table__.c
        decided = select(decision.message_id).where(decision.message_id == message.id)
        with self.sessions() as session:
            rows = session.execute(
                select(message.id, message.origin, message.folder, message.labels,
                       message.from_addr)
                .where(message.account == account, ~decided.exists(),
                       or_(message.origin != SENT_ORIGIN,
                           func.lower(func.trim(message.folder)) == "inbox"))
                .order_by(message.id))
            return [mid for mid, origin, folder, labels, from_addr in rows
                    if not is_own_mail(origin, folder, tuple(labels or ()), from_addr or "",
                                       own_addresses)]

    def decide_late(self, account: str, message_ids: Sequence[int],
                    own_addresses: frozenset[str] = frozenset()) -> list[int]:
        """Give stored, undecided messages (`undecided`) their first decision, in one
        transaction, exactly as ingest would have: the store's Decider decides
        (services/ingest.py), the store writes the decision and its ledger row ("decided").
        The user's own mail among them (core.facts.is_own_mail) and mail decided meanwhile
        are skipped; if another writer decides one of them while this runs, nothing is
        written and the next pass asks again. Returns the ids decided."""
        if not message_ids:
            return []
        now = _now()
        try:
            with self.sessions.begin() as session:
                rows = [(mid, raw, labels) for mid, raw, labels, origin, folder, sender
                        in session.execute(
                            select(MessageRow.id, MessageRow.raw, MessageRow.labels,
                                   MessageRow.origin, MessageRow.folder, MessageRow.from_addr)
                            .outerjoin(DecisionRow, DecisionRow.message_id == MessageRow.id)
                            .where(MessageRow.account == account,
                                   MessageRow.id.in_(sorted(set(message_ids))),
                                   DecisionRow.message_id.is_(None))
                            .order_by(MessageRow.id))
                        if not is_own_mail(origin, folder, tuple(labels or ()), sender or "",
                                           own_addresses)]
                if not rows:
                    return []
                raws = [bytes(raw or b"") for _mid, raw, _labels in rows]
                todo = [(parse_message(raw, labels=tuple(labels or ())), None)
                        for raw, (_mid, _raw, labels) in zip(raws, rows, strict=True)]
                traces = self._decider().decide(session, account, todo, self.scorers, now,
                                                [], raws)
                ids = [mid for mid, _raw, _labels in rows]
                session.execute(insert(table_of(DecisionRow)), [
                    _decision_values(mid, account, d, now)
                    for mid, d in zip(ids, traces, strict=True)])
                session.execute(insert(table_of(LedgerRow)), [
                    _ledger_values(mid, "decided", d, SYSTEM, now)
                    for mid, d in zip(ids, traces, strict=True)])
        except IntegrityError:
            return []
        return ids

    def _decider(self) -> Decider:
        if self.decider is None:
            raise StoreError("this store was opened without a decider and cannot ingest: "
                             "open it with mailmoat.services.bootstrap.open_store")
        return self.decider

    @staticmethod
    def _message_values(
        item: Incoming, message: Message, digest: str, account: str, now: datetime,
        streamed: bool = False,
    ) -> dict[str, Any]:
        return {
            "account": account,
            "content_sha256": digest,
            # A big message's bytes are written afterwards in chunks (_write_big_raws).
            "raw": b"" if streamed and len(item.raw) > STREAM_RAW_ABOVE else item.raw,
            "origin": item.origin,
            "folder": item.folder,
            "labels": list(item.labels),
            "from_addr": message.from_addr[:500],
            "from_name": message.from_name[:500],
            "subject": message.subject,
            "date": message.date,
            "snippet": message.snippet,
            "created_at": now,
        }

    @staticmethod
    def _ledger(mid: int, event: str, trace: Trace, actor: str, now: datetime) -> LedgerRow:
        return LedgerRow(**_ledger_values(mid, event, trace.as_dict(), actor, now))

    @staticmethod
    def _existing(session: Session, account: str,
                  hashes: list[str]) -> dict[str, tuple[int, str | None]]:
        """Stored messages by content hash, with their lane (None: the user's own mail)."""
        found: dict[str, tuple[int, str | None]] = {}
        for start in range(0, len(hashes), 500):
            chunk = hashes[start : start + 500]
            rows = session.execute(
                select(MessageRow.content_sha256, MessageRow.id, DecisionRow.lane)
                .outerjoin(DecisionRow, DecisionRow.message_id == MessageRow.id)
                .where(MessageRow.account == account, MessageRow.content_sha256.in_(chunk))
            )
            for digest, mid, lane in rows:
                found[digest] = (mid, lane)
        return found

    def record_decision(self, message_id: int, trace: Trace, event: str, actor: str) -> None:
        """Replace the current decision (a re-judge or a correction) and append to the ledger."""
        now = _now()
        with self.sessions.begin() as session:
            row = session.get(DecisionRow, message_id)
            if row is None:
                raise KeyError(f"no decision for message {message_id}")
            fresh = _decision_row(message_id, row.account, trace, now)
            fresh.actor = actor
            session.merge(fresh)
            session.add(self._ledger(message_id, event, trace, actor, now))

    # -- reads ----------------------------------------------------------------------------

    def accounts(self) -> list[str]:
        """Every account that has stored mail, sorted."""
        with self.sessions() as session:
            return sorted(session.scalars(select(MessageRow.account).distinct()))

    def account_of(self, message_id: int) -> str | None:
        with self.sessions() as session:
            return session.scalar(select(MessageRow.account).where(MessageRow.id == message_id))

    def count(self, account: str | None = None) -> int:
        with self.sessions() as session:
            query = select(func.count()).select_from(MessageRow)
            if account is not None:
                query = query.where(MessageRow.account == account)
            return int(session.scalar(query) or 0)

    def lane_counts(self, account: str = "local", hide: Collection[int] = ()) -> dict[str, int]:
        """Messages per lane; `hide` leaves those messages out (snoozed mail, say)."""
        with self.sessions() as session:
            query = select(DecisionRow.lane, func.count()).where(DecisionRow.account == account)
            if hide:
                query = query.where(DecisionRow.message_id.not_in(sorted(hide)))
            rows = session.execute(query.group_by(DecisionRow.lane))
            return {lane: int(n) for lane, n in rows}

    def list_messages(
        self, lane: str, account: str = "local", limit: int = 50, offset: int = 0,
        hide: Collection[int] = (),
    ) -> list[dict[str, Any]]:
        """Newest first. Summaries only: the raw bytes stay in the database."""
        with self.sessions() as session:
            rows = session.execute(
                select(
                    MessageRow.id,
                    MessageRow.from_name,
                    MessageRow.from_addr,
                    MessageRow.subject,
                    MessageRow.date,
                    MessageRow.snippet,
                    DecisionRow.reason,
                    DecisionRow.source,
                    DecisionRow.auto_eligible,
                    DecisionRow.trace,
                )
                .join(DecisionRow, DecisionRow.message_id == MessageRow.id)
                .where(DecisionRow.account == account, DecisionRow.lane == lane,
                       DecisionRow.message_id.not_in(sorted(hide)) if hide else true())
                # Same order as messages.id, but read straight off ix_decisions_account_lane:
                # no sort of the whole lane before LIMIT (10x faster at 10,000 messages).
                .order_by(DecisionRow.message_id.desc())
                .limit(limit)
                .offset(offset)
            )
            return [
                {
                    "id": r.id,
                    "from_name": r.from_name,
                    "from_addr": r.from_addr,
                    "subject": r.subject,
                    "date": r.date,
                    "snippet": r.snippet,
                    "lane": lane,
                    "reason": r.reason,
                    "source": r.source,
                    "auto_eligible": r.auto_eligible,
                    "features": r.trace["features"],
                }
                for r in rows
            ]

    def get_message(self, message_id: int, account: str = "local",
                    with_html: bool = False) -> dict[str, Any] | None:
        """One message with its trace. The stored input hash is re-checked against the
        stored bytes on every read: a mismatch is reported as stale, never trusted.
        `with_html`: also its decoded text/html parts (`html_parts`), from the same parse."""
        with self.sessions() as session:
            row = session.get(MessageRow, message_id)
            if row is None or row.account != account:
                return None
            decision = session.get(DecisionRow, message_id)
            message, html = parse_message_with_html(row.raw, labels=tuple(row.labels or ()))
            trace = decision.trace if decision else {}
            extra = {"html_parts": list(html)} if with_html else {}
            return extra | {
                "id": row.id,
                "account": row.account,
                "origin": row.origin,
                "folder": row.folder,
                "from_name": message.from_name,
                "from_addr": message.from_addr,
                "to": list(message.to),
                "subject": message.subject,
                "date": message.date,
                "body_text": message.body_text,
                "attachments": [
                    {"filename": a.filename, "content_type": a.content_type, "size": a.size}
                    for a in message.attachments
                ],
                "lane": decision.lane if decision else None,
                "trace": trace,
                "stale": decision is None or is_stale(message, decision.input_hash),
            }

    def ledger(self, message_id: int) -> list[dict[str, Any]]:
        with self.sessions() as session:
            rows = session.scalars(
                select(LedgerRow).where(LedgerRow.message_id == message_id).order_by(LedgerRow.id)
            )
            return [
                {"event": r.event, "lane": r.lane, "actor": r.actor, "trace": r.trace,
                 "created_at": r.created_at.isoformat()}
                for r in rows
            ]


def replace_decision(session: Session, decision: DecisionRow, trace: dict[str, Any],
                     actor: str, now: datetime, event: str = "corrected") -> None:
    """Make `trace` (`Trace.as_dict()` form) the message's decision and append it to the
    ledger, in the caller's transaction."""
    decision.lane = trace["lane"]
    decision.reason = trace["reason"]
    decision.branch = trace["branch"]
    decision.auto_eligible = trace["auto_eligible"]
    decision.trace = trace
    decision.actor = actor
    decision.updated_at = now
    session.add(LedgerRow(**_ledger_values(decision.message_id, event, trace, actor, now)))


# On SQLite, binding a blob copies it and building the row copies it again: a 50 MB message
# would cost the process three times its size. Above this size the row is inserted with an
# empty `raw`, then `raw` is sized with zeroblob() and written through SQLite's incremental
# blob I/O, in the same transaction, one chunk at a time.
STREAM_RAW_ABOVE = 4 * 1024 * 1024
_BLOB_CHUNK = 1024 * 1024


def _streams_blobs(session: Session) -> bool:
    return session.get_bind().dialect.name == "sqlite"


def _write_big_raws(session: Session, rows: Sequence[tuple[int, bytes]]) -> None:
    big = [(mid, raw) for mid, raw in rows if len(raw) > STREAM_RAW_ABOVE]
    if not big:
        return
    connection = session.connection()
    driver = connection.connection.driver_connection
    for mid, raw in big:
        connection.execute(text("UPDATE messages SET raw = zeroblob(:n) WHERE id = :id"),
                           {"n": len(raw), "id": mid})
        view = memoryview(raw)
        with driver.blobopen("messages", "raw", mid) as blob:  # type: ignore[union-attr]
            for start in range(0, len(raw), _BLOB_CHUNK):
                blob.write(view[start:start + _BLOB_CHUNK])


def open_store(url: str | None = None, scorers: Sequence[Any] = (),
               decider: Decider | None = None) -> Store:
    """Open (and migrate) the store at `url`, default SQLite in the user data directory.
    Callers open it through services/bootstrap.py, which hands it the ingest decider."""
    engine = make_engine(url)
    migrate(engine)
    return Store(engine, scorers, decider)
