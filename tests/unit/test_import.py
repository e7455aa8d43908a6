"""Importing .eml files, directories, Maildir and mbox; bad files never stop an import."""

from __future__ import annotations

import mailbox
from pathlib import Path

from typer.testing import CliRunner

from mailmoat.demo import demo_messages
from mailmoat.entrypoints.cli.main import app
from mailmoat.mail.importer import iter_messages
from mailmoat.services.bootstrap import open_store
from mailmoat.services.imports import import_path

runner = CliRunner()


def make_tree(root: Path) -> int:
    raws = demo_messages()
    (root / "eml").mkdir(parents=True)
    for n, raw in enumerate(raws[:4]):
        (root / "eml" / f"{n}.eml").write_bytes(raw)
    maildir = mailbox.Maildir(str(root / "Maildir"), create=True)
    for raw in raws[4:8]:
        maildir.add(raw)
    box = mailbox.mbox(str(root / "archive.mbox"))
    for raw in raws[8:12]:
        box.add(raw)
    box.flush()
    return 12


def test_every_container_kind_is_read(tmp_path: Path) -> None:
    expected = make_tree(tmp_path)
    found = list(iter_messages(tmp_path))
    origins = sorted(getattr(f, "origin", "error") for f in found)
    assert len(found) == expected
    assert origins.count("eml") == 4
    assert origins.count("maildir") == 4
    assert origins.count("mbox") == 4


def test_import_twice_adds_nothing(tmp_path: Path) -> None:
    make_tree(tmp_path / "mail")
    store = open_store(f"sqlite:///{tmp_path / 'db.sqlite'}")
    first = import_path(store, tmp_path / "mail")
    second = import_path(store, tmp_path / "mail")
    assert (first.imported, first.already_present) == (12, 0)
    assert (second.imported, second.already_present) == (0, 12)
    assert store.count() == 12


def test_unreadable_and_stray_files_are_reported_not_fatal(tmp_path: Path) -> None:
    mail = tmp_path / "mail"
    mail.mkdir()
    raws = demo_messages()
    (mail / "a.eml").write_bytes(raws[0])
    (mail / "notes.txt").write_text("just some notes, no headers\n")
    locked = mail / "locked.eml"
    locked.write_bytes(raws[1])
    locked.chmod(0)
    (mail / "z.eml").write_bytes(raws[2])
    store = open_store(f"sqlite:///{tmp_path / 'db.sqlite'}")
    summary = import_path(store, mail)
    locked.chmod(0o600)
    assert [s.where.endswith("notes.txt") for s in summary.skipped] == [True]
    # As root the unreadable file is still readable; either way nothing else is lost.
    assert summary.imported + len(summary.failed) == 3
    assert store.count() == summary.imported >= 2


def test_cli_import(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    make_tree(tmp_path / "mail")
    monkeypatch.setenv("MAILMOAT_DATABASE_URL", f"sqlite:///{tmp_path / 'db.sqlite'}")
    first = runner.invoke(app, ["import", str(tmp_path / "mail")])
    assert first.exit_code == 0, first.output
    assert "imported 12" in first.output
    second = runner.invoke(app, ["import", str(tmp_path / "mail")])
    assert "imported 0, already present 12" in second.output
    missing = runner.invoke(app, ["import", str(tmp_path / "nope")])
    assert missing.exit_code == 2 and "no such file" in missing.output
