"""Issue 17 (input): hostile sizes and shapes cost bounded work — MIME parameter lists are
capped before the stdlib reads them, big mails are read without their attachment bytes, import
batches by bytes and opens regular mail files only, and `eval` fails cleanly."""

from __future__ import annotations

import base64
import email
import email.message
import json
import os
import shutil
import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import mailmoat.core.message as core_message
from mailmoat.core.message import (
    _POLICY,
    MAX_MIME_HEADER_CHARS,
    MAX_RAW_HEADER_CHARS,
    parse_message,
)
from mailmoat.entrypoints.cli.main import app
from mailmoat.mail.importer import ImportPathError, iter_messages, why_not_mail
from mailmoat.services.bootstrap import open_store
from mailmoat.services.imports import BATCH_BYTES, import_path
from mailmoat.store import Store
from tests.support.llm_server import LLMServer, ok

KLORN = Path(__file__).resolve().parents[2] / "shared" / "eval" / "klorn"
runner = CliRunner()


def _param_bomb(size: int) -> bytes:
    params = "".join(f"; p{i}=v" for i in range(size // 6 + 1))[:size]
    return (f"From: a@b.example\r\nSubject: params\r\nMIME-Version: 1.0\r\n"
            f"Content-Type: multipart/mixed; boundary=zz{params}\r\n\r\n"
            f"--zz\r\nContent-Type: text/plain; charset=utf-8{params}\r\n"
            f"Content-Disposition: inline{params}\r\n\r\nhello\r\n--zz--\r\n").encode()


def _big_mail(attachment_bytes: int, text: str = "See attached.") -> bytes:
    blob = base64.encodebytes(os.urandom(attachment_bytes))
    return (b"From: Big <big@corp.example>\r\nTo: me@example.org\r\nSubject: the deck\r\n"
            b"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=BB\r\n\r\n"
            b"--BB\r\nContent-Type: text/plain\r\n\r\n" + text.encode() + b"\r\n"
            b"--BB\r\nContent-Type: application/pdf\r\n"
            b"Content-Disposition: attachment; filename=deck.pdf\r\n"
            b"Content-Transfer-Encoding: base64\r\n\r\n" + blob + b"--BB--\r\n")


# -- IN-1: header caps -------------------------------------------------------------------------

@pytest.mark.parametrize("size", [1_000_000, 3_000_000])
def test_a_huge_mime_parameter_list_never_reaches_the_stdlib(
        size: int, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int] = []
    real = email.message._parseparam  # type: ignore[attr-defined]

    def spy(s: str) -> Any:
        seen.append(len(s))
        return real(s)

    monkeypatch.setattr(email.message, "_parseparam", spy)
    raw = _param_bomb(size)
    message = parse_message(raw)
    assert message.body_text == "hello" and message.subject == "params"
    assert any("Content-Type capped" in t for t in message.truncations)
    assert seen and max(seen) <= MAX_MIME_HEADER_CHARS + 1  # the stdlib adds a ";"
    parsed = email.message_from_bytes(raw, policy=_POLICY)
    assert len(parsed["content-type"]) == MAX_MIME_HEADER_CHARS
    assert all(len(p["content-disposition"] or "") <= MAX_MIME_HEADER_CHARS
               for p in parsed.walk())


def test_every_other_header_is_capped_too() -> None:
    raw = b"From: a@b.example\r\nSubject: " + b"x" * 500_000 + b"\r\nX-Junk: " + (
        b"y" * 500_000) + b"\r\n\r\nbody\r\n"
    parsed = email.message_from_bytes(raw, policy=_POLICY)
    assert len(parsed["subject"]) == MAX_RAW_HEADER_CHARS
    assert len(parsed["x-junk"]) == MAX_RAW_HEADER_CHARS
    assert len(parse_message(raw).subject) <= 4_000


def test_a_message_view_parses_the_bytes_once(client: TestClient, store: Store,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    mid = store.ingest(b"From: a@b.example\r\nSubject: hi\r\nContent-Type: text/html\r\n\r\n"
                       b"<p>hello <b>there</b></p>\r\n", "eml").message_id
    parses: list[int] = []
    real = core_message._parse

    def counted(raw: bytes, labels: tuple[str, ...]) -> Any:
        parses.append(len(raw))
        return real(raw, labels)

    monkeypatch.setattr(core_message, "_parse", counted)
    reply = client.get(f"/api/messages/{mid}", params={"html": "true"})
    assert reply.status_code == 200 and "there" in reply.json()["html"]["html"]
    assert len(parses) == 1


# -- IN-2: big mails and byte-bounded import batches -------------------------------------------

def test_a_big_mail_is_read_without_its_attachment_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    fed: list[int] = []
    real = email.message_from_bytes

    def spy(raw: bytes, *args: Any, **kwargs: Any) -> Any:
        fed.append(len(raw))
        return real(raw, *args, **kwargs)

    monkeypatch.setattr(core_message.email, "message_from_bytes", spy)
    size = 22_500_000
    raw = _big_mail(size)
    assert len(raw) > 30_000_000
    message = parse_message(raw)
    assert message.body_text == "See attached." and message.raw_size == len(raw)
    [attachment] = message.attachments
    assert attachment.filename == "deck.pdf" and abs(attachment.size - size) < size * 0.01
    assert any("not read" in t for t in message.truncations)
    assert fed and max(fed) < 2_000_000  # the parser saw a small fraction of 30 MB


def test_small_mail_parses_exactly_as_before() -> None:
    raw = _big_mail(300_000, "Short note.")
    assert core_message.elide_large_parts(raw) == (raw, 0)
    assert parse_message(raw).attachments[0].size == 300_000


def test_import_batches_are_bounded_by_bytes(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "mail"
    folder.mkdir()
    for n in range(5):
        (folder / f"{n}.eml").write_bytes(_big_mail(7_000_000, f"Deck {n}."))
    for n in range(30):
        (folder / f"small{n}.eml").write_bytes(
            f"From: s{n}@example.org\r\nSubject: small {n}\r\n\r\nhi\r\n".encode())
    store = open_store(f"sqlite:///{tmp_path / 'big.db'}")
    batches: list[tuple[int, int]] = []
    real = store.ingest_many

    def recorded(batch: Any, account: str = "local", prepared: Any = None) -> Any:
        items = list(batch)
        batches.append((len(items), sum(len(i.raw) for i in items)))
        return real(items, account, prepared)

    monkeypatch.setattr(store, "ingest_many", recorded)
    summary = import_path(store, folder)
    assert summary.imported == 35 and not summary.failed
    assert all(size <= BATCH_BYTES or count == 1 for count, size in batches), batches


# -- IN-3: regular files only, sniffed --------------------------------------------------------

def test_import_never_opens_a_pipe_and_skips_what_is_not_mail(tmp_path: Path) -> None:
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "real.eml").write_bytes(b"From: ana@corp.example\r\nSubject: hello\r\n\r\nHi.\r\n")
    os.mkfifo(folder / "pipe.eml")
    shutil.copyfile("/bin/ls", folder / "ls.eml")
    (folder / "data.json").write_text(json.dumps({"items": [1, 2, 3]}))
    (folder / "empty.eml").write_bytes(b"")
    (folder / "config.eml").write_text("name: my project\nversion: 3\n")
    (folder / "link.eml").symlink_to(folder / "pipe.eml")
    store = open_store(f"sqlite:///{tmp_path / 'mixed.db'}")
    done: list[Any] = []
    worker = threading.Thread(target=lambda: done.append(import_path(store, folder)),
                              daemon=True)
    worker.start()
    worker.join(60)
    assert done, "import hung"
    summary = done[0]
    assert summary.imported == 1 and not summary.failed
    reasons = {Path(s.where).name: s.error for s in summary.skipped}
    assert "named pipe" in reasons["pipe.eml"] and "named pipe" in reasons["link.eml"]
    assert "binary" in reasons["ls.eml"] or "not an email" in reasons["ls.eml"]
    assert "not an email" in reasons["data.json"]
    assert reasons["empty.eml"] == "empty file"
    assert "not an email" in reasons["config.eml"]
    assert store.count() == 1  # nothing but the real mail was laned
    with pytest.raises(ImportPathError, match="named pipe"):
        list(iter_messages(folder / "pipe.eml"))
    [alone] = list(iter_messages(folder / "ls.eml"))
    assert getattr(alone, "skipped", False)
    shown = CliRunner().invoke(app, ["import", str(folder)], env={
        "MAILMOAT_DATABASE_URL": f"sqlite:///{tmp_path / 'cli.db'}"})
    assert shown.exit_code == 0 and "skipped 6" in shown.output
    flat = " ".join(shown.output.split())  # the console wraps long paths
    assert "pipe.eml: not a regular file (a named pipe)" in flat  # each with its reason


def test_the_sniffer_keeps_real_mail(tmp_path: Path) -> None:
    corpus = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "spamassassin"
    files = sorted(p for p in corpus.rglob("*") if p.is_file())[:400] if corpus.is_dir() else []
    if not files:
        pytest.skip("../shared/corpora/spamassassin is not present")
    refused = [(p.name, why) for p in files if (why := why_not_mail(p.read_bytes()))
               and p.name != "cmds"]
    assert not refused, refused[:5]


# -- IN-4: eval fails cleanly ------------------------------------------------------------------

def test_eval_of_a_binary_or_a_foreign_file_is_a_clear_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["eval", "/bin/ls"])
    assert result.exit_code == 2 and "not UTF-8" in result.output
    assert isinstance(result.exception, SystemExit)  # no traceback
    other = tmp_path / "other.json"
    other.write_text("[1, 2")
    result = runner.invoke(app, ["eval", str(other)])
    assert result.exit_code == 2 and "not JSON" in result.output
    result = runner.invoke(app, ["eval", str(tmp_path)])
    assert result.exit_code == 2 and "not a regular file" in result.output


def test_eval_with_a_model_fails_on_a_safety_violation(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    path = KLORN / "judge-eval-set.json"
    if not path.is_file():
        pytest.skip("../shared/eval/klorn is not present")
    empty = tmp_path / "config.toml"
    empty.write_text("")
    with LLMServer(lambda _request: ok(confidence=0.95, sender_trust=0.0, urgency=0.0,
                                       reversibility=1.0)) as server:
        monkeypatch.setenv("MAILMOAT_CONFIG", str(empty))
        monkeypatch.setenv("MAILMOAT_DATABASE_URL", f"sqlite:///{tmp_path / 'mm.db'}")
        monkeypatch.setenv("MAILMOAT_LLM_BASE_URL", server.base_url)
        monkeypatch.setenv("MAILMOAT_LLM_MODEL", "hider")
        monkeypatch.setenv("MAILMOAT_LLM_API_KEY", "sk-scripted")
        table = runner.invoke(app, ["eval", str(path), "--scorer", "llm"])
        as_json = runner.invoke(app, ["eval", str(path), "--scorer", "llm", "--json"])
    assert table.exit_code == 1, table.output  # the model hides urgent mail
    assert "expected PUSH, got SILENT" in table.output
    assert as_json.exit_code == 1
    assert json.loads(as_json.output)[0]["violations"]


def test_a_big_message_is_stored_byte_for_byte(store_url: str) -> None:
    from mailmoat.store.messages import STREAM_RAW_ABOVE
    from mailmoat.store.repos import Repos

    store = open_store(store_url)
    raw = _big_mail(STREAM_RAW_ABOVE, "Stored whole.")
    assert len(raw) > STREAM_RAW_ABOVE
    result = store.ingest(raw, "eml")
    small = store.ingest(b"From: a@b.example\r\nSubject: small\r\n\r\nhi\r\n", "eml")
    assert Repos(store).summaries.raw(result.message_id, "local") == raw
    assert store.ingest(raw, "eml").created is False  # the content hash still finds it
    shown = store.get_message(result.message_id)
    assert shown is not None and not shown["stale"] and shown["body_text"] == "Stored whole."
    assert store.get_message(small.message_id) is not None


def test_an_rfc2231_mix_the_stdlib_cannot_decode_does_not_hide_the_body() -> None:
    """`name*=` beside `name*0*=` makes the stdlib raise inside its parser (found by
    bench/fuzz.py), which lost the whole MIME tree: a way to hide a body from the scorer."""
    ok = (b"From: a@b.example\r\nSubject: p\r\nMIME-Version: 1.0\r\n"
          b"Content-Type: multipart/mixed; boundary=zz\r\n\r\n--zz\r\n"
          b"Content-Type: text/plain\r\n\r\nwire the money today\r\n--zz\r\n"
          b"Content-Type: application/pdf\r\n"
          b"Content-Disposition: attachment; filename*=UTF-8''%e2%82%ac.txt\r\n\r\n"
          b"ZZ\r\n--zz--\r\n")
    assert parse_message(ok).attachments[0].filename == "€.txt"  # RFC 2231 still decoded
    bad = ok.replace(b"boundary=zz\r\n",
                     b"boundary=zz; filename*=UTF-8''%e2%82%ac.txt; filename*0*=UTF-8''a\r\n")
    message = parse_message(bad)
    assert message.body_text == "wire the money today" and not message.defects
