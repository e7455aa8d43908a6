"""What every command group shares: one Console (and its stderr twin), the error exit, the
acting person, and opening the store, the key ring and the people repositories through
services/bootstrap.py."""

from __future__ import annotations

import getpass
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Protocol

import typer
from rich.console import Console
from rich.markup import escape

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from mailmoat.accounts.secrets import KeyRing
    from mailmoat.judge.cascade import Scorer
    from mailmoat.judge.config import LLMConfig
    from mailmoat.store.messages import Store
    from mailmoat.store.repos import Repos

console = Console()
err = Console(stderr=True)


def fail(message: object, code: int = 2) -> typer.Exit:
    """Print `message` as an error on stderr; raise the returned Exit."""
    err.print(f"[red]error:[/red] {escape(str(message))}")
    return typer.Exit(code)


class Meter(Protocol):
    def update(self, description: str | None = None, completed: int | None = None,
               total: int | None = None, advance: int = 0) -> None: ...


class PlainMeter:
    """Progress for logs and pipes: plain lines, at most one every `every` seconds and the
    last one when the work ends (a bar would print nothing useful there)."""

    def __init__(self, description: str, total: int | None, *, out: Console | None = None,
                 every: float = 2.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.description, self.total, self.done = description, total, 0
        self._out, self._every, self._clock = out or console, every, clock
        self._last: float | None = None
        self._shown: tuple[str, int, int | None] | None = None

    def update(self, description: str | None = None, completed: int | None = None,
               total: int | None = None, advance: int = 0) -> None:
        self.description = description or self.description
        self.total = self.total if total is None else total
        self.done = (self.done if completed is None else completed) + advance
        now = self._clock()
        if self._last is None or now - self._last >= self._every:
            self._line()
            self._last = now

    def close(self) -> None:
        if self.done and self._shown != (self.description, self.done, self.total):
            self._line()

    def _line(self) -> None:
        self._shown = (self.description, self.done, self.total)
        if self.total and self.done <= self.total:  # an estimate (files) can fall short
            of = f" of {self.total:,} ({100 * self.done // self.total}%)"
        else:
            of = ""
        self._out.print(f"{escape(self.description)}: {self.done:,}{of}", highlight=False,
                        soft_wrap=True)


class _BarMeter:
    def __init__(self, bar: Any, task: Any) -> None:
        self._bar, self._task = bar, task

    def update(self, description: str | None = None, completed: int | None = None,
               total: int | None = None, advance: int = 0) -> None:
        fields: dict[str, Any] = {"advance": advance}
        if description is not None:
            fields["description"] = description
        if completed is not None:
            fields["completed"] = completed
        if total is not None:
            fields["total"] = total
        self._bar.update(self._task, **fields)


@contextmanager
def progress(description: str, total: int | None = None) -> Iterator[Meter]:
    """A progress bar on a terminal (gone when done), plain lines everywhere else."""
    if not console.is_terminal:
        meter = PlainMeter(description, total)
        try:
            yield meter
        finally:
            meter.close()
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  console=console, transient=True) as bar:
        yield _BarMeter(bar, bar.add_task(description, total=total))


def me() -> str:
    """Who is acting from this terminal: `cli:<login name>` (or `cli` without one)."""
    try:
        return f"cli:{getpass.getuser()}"
    except Exception:  # no login name in some containers
        return "cli"


def llm_config() -> LLMConfig:
    from mailmoat.judge.config import ConfigError, load_llm_config

    try:
        return load_llm_config()
    except ConfigError as exc:
        console.print(f"[red]config error:[/red] {exc}")
        raise typer.Exit(2) from exc


def open_store(with_scorers: bool = False) -> Store:
    """The store (exit 2 with the reason when it cannot be opened); `with_scorers` attaches
    the configured model, else the scorer learned from the store (what `import`, `up` and
    `sync` judge with)."""
    from mailmoat.services import bootstrap
    from mailmoat.store import StoreError

    try:
        store = bootstrap.open_store()
    except StoreError as exc:
        raise fail(exc) from exc
    if with_scorers:
        store.scorers = cli_scorers(store.engine)
    return store


def account_names(strict: bool = True) -> list[str]:
    """The configured mail accounts' names. A store that cannot be opened exits 2 with the
    reason, or, with `strict=False` (a default that must not fail), reads as none."""
    from mailmoat.accounts.registry import list_accounts
    from mailmoat.services import bootstrap
    from mailmoat.store import StoreError

    try:
        store = open_store() if strict else bootstrap.open_store()
    except StoreError:
        return []
    return [a.name for a in list_accounts(store)]


def cli_scorers(engine: Engine | None = None) -> list[Scorer]:
    """The scorers on a store (services.bootstrap.scorers_for), and for `classify` of a lone
    file: the configured model, else [] (the local scorer)."""
    from mailmoat.services.bootstrap import scorers_for

    config = llm_config()
    if engine is None:
        if not config.configured:
            return []
        engine = open_store().engine
    return scorers_for(engine, config=config)


def repos(store: Store | None = None) -> Repos:
    """The people repositories (store/repos.py) over `store`, else over the store opened
    here, with the key ring that seals their secrets."""
    from mailmoat.store.repos import Repos

    return Repos(store if store is not None else open_store(), sealer=key_ring())


def key_ring() -> KeyRing:
    from mailmoat.accounts.secrets import SecretKeyError
    from mailmoat.services.bootstrap import key_ring as load

    try:
        return load()
    except SecretKeyError as exc:
        raise fail(exc) from None
