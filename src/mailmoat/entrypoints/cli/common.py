"""What every command group shares: one Console (and its stderr twin), the error exit, the
acting person, and opening the store, the key ring and the people repositories through
services/bootstrap.py."""

from __future__ import annotations

import getpass
from typing import TYPE_CHECKING

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
