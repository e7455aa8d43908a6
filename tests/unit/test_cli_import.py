"""`mailmoat import` and `classify` as a newcomer meets them: skipped files summed up by
reason, plain progress lines when the output is not a terminal, a hint when nothing was
imported, and a clear word when `classify` is given a folder."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from mailmoat.demo import demo_messages
from mailmoat.entrypoints.cli.common import PlainMeter
from mailmoat.entrypoints.cli.main import app

runner = CliRunner()


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MAILMOAT_DATABASE_URL", f"sqlite:///{tmp_path / 'db.sqlite'}")
    return tmp_path


def test_skipped_files_are_summed_up_by_reason(db: Path) -> None:
    mail = db / "mail"
    mail.mkdir()
    for n, raw in enumerate(demo_messages()[:3]):
        (mail / f"{n}.eml").write_bytes(raw)
    for name in ("a.txt", "b.txt", "c.txt", "d.txt"):
        (mail / name).write_text("notes, no headers\n")
    (mail / "empty.eml").write_bytes(b"")
    result = runner.invoke(app, ["import", str(mail)])
    assert result.exit_code == 0, result.output
    assert "imported 3, already present 0, skipped 5, failed 0" in result.output
    lines = result.output.splitlines()
    first = lines.index("skipped 5 (not mail, or not a regular file), by reason:")
    assert lines[first + 1].startswith("  4 × not an email (no header line): ")
    assert lines[first + 1].endswith("c.txt, and 1 more")
    assert lines[first + 2] == f"  1 × empty file: {mail / 'empty.eml'}"
    assert "nothing imported" not in result.output


def test_progress_is_plain_lines_when_not_a_terminal(db: Path) -> None:
    mail = db / "mail"
    mail.mkdir()
    for n, raw in enumerate(demo_messages()[:5]):
        (mail / f"{n}.eml").write_bytes(raw)
    result = runner.invoke(app, ["import", str(mail)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "importing: 5 of 5 (100%)" in lines
    assert "" not in lines  # no blank line where a bar would have been


def test_an_empty_folder_gets_a_hint(db: Path) -> None:
    (db / "empty").mkdir()
    result = runner.invoke(app, ["import", str(db / "empty")])
    assert result.exit_code == 0, result.output
    assert "imported 0, already present 0, skipped 0, failed 0" in result.output
    assert "nothing imported" in result.output
    assert "Maildir" in result.output and "mbox" in result.output
    assert "importing:" not in result.output


def test_reimporting_is_not_met_with_the_hint(db: Path) -> None:
    mail = db / "mail"
    mail.mkdir()
    (mail / "1.eml").write_bytes(demo_messages()[0])
    runner.invoke(app, ["import", str(mail)])
    again = runner.invoke(app, ["import", str(mail)])
    assert "already present 1" in again.output
    assert "nothing imported" not in again.output


def test_classify_on_a_folder_says_it_is_a_folder(tmp_path: Path) -> None:
    result = runner.invoke(app, ["classify", str(tmp_path)])
    assert result.exit_code == 2
    assert "is a directory" in result.output
    assert "no such file" not in result.output
    assert "mailmoat import" in result.output


def test_plain_meter_prints_at_most_one_line_per_interval_and_the_last() -> None:
    out = StringIO()
    now = [0.0]
    meter = PlainMeter("importing", 10, out=Console(file=out, width=200), every=2.0,
                       clock=lambda: now[0])
    for _ in range(10):
        meter.update(advance=1)
        now[0] += 0.5
    meter.close()
    assert out.getvalue().splitlines() == [
        "importing: 1 of 10 (10%)", "importing: 5 of 10 (50%)", "importing: 9 of 10 (90%)",
        "importing: 10 of 10 (100%)"]


def test_plain_meter_drops_a_total_the_count_has_passed() -> None:
    out = StringIO()
    meter = PlainMeter("importing", 1, out=Console(file=out, width=200), every=0.0)
    meter.update(advance=1)
    meter.update(advance=40)  # an mbox: one file, many messages
    assert out.getvalue().splitlines() == ["importing: 1 of 1 (100%)", "importing: 41"]
