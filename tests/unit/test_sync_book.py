"""The sync bookkeeping queries the lane-action runner reads, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from itertools import pairwise
from pathlib import Path

from alembic import command
from alembic.config import Config
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import (
    Column,
    Integer,
    MetaData,
    Table,
    create_engine,
    event,
    insert,
    select,
)

from mailmoat.accounts.registry import AccountSettings, add_account, get_account
from mailmoat.accounts.secrets import load_key_ring
from mailmoat.core.lane_actions import ActionKind, LaneAction, PlannedAction
from mailmoat.core.mailbox_sync import FolderState
from mailmoat.core.message import parse_message
from mailmoat.services.bootstrap import open_store
from mailmoat.store.db import MIGRATIONS
from mailmoat.store.id_sets import among, id_chunks, id_runs
from mailmoat.store.mailbox_state import Location, Plan, SyncBook
from mailmoat.store.messages import Incoming, Store, content_sha256
from mailmoat.store.tables.messages import DecisionRow, LedgerRow, MessageRow
from tests.conftest import table_indexes


def _book(tmp_path: Path, url: str) -> tuple[SyncBook, list[int]]:
    store = open_store(url)
    ring = load_key_ring(tmp_path / "secret.key")
    add_account(store, ring, AccountSettings(name="book", host="127.0.0.1", port=1,
                                             username="u", tls="plain"), "pw")
    account = get_account(store, "book")
    assert account.id is not None
    ids = [store.ingest(f"Subject: m{i}\r\nFrom: a{i}@example.org\r\n\r\nhi {i}\r\n".encode(),
                        "imap", "INBOX", account="book").message_id for i in range(4)]
    return SyncBook(store, account.id), ids


def _plan(message_id: int, keyword: str) -> Plan:
    return Plan(message_id, "QUEUE", (PlannedAction(ActionKind.ADD_KEYWORD, keyword),),
                f"test:{keyword}", LaneAction(keyword=keyword))


def test_pending_actions_come_with_where_their_message_is_now(tmp_path: Path,
                                                              store_url: str) -> None:
    book, (moved, stays, unknown, stale) = _book(tmp_path, store_url)
    book.save_state("INBOX", FolderState(7, 100, True, None))
    book.save_state("Archive", FolderState(9, 100, True, None))
    book.record_locations([
        Location("INBOX", 7, 1, moved, ()),
        Location("Archive", 9, 5, moved, ("\\Seen",)),  # found again later: the newer wins
        Location("INBOX", 7, 2, stays, ()),
        Location("INBOX", 6, 3, stale, ()),  # under a UIDVALIDITY the folder no longer has
    ])
    assert book.plan_many([_plan(m, "$A") for m in (moved, stays, unknown, stale)]) == 4
    book.plan_many([_plan(stays, "$B")])

    pending = book.pending_located()

    assert [(a.message_id, a.argument) for a, _ in pending] == [
        (moved, "$A"), (stays, "$A"), (unknown, "$A"), (stale, "$A"), (stays, "$B")]
    where = {a.id: loc for a, loc in pending}
    first = pending[0][0].id
    assert where[first] == Location("Archive", 9, 5, moved, ("\\Seen",))
    assert [loc for a, loc in pending if a.message_id == stays] == [
        Location("INBOX", 7, 2, stays, ())] * 2
    assert [loc for a, loc in pending if a.message_id in (unknown, stale)] == [None, None]


def test_finished_actions_leave_the_pending_list(tmp_path: Path, store_url: str) -> None:
    book, ids = _book(tmp_path, store_url)
    book.plan_many([_plan(m, "$A") for m in ids])
    actions = [a.id for a, _ in book.pending_located()]
    # Not consecutive: the first and the last two, then the second under another outcome.
    book.finish_many([(actions[0], "done", ""), (actions[2], "done", ""),
                      (actions[3], "done", ""), (actions[1], "failed", "NO")])
    assert book.pending_located() == []
    assert [r["status"] for m in ids for r in book.actions(m)] == [
        "done", "failed", "done", "done"]
    assert book.actions(ids[1])[0]["detail"] == "NO"


@given(st.lists(st.integers(-5, 60), max_size=40))
def test_id_runs_cover_exactly_the_ids(ids: list[int]) -> None:
    runs = id_runs(ids)
    covered = [n for first, last in runs for n in range(first, last + 1)]
    assert covered == sorted(set(ids))
    # Maximal runs: no two touch, so there is no shorter way to name the same ids.
    assert all(b[0] > a[1] + 1 for a, b in pairwise(runs))


_TABLE = Table("numbers", MetaData(), Column("n", Integer, primary_key=True))
_ENGINE = create_engine("sqlite://")
_TABLE.metadata.create_all(_ENGINE)
with _ENGINE.begin() as _connection:
    _connection.execute(insert(_TABLE), [{"n": n} for n in range(-10, 1000)])


@settings(max_examples=200)
@given(st.lists(st.integers(-10, 999), max_size=600))
def test_among_selects_exactly_the_ids(ids: list[int]) -> None:
    found: list[int] = []
    with _ENGINE.connect() as connection:
        for runs in id_chunks(ids):
            found += connection.scalars(select(_TABLE.c.n).where(among(_TABLE.c.n, runs)))
        assert connection.scalars(select(_TABLE.c.n).where(among(_TABLE.c.n, []))).all() == []
    assert sorted(found) == sorted(set(ids))


def _action_indexes(url: str) -> set[str]:
    return table_indexes(url, "mail_server_actions")


def test_action_index_migration_goes_down_and_up(tmp_path: Path, store_url: str) -> None:
    book, ids = _book(tmp_path, store_url)
    book.plan_many([_plan(m, "$A") for m in ids])
    assert "ix_mail_server_actions_message" in _action_indexes(store_url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with book.store.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0008_account_submission")
    assert "ix_mail_server_actions_message" not in _action_indexes(store_url)
    book.store.engine.dispose()
    again = SyncBook(open_store(store_url), book.account_id)  # the next start upgrades
    assert "ix_mail_server_actions_message" in _action_indexes(store_url)
    assert len(again.pending_located()) == len(ids)


def test_planned_actions_are_looked_up_by_the_message_index(tmp_path: Path) -> None:
    """Which actions are planned already is asked for every stored batch: without the
    index each question reads every action of the account (migration 0012)."""
    url = f"sqlite:///{tmp_path / 'm.db'}"
    book, ids = _book(tmp_path, url)
    book.plan_many([_plan(m, "$A") for m in ids])
    seen: list[tuple[str, object]] = []
    event.listen(book.store.engine, "before_cursor_execute",
                 lambda _c, _cur, stmt, params, _ctx, _many: seen.append((stmt, params)))
    assert book.plan_many([_plan(m, "$A") for m in ids]) == 0  # all planned already
    assert book.has_pending(ids[0])
    lookups = [(s, p) for s, p in seen if s.lstrip().startswith("SELECT")
               and "FROM mail_server_actions" in s]
    assert len(lookups) == 2
    with book.store.engine.connect() as connection:
        for stmt, params in lookups:
            plan = " ".join(str(step[-1]) for step in connection.exec_driver_sql(
                f"EXPLAIN QUERY PLAN {stmt}", params))  # type: ignore[arg-type]
            assert "ix_mail_server_actions_message" in plan, (stmt, plan)


def test_unplanned_lists_located_decided_mail_without_a_plan(tmp_path: Path,
                                                             store_url: str) -> None:
    book, (planned, stranded, moved, nowhere) = _book(tmp_path, store_url)
    own = book.store.ingest(b"Subject: mine\r\nFrom: me@example.org\r\n\r\nx\r\n", "sent",
                            "Sent", account="book")
    assert own.own and own.lane == ""
    book.record_locations([
        Location("INBOX", 7, 1, planned, ()), Location("INBOX", 7, 2, stranded, ()),
        Location("INBOX", 7, 3, moved, ()), Location("Archive", 9, 4, moved, ()),
        Location("Sent", 3, 1, own.message_id, ()),  # the user's own: no decision, no plan
    ])
    book.plan_many([_plan(planned, "$A")])
    found = book.unplanned("book")
    assert [(u.message_id, u.folder, u.uid) for u in found] == [
        (stranded, "INBOX", 2), (moved, "Archive", 4)]  # the newest location wins
    assert {u.lane for u in found} == {"QUEUE"} and found[0].subject == "m1"
    assert book.unplanned("another account") == []
    book.plan_many([_plan(u.message_id, "$A") for u in found])
    assert book.unplanned("book") == [] and nowhere not in {u.message_id for u in found}


def _stored_undecided(store: Store, raw: bytes, origin: str, folder: str) -> int:
    """A message stored the way an older build stored mail it took for the user's own: the
    message row and nothing else (no decision, no ledger row)."""
    values = Store._message_values(Incoming(raw, origin, folder), parse_message(raw),
                                   content_sha256(raw), "book", datetime.now(UTC))
    with store.sessions.begin() as session:
        row = MessageRow(**values)
        session.add(row)
        session.flush()
        return row.id


def test_undecided_mail_is_found_and_decided_once(tmp_path: Path, store_url: str) -> None:
    book, decided = _book(tmp_path, store_url)
    store = book.store
    inbox = [_stored_undecided(store, f"Subject: late {n}\r\nFrom: ann@acme.example\r\n\r\n"
                               f"call me {n}\r\n".encode(), "sent", "INBOX") for n in range(3)]
    own = [store.ingest(b"Subject: mine\r\nFrom: me@example.org\r\n\r\nx\r\n", "sent", "Sent",
                        account="book").message_id,
           _stored_undecided(store, b"Subject: by name\r\nFrom: me@example.org\r\n\r\ny\r\n",
                             "imap", "Sent"),
           _stored_undecided(store, b"Subject: archived\r\nFrom: me@example.org\r\n\r\nz\r\n",
                             "imap", "Archive")]
    me = frozenset({"me@example.org"})
    assert store.undecided("book", me) == inbox  # the user's own mail stays undecided
    assert store.undecided("another account", me) == []
    assert set(store.decide_late("book", [*inbox, *decided, *own], me)) == set(inbox)
    assert store.undecided("book", me) == []
    assert store.decide_late("book", inbox, me) == []  # decided once: nothing the second time
    with store.sessions() as session:
        lanes = dict(session.execute(select(DecisionRow.message_id, DecisionRow.lane)).all())
        ledger = Counter(session.scalars(select(LedgerRow.message_id)))
    assert set(inbox) <= set(lanes) and not set(own) & set(lanes)
    assert all(ledger[mid] == 1 for mid in [*inbox, *decided])
    # Located and decided now: the pass's repair plans their lane actions next.
    book.record_locations(Location("INBOX", 7, n + 1, mid, ()) for n, mid in enumerate(inbox))
    assert [u.message_id for u in book.unplanned("book")] == inbox
