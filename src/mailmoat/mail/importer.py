"""Read raw messages from disk: one .eml file, a directory tree, a Maildir, or an mbox file.

A file that cannot be read is reported and skipped; it never stops the rest of the import.
Only regular files are opened (a named pipe, socket or device never is, so nothing can hang
the import), and only what sniffs as RFC 822 mail is imported: binaries, JSON, empty files
and other text are skipped, each with its reason.
"""

from __future__ import annotations

import mailbox
import os
import re
import stat
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
# At least one field every real message carries, at the start of a line of the header block.
_MAIL_FIELD = re.compile(
    rb"(?im)^(?:from|to|subject|date|message-id|received|return-path|mime-version|"
    rb"delivered-to|sender|reply-to|cc|content-type|x-mailer|dkim-signature)[ \t]*:")
SNIFF_BYTES = 16 * 1024


def why_not_mail(raw: bytes) -> str | None:
    """None when `raw` reads as an RFC 822 message; otherwise why not, for the report."""
    if not raw.strip():
        return "empty file"
    head = raw.lstrip(b"\r\n")[:SNIFF_BYTES]
    end = min((i for i in (head.find(b"\n\n"), head.find(b"\r\n\r\n")) if i >= 0),
              default=len(head))
    block = head[:end]
    if b"\x00" in block:
        return "binary file (NUL bytes in the header block)"
    if not _HEADER_LINE.match(block[:100]):
        return "not an email (no header line)"
    if not _MAIL_FIELD.search(block):
        return "not an email (no From, To, Subject, Date or other mail header)"
    return None


def looks_like_mail(raw: bytes) -> bool:
    return why_not_mail(raw) is None


class ImportPathError(ValueError):
    """The path does not exist or is not something we can import."""


MBOX_MAGIC = b"From "


def is_maildir(path: Path) -> bool:
    return path.is_dir() and all((path / sub).is_dir() for sub in ("cur", "new", "tmp"))


def _kind(path: Path) -> str | None:
    """None for a regular file (symlinks followed); otherwise what it is, for the report."""
    try:
        mode = path.stat().st_mode
    except OSError as exc:
        return f"unreadable: {exc.strerror or type(exc).__name__}"
    if stat.S_ISREG(mode):
        return None
    for test, name in ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISDIR, "a directory")):
        if test(mode):
            return f"not a regular file ({name})"
    return "not a regular file"


def _read_regular(path: Path, limit: int | None = None) -> bytes:
    """The bytes of a regular file. Opened without blocking and checked again once open, so
    a file swapped for a pipe after the check cannot hang the read either."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path}: not a regular file")
        with os.fdopen(fd, "rb", closefd=False) as handle:
            return handle.read() if limit is None else handle.read(limit)
    finally:
        os.close(fd)


def is_mbox(path: Path) -> bool:
    if _kind(path) is not None:
        return False
    try:
        return _read_regular(path, 5) == MBOX_MAGIC
    except OSError:
        return False


def _read_file(path: Path) -> Found | ReadError:
    kind = _kind(path)
    if kind is not None:
        return ReadError(str(path), kind, skipped=True)
    try:
        raw = _read_regular(path)
    except OSError as exc:
        return ReadError(str(path), f"{type(exc).__name__}: {exc.strerror or exc}")
    why = why_not_mail(raw)
    if why is not None:
        return ReadError(str(path), why, skipped=True)
    return Found(raw, "eml", str(path))


def _maildir(path: Path) -> Iterator[Found | ReadError]:
    for sub in ("new", "cur"):
        for file in sorted((path / sub).iterdir()):
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
            raw = box.get_bytes(key)
        except Exception as exc:
            yield ReadError(where, f"{type(exc).__name__}")
            continue
        why = why_not_mail(raw)
        yield Found(raw, "mbox", where) if why is None else ReadError(where, why, skipped=True)


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
            yield _read_file(file)


def iter_messages(path: Path) -> Iterator[Found | ReadError]:
    """Every message under `path`, in a stable order, with errors reported in line."""
    if not path.exists():
        raise ImportPathError(f"no such file or directory: {path}")
    if is_maildir(path):
        yield from _maildir(path)
    elif is_mbox(path):
        yield from _mbox(path)
    elif path.is_dir():
        yield from _tree(path)
    elif _kind(path) is None:
        yield _read_file(path)
    else:
        raise ImportPathError(f"{path}: {_kind(path)}; import reads files and directories")


def count_messages(path: Path) -> int:
    """A cheap estimate for the progress bar (files, not mbox entries)."""
    if not path.is_dir():
        return 1
    return sum(1 for p in path.rglob("*") if _kind(p) is None)
