"""Every path to a floor action goes through the one guarded executor.

A static scan of src/mailmoat: the primitives that can send mail or destroy it (smtplib,
aiosmtplib, IMAP EXPUNGE, the mail.smtp transport) may appear only where listed below, and
the modules that may start the executor are enumerated. A new module that reaches any of
them — a new CLI command, API route, job, MCP tool — fails this test until it is reviewed
and added here, on purpose.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "mailmoat"

SEND_MODULES = {"smtplib", "aiosmtplib"}
# Calls that send or destroy mail when made on a transport or an IMAP client.
FLOOR_CALLS = {"sendmail", "send_message", "expunge", "uid_expunge", "submit"}
TRANSPORT_MODULE = "mailmoat.mail.smtp"
EXECUTOR_MODULES = ("mailmoat.act.executor", "mailmoat.services.outbox")

# The only places allowed to touch each primitive.
ALLOWED_SEND_IMPORTS = {"mail/smtp.py"}
ALLOWED_FLOOR_CALLS = {"mail/smtp.py", "act/executor.py"}
# Reviewed uses of a floor primitive outside the executor, each with why it destroys nothing.
REVIEWED_FLOOR_CALLS = {
    ("mail/server_actions.py", "uid_expunge"): "folder move on a server without MOVE: "
    "UID EXPUNGE of exactly the UIDs just COPYed to the destination (UIDPLUS), a move",
    ("mail/parse_pool.py", "submit"): "concurrent.futures: hands fetched bytes to a parse "
    "worker process; no transport or IMAP client is reachable from it",
    ("mail/sync.py", "submit"): "concurrent.futures: the sync's fetch thread (BODY.PEEK "
    "fetches) and the parse pool; nothing is sent or deleted",
}
ALLOWED_TRANSPORT_IMPORTS = {"act/executor.py", "services/outbox.py"}
# Entry points that may run the executor, and what they are.
EXECUTOR_ENTRY_POINTS = {
    "services/outbox.py": "builds the executor over the accounts' transports, for the worker "
    "process (`python -m mailmoat.entrypoints.worker`), the jobs and the sync pass",
    "entrypoints/worker.py": "the executor process: `python -m mailmoat.entrypoints.worker`",
    "services/sync_pass.py": "every sync pass drains the outbox after the AUTO sweep",
    "entrypoints/cli/actions.py": "`mailmoat actions run` (calls the worker)",
    "services/jobs.py": "the `run_outbox` job body (builds the worker's executor) that the "
    "huey task (entrypoints/jobs.py: at start and every minute) and the Dramatiq actor "
    "(entrypoints/queue.py: queued by `mailmoat scheduler`) run",
    "eval/agentdojo_bridge.py": "the AgentDojo eval: runs what a person approved in the replay "
    "(SMTP test server in tests, an in-memory transport in `mailmoat report`)",
}
# The executor never asks a model: nothing from the model path may be imported there.
MODEL_MODULES = ("mailmoat.judge", "mailmoat.act.auto", "openai", "httpx")


@dataclass(frozen=True)
class Use:
    module: str  # path relative to src/mailmoat
    kind: str  # import | call | name
    what: str
    line: int


def _imports(node: ast.AST) -> Iterator[str]:
    if isinstance(node, ast.Import):
        for alias in node.names:
            yield alias.name
    elif isinstance(node, ast.ImportFrom) and node.module:
        yield node.module
        for alias in node.names:
            yield f"{node.module}.{alias.name}"


def scan(root: Path) -> list[Use]:
    uses: list[Use] = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            for name in _imports(node):
                uses.append(Use(rel, "import", name, node.lineno))  # type: ignore[attr-defined]
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                uses.append(Use(rel, "call", node.func.attr, node.lineno))
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and (node.value in SEND_MODULES or node.value.startswith(TRANSPORT_MODULE))):
                uses.append(Use(rel, "import", node.value, node.lineno))  # dynamic import
            if isinstance(node, ast.Name | ast.Attribute):
                name = node.id if isinstance(node, ast.Name) else node.attr
                if name == "Executor":
                    uses.append(Use(rel, "name", name, node.lineno))
    return uses


def violations(uses: list[Use]) -> list[str]:
    found = []
    for use in uses:
        top = use.what.split(".")[0]
        if use.kind == "import" and top in SEND_MODULES and use.module not in ALLOWED_SEND_IMPORTS:
            found.append(f"{use.module}:{use.line} imports {use.what}")
        if (use.kind == "import" and use.what.startswith(TRANSPORT_MODULE)
                and use.module not in ALLOWED_TRANSPORT_IMPORTS | {"mail/smtp.py"}):
            found.append(f"{use.module}:{use.line} imports the floor transport {use.what}")
        if (use.kind == "call" and use.what in FLOOR_CALLS and use.module not in ALLOWED_FLOOR_CALLS
                and (use.module, use.what) not in REVIEWED_FLOOR_CALLS):
            found.append(f"{use.module}:{use.line} calls .{use.what}()")
    return found


def executor_users(uses: list[Use]) -> set[str]:
    return {
        u.module for u in uses
        if u.module != "act/executor.py"
        and ((u.kind == "import" and u.what.startswith(EXECUTOR_MODULES))
             or (u.kind == "name" and u.what == "Executor"))
    }


def test_floor_primitives_appear_only_behind_the_executor() -> None:
    assert violations(scan(SRC)) == []


def test_entry_points_that_run_the_executor_are_enumerated() -> None:
    assert executor_users(scan(SRC)) == set(EXECUTOR_ENTRY_POINTS)


def test_the_executor_consults_no_model() -> None:
    for module in ("act/executor.py", "mail/smtp.py", "services/outbox.py"):
        imported = [u.what for u in scan(SRC) if u.module == module and u.kind == "import"]
        assert not [m for m in imported if m.startswith(MODEL_MODULES)], module


def test_api_and_cli_proposals_reach_floor_actions_only_through_the_outbox() -> None:
    """The API may propose/approve (which enqueues); it may not import the executor."""
    uses = scan(SRC)
    for module in ("entrypoints/web/routes/actions.py", "act/service.py", "act/auto.py"):
        assert (SRC / module).exists(), module
        assert module not in executor_users(uses), module
        assert not [u for u in uses if u.module == module and u.kind == "import"
                    and u.what.startswith(TRANSPORT_MODULE)], module


def test_the_scan_catches_a_new_bypass(tmp_path: Path) -> None:
    """The scanner itself can fail: plant each kind of bypass and watch it report."""
    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "shortcut.py").write_text(
        "import smtplib\n"
        "import importlib\n"
        "mod = importlib.import_module('aiosmtplib')\n"
        "def go(client, t):\n"
        "    client.uid_expunge([1])\n"
        "    t.submit(b'', 'x@y')\n"
    )
    (tmp_path / "mcp.py").write_text("from mailmoat.act.executor import Executor\n")
    (tmp_path / "jobs.py").write_text("from mailmoat.mail.smtp import MailTransport\n")
    uses = scan(tmp_path)
    where = {v.split(" ")[0] for v in violations(uses)}
    assert where == {"web/shortcut.py:1", "web/shortcut.py:3", "web/shortcut.py:5",
                     "web/shortcut.py:6", "jobs.py:1"}
    assert executor_users(uses) == {"mcp.py"}
