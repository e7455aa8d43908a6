"""Read raw messages from disk: one .eml file, a directory tree, a Maildir, or an mbox file.

A file that cannot be read is reported and skipped; it never stops the rest of the import.
"""

from __future__ import annotations

import mailbox
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Found:
    raw: bytes
    origin: str  # "eml" | "maildir" | "mbox"
    where: str  # the file (and mbox index) it came from, for error reports


@dataclass(frozen=True, slots=True)
class ReadError:
    where: str
    error: str
    skipped: bool = False  # not mail at all (a stray file in a directory), not a failure


# The first line of a message is a header field ("Name: value") or an mbox "From " line.
_HEADER_LINE = re.compile(rb"^(?:[\x21-\x39\x3b-\x7e]{1,76}:|From )")


def looks_like_mail(raw: bytes) -> bool:
    return bool(_HEADER_LINE.match(raw.lstrip(b"\r\n")[:100]))


class ImportPathError(ValueError):
    """The path does not exist or is not something we can import."""


MBOX_MAGIC = b"From "


def is_maildir(path: Path) -> bool:
    return path.is_dir() and all((path / sub).is_dir() for sub in ("cur", "new", "tmp"))


def is_mbox(path: Path) -> bool:
    if not path.is_file():
        return False
    try:
        with path.open("rb") as handle:
            return handle.read(5) == MBOX_MAGIC
    except OSError:
        return False


def _read_file(path: Path) -> Found | ReadError:
    try:
        return Found(path.read_bytes(), "eml", str(path))
    except OSError as exc:
        return ReadError(str(path), f"{type(exc).__name__}: {exc.strerror or exc}")


def _maildir(path: Path) -> Iterator[Found | ReadError]:
    for sub in ("new", "cur"):
        for file in sorted((path / sub).iterdir()):
            if file.is_file():
                found = _read_file(file)
                if isinstance(found, Found):
                    found = Found(found.raw, "maildir", found.where)
                yield found


def _mbox(path: Path) -> Iterator[Found | ReadError]:
    try:
        box = mailbox.mbox(str(path), create=False)
        keys = list(box.iterkeys())
    except Exception as exc:
        yield ReadError(str(path), f"unreadable mbox: {type(exc).__name__}")
        return
    for index, key in enumerate(keys):
        where = f"{path}#{index}"
        try:
            yield Found(box.get_bytes(key), "mbox", where)
        except Exception as exc:
            yield ReadError(where, f"{type(exc).__name__}")


def _tree(root: Path) -> Iterator[Found | ReadError]:
    """A directory of mail: nested Maildirs are read as Maildirs, other files as .eml/mbox."""
    for current, dirs, files in os.walk(root):
        here = Path(current)
        if is_maildir(here):
            dirs[:] = []
            yield from _maildir(here)
            continue
        dirs.sort()
        for name in sorted(files):
            file = here / name
            if name.startswith("."):
                continue
            if is_mbox(file):
                yield from _mbox(file)
                continue
            found = _read_file(file)
            if isinstance(found, Found) and not looks_like_mail(found.raw):
                found = ReadError(str(file), "not an email (no header line)", skipped=True)
            yield found


def iter_messages(path: Path) -> Iterator[Found | ReadError]:
    """Every message under `path`, in a stable order, with errors reported in line."""
    if not path.exists():
        raise ImportPathError(f"no such file or directory: {path}")
    if is_maildir(path):
        yield from _maildir(path)
    elif is_mbox(path):
        yield from _mbox(path)
    elif path.is_file():
        yield _read_file(path)
    elif path.is_dir():
        yield from _tree(path)
    else:
        raise ImportPathError(f"not a file or directory: {path}")


def count_messages(path: Path) -> int:
    """A cheap estimate for the progress bar (files, not mbox entries)."""
    if path.is_file():
        return 1
    return sum(1 for p in path.rglob("*") if p.is_file())
