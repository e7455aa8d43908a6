"""`mailmoat backup FILE` and `mailmoat restore FILE`: the database and the key ring in one
archive (services/backup.py; docs/backup.md)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.markup import escape

from mailmoat.entrypoints.cli import common

console = common.console


def backup(
    file: Path = typer.Argument(..., help="the archive to write, e.g. mailmoat-backup.tar.gz"),
    force: bool = typer.Option(False, "--force", help="replace FILE if it exists"),
    with_key: bool = typer.Option(True, "--with-key/--without-key",
                                  help="include the key ring that opens the sealed secrets "
                                       "(without it, keep the key safe yourself)"),
) -> None:
    """Back up the database (a consistent snapshot, while mailmoat runs) and the key ring."""
    from mailmoat.services.backup import BackupError, create_backup

    try:
        report = create_backup(file, force=force, with_key=with_key)
    except BackupError as exc:
        raise common.fail(exc) from None
    rows = sum(report.tables.values())
    console.print(f"backed up {report.database} at revision {report.revision}: "
                  f"{rows:,} rows in {len(report.tables)} tables"
                  + (f", key ring ({len(report.key_ids)} key(s))" if report.key_ids else
                     ", no key ring") + f" -> {escape(str(report.path))} "
                  f"({report.size:,} bytes, mode 0600)", soft_wrap=True)
    if report.key_ids:
        console.print("the archive holds the key that opens your account passwords: keep it "
                      "as safe as the passwords themselves", soft_wrap=True)


def restore(
    file: Path = typer.Argument(..., help="an archive `mailmoat backup` wrote"),
    force: bool = typer.Option(False, "--force", help="replace a database that holds data and "
                               "a key file with other keys (the old files are kept aside)"),
    check: bool = typer.Option(False, "--check", help="only verify the archive"),
) -> None:
    """Restore the database and the key ring from a backup; verifies the archive first.
    Stop `mailmoat up`, sync and workers before restoring."""
    from mailmoat.services.backup import BackupError, restore_backup, verify_backup

    try:
        if check:
            manifest = verify_backup(file)
            db = manifest["database"]
            console.print(f"{escape(str(file))}: intact; {db['kind']} at revision "
                          f"{db['revision']}, {sum(db['tables'].values()):,} rows, made "
                          f"{manifest['created_at']} by mailmoat {manifest['mailmoat']}"
                          + ("" if manifest.get("key") else "; no key ring"), soft_wrap=True)
            return
        report = restore_backup(file, force=force)
    except BackupError as exc:
        raise common.fail(exc) from None
    console.print(f"restored {report.database} at revision {report.revision} into "
                  f"{escape(report.target)}: {sum(report.tables.values()):,} rows"
                  + (f"; key ring -> {escape(str(report.key_file))}" if report.key_file else ""),
                  soft_wrap=True)
    console.print(f"sealed secrets opened: {report.secrets_opened}")
    for aside in report.kept:
        console.print(f"kept the old {escape(str(aside))}", soft_wrap=True)
    for note in report.notes:
        console.print(f"note: {escape(note)}", soft_wrap=True)
