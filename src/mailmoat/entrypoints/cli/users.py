"""`mailmoat user add|grant|passwd|list`, and the first-run setup link `mailmoat up` prints."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

import typer

from mailmoat.entrypoints.cli import common

if TYPE_CHECKING:  # the store and FastAPI load only when a user command runs (CLI start-up)
    from mailmoat.store.messages import Store

users_app = typer.Typer(help="Web sign-in accounts (argon2 password hashes).",
                        no_args_is_help=True)
console = common.console


def _password(password: str | None) -> str:
    from mailmoat.entrypoints.web.security.auth import PasswordTooWeak, hash_password

    value = password if password is not None else typer.prompt(
        "password", hide_input=True, confirmation_prompt=True)
    try:
        return hash_password(value)
    except PasswordTooWeak as exc:
        console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from exc


@users_app.command("add")
def add(
    username: str = typer.Argument(..., help="the sign-in name"),
    account: list[str] = typer.Option(
        None, "--account", "-a",
        help="mail account(s) this user may read; default: 'local' for the first user, "
             "else the user name"),
    password: str | None = typer.Option(
        None, "--password", help="the password (prefer the prompt or MAILMOAT_NEW_PASSWORD)",
        hidden=True, envvar="MAILMOAT_NEW_PASSWORD"),
) -> None:
    """Create a user; prompts for the password twice."""
    from mailmoat.services.people import default_accounts
    from mailmoat.store.users import UserExists

    people = common.repos()
    accounts = account or (default_accounts(people.store) if people.users.count() == 0
                           else [username])
    try:
        people.users.create(username, _password(password), accounts)
    except UserExists as exc:
        console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from exc
    console.print(f"user {username} created; may read: {', '.join(accounts)}")


@users_app.command("grant")
def grant(
    username: str = typer.Argument(...),
    account: str = typer.Argument(..., help="a mail account name (see mailmoat account list)"),
) -> None:
    """Let a user read one more mail account."""
    if not common.repos().users.grant(username, account):
        console.print(f"[red]error:[/red] no user {username!r}")
        raise typer.Exit(2)
    console.print(f"{username} may now read {account}")


@users_app.command("passwd")
def passwd(
    username: str = typer.Argument(...),
    password: str | None = typer.Option(None, hidden=True, envvar="MAILMOAT_NEW_PASSWORD"),
) -> None:
    """Set a new password; signs that user out everywhere."""
    people = common.repos()
    user = people.users.get(username)
    if user is None:
        console.print(f"[red]error:[/red] no user {username!r}")
        raise typer.Exit(2)
    people.users.set_password(user.id, _password(password))
    console.print(f"password changed for {username}; their sessions ended")


@users_app.command("list")
def list_users() -> None:
    """List users and the accounts each may read."""
    people = common.repos()
    for name in sorted(people.users.names()):
        user = people.users.get(name)
        console.print(f"{name}: {', '.join(user.accounts) if user else ''}")


def setup_link(store: Store, host: str, port: int) -> str | None:
    """With no user yet: a one-time token for /setup, printed once on the console."""
    from mailmoat.entrypoints.web.app import SETUP_TOKEN_SECRET
    people = common.repos(store)
    if people.users.count() > 0:
        return None
    # In the database, not in this process: every web process accepts the same link.
    token = people.secrets.get(SETUP_TOKEN_SECRET, lambda: secrets.token_urlsafe(24))
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    console.print("[bold]No user yet.[/bold] Choose your password here (one-time link): "
                  f"http://{shown}:{port}/setup?token={token}")
    console.print("(or stop and run: mailmoat user add NAME)")
    return token


app = users_app  # the group as main.py registers it
