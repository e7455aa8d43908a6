"""A message is parsed once, at ingest, and its views read that parse (migration 0018): the
same answer as parsing again, no parse on read, and a parse again whenever the stored view
does not belong to the stored bytes (changed bytes or labels, a message from before 0018)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import delete, func, select, update

from mailmoat.demo import demo_messages, import_demo
from mailmoat.services.bootstrap import open_store
from mailmoat.store import Incoming, Store
from mailmoat.store import messages as store_messages
from mailmoat.store.tables.messages import MessageRow, MessageViewRow

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpora" / "spamassassin"


def _ids(store: Store) -> list[int]:
    with store.sessions() as s:
        return list(s.scalars(select(MessageRow.id).order_by(MessageRow.id)))


def _views(store: Store) -> int:
    with store.sessions() as s:
        return int(s.scalar(select(func.count()).select_from(MessageViewRow)) or 0)


def _read_all(store: Store) -> list[dict[str, Any]]:
    return [store.get_message(i, with_html=True) or {} for i in _ids(store)]


def _corpus(limit: int) -> list[bytes]:
    if not CORPUS.is_dir():
        return []
    files = sorted(p for p in CORPUS.rglob("*") if p.is_file())
    return [p.read_bytes() for p in files[:: max(1, len(files) // limit)]][:limit]


def test_views_read_the_stored_parse_and_answer_as_a_parse_would(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'v.db'}")
    import_demo(store)
    corpus = _corpus(120)  # real-world mail when ../shared has it; the demo mailbox always
    store.ingest_many([Incoming(raw, "eml", "INBOX") for raw in corpus])
    assert _views(store) == len(_ids(store)) >= len(demo_messages()) + len(corpus) // 2
    stored = _read_all(store)
    assert all(item["stale"] is False for item in stored)
    assert any(item["html_parts"] for item in stored)

    def no_parse(*_a: Any, **_k: Any) -> Any:
        raise AssertionError("a view parsed the message although its parse is stored")

    monkeypatch.setattr(store_messages, "parse_message_with_html", no_parse)
    assert _read_all(store) == stored  # read from the stored views alone
    monkeypatch.undo()
    with store.sessions.begin() as s:
        s.execute(delete(MessageViewRow))  # as for mail stored before migration 0018
    assert _read_all(store) == stored  # the fallback parse gives the very same answer


def test_changed_bytes_or_labels_are_parsed_again_and_shown_stale(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'v.db'}")
    import_demo(store)
    first, second = _ids(store)[:2]
    with store.sessions.begin() as s:
        s.execute(update(MessageRow).where(MessageRow.id == first).values(
            raw=b"From: mallory@evil.example\nSubject: rewritten\n\nnew text\n"))
        s.execute(update(MessageRow).where(MessageRow.id == second).values(labels=["Work"]))
    tampered = store.get_message(first) or {}
    assert tampered["subject"] == "rewritten" and tampered["stale"] is True
    relabelled = store.get_message(second) or {}
    assert relabelled["stale"] is True  # labels are part of what the decision read


def test_the_migration_goes_down_and_up_and_old_rows_fall_back(store_url: str) -> None:
    from alembic import command
    from alembic.config import Config

    from mailmoat.store.db import MIGRATIONS

    store = open_store(store_url)
    import_demo(store)
    before = _read_all(store)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with store.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0017_jobs_leases")
    store.engine.dispose()
    again = open_store(store_url)  # the next start upgrades again: no views for old rows
    assert _views(again) == 0
    assert _read_all(again) == before
    again.ingest(b"From: a@example.org\nSubject: after\n\nhello\n", "eml")
    assert _views(again) == 1


def test_the_html_a_view_keeps_is_capped() -> None:
    """64 parts of 512 KB each could make a 32 MB view; the parse keeps at most 1 MiB."""
    from mailmoat.core.message import MAX_HTML_CHARS, parse_message_with_html

    part = "<p>" + "x" * 400_000 + "</p>"
    body = "".join(f"--b\r\nContent-Type: text/html\r\n\r\n{part}\r\n" for _ in range(4))
    raw = ("From: a@example.org\r\nSubject: big\r\nMIME-Version: 1.0\r\n"
           "Content-Type: multipart/mixed; boundary=b\r\n\r\n" + body + "--b--\r\n").encode()
    message, html = parse_message_with_html(raw)
    assert len(html) == 2 and sum(map(len, html)) <= MAX_HTML_CHARS
    assert any("HTML parts capped" in t for t in message.truncations)


def test_mail_decided_late_gets_its_view_with_the_decisions_hash(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Mail stored without a decision (an older build took it for the user's own) has a view
    without a hash; it is never taken as stale for that, and `decide_late` stores the parse
    it decided on, so the view is read from the store again."""
    from datetime import UTC, datetime

    from mailmoat.core.message import parse_message
    from mailmoat.store.messages import Store as MessageStore
    from mailmoat.store.messages import _view_values, content_sha256

    store = open_store(f"sqlite:///{tmp_path / 'v.db'}")
    raw = b"From: ann@acme.example\r\nSubject: late\r\n\r\ncall me\r\n"
    values = MessageStore._message_values(Incoming(raw, "imap", "INBOX"), parse_message(raw),
                                          content_sha256(raw), "local", datetime.now(UTC))
    with store.sessions.begin() as s:  # as such mail was stored: the message and a view
        row = MessageRow(**values)
        s.add(row)
        s.flush()
        mid = row.id
        s.execute(MessageViewRow.__table__.insert().values(
            **_view_values(mid, (), parse_message(raw), content_sha256(raw), "")))
    assert (store.get_message(mid) or {})["stale"] is True  # no decision yet
    assert store.decide_late("local", [mid]) == [mid]
    fresh = store.get_message(mid) or {}
    assert fresh["stale"] is False and fresh["lane"]

    def no_parse(*_a: Any, **_k: Any) -> Any:
        raise AssertionError("the view parsed although decide_late stored its parse")

    monkeypatch.setattr(store_messages, "parse_message_with_html", no_parse)
    assert store.get_message(mid) == fresh
