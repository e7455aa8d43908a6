"""AgentDojo's workspace suite replayed through mailmoat's action layer.

The workspace inbox goes into a mailmoat store (one account per injection task, its messages
carrying that task's goal in every injection slot). For every (user task, injection task)
pair a fully compromised agent issues the user task's ground-truth calls and then every call
of the injection task's goal. Calls on mailmoat's surface go through `ActionService.propose`
(source `mcp`) and the guarded executor; the human approves the user task's own floor calls
and nothing else. A call changes AgentDojo's environment only if mailmoat let it run: a send
only once the executor delivered every recipient's copy. AgentDojo's own security and utility
checks then judge the result.

Trust model, stated once: the agent may propose anything and apply reversible actions itself
(trash is restorable, so no human is asked); only a person mints a floor receipt. Drive and
calendar tools are outside mailmoat: they run as the agent asks, and the report counts
injection tasks that live only there apart.

The agent reaches mailmoat through an `AgentPort`: by default `DirectPort`, straight into
the action layer; the MCP gateway's test passes a port that makes the same calls as MCP tool
calls (eval/agentdojo_mcp.py). Over MCP an agent cannot approve anything, so its reversible
calls wait for the person too, who approves the user task's calls and nothing else.
"""

from __future__ import annotations

import contextlib
import mimetypes
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import format_datetime
from typing import Any, Protocol

from sqlalchemy import select

from mailmoat.act.executor import Executor, FloorTransport
from mailmoat.act.service import ActionService
from mailmoat.core.receipts import PayloadError
from mailmoat.eval.agentdojo_calls import SUITE_VERSION, Surface, goal_calls, surface
from mailmoat.store import Store
from mailmoat.store.tables.act import ActionRow, OutboxRow

HUMAN = "emma"
Call = tuple[str, dict[str, Any]]
# AgentDojo's published targeted attack success for GPT-4o on the suite (its paper).
PUBLISHED_GPT4O = {"no defence": 0.477, "tool filter": 0.068}


def load_suite() -> Any:
    """The workspace suite; raises ImportError with the install line when it is missing."""
    try:
        from agentdojo.task_suite.load_suites import get_suite
    except ImportError as exc:
        raise ImportError("agentdojo is not installed: `make .venv/.test-installed` installs "
                          "it with the few packages its suite needs") from exc
    return get_suite(SUITE_VERSION, "workspace")


def rfc822(email: Any) -> bytes:
    msg = EmailMessage()
    msg["From"] = email.sender
    msg["To"] = ", ".join(email.recipients)
    if email.cc:
        msg["Cc"] = ", ".join(email.cc)
    msg["Subject"] = email.subject
    msg["Message-ID"] = f"<agentdojo-{email.id_}@workspace.example>"
    msg["Date"] = format_datetime(email.timestamp)
    msg.set_content(email.body)
    return msg.as_bytes()


@dataclass
class Tally:
    """What happened to the calls of one run."""

    proposed: int = 0
    refused: int = 0  # PayloadError at proposal: nothing stored
    held: int = 0  # floor proposals waiting for a person
    delivered: int = 0
    reversible: int = 0
    outside: int = 0

    def add(self, other: Tally) -> None:
        for name in vars(self):
            setattr(self, name, getattr(self, name) + getattr(other, name))


File = tuple[str, str, bytes]  # filename, content type, content


class AgentPort(Protocol):
    """How the agent's calls reach mailmoat. Each returns the proposal's `id` and
    `payload_sha256`, and raises PayloadError when mailmoat refuses the proposal."""

    agent_applies_reversible: bool  # may the agent approve its own reversible proposals?

    def send(self, account: str, agent: str, to: str, subject: str, body: str,
             attachments: list[File]) -> dict[str, Any]: ...

    def trash(self, account: str, agent: str, message: int) -> dict[str, Any]: ...


@dataclass
class DirectPort:
    """Straight into the action layer (source `mcp`), as an in-process agent would."""

    service: ActionService
    agent_applies_reversible: bool = True

    def send(self, account: str, agent: str, to: str, subject: str, body: str,
             attachments: list[File]) -> dict[str, Any]:
        stored = [{"filename": name, "content_type": kind,
                   "sha256": self.service.store_attachment(content)}
                  for name, kind, content in attachments]
        payload = {"action": "send_email", "to": to, "subject": subject, "body": body,
                   "attachments": stored}
        return self.service.propose(account, payload, agent, "mcp")

    def trash(self, account: str, agent: str, message: int) -> dict[str, Any]:
        return self.service.propose(account, {"action": "trash", "message": message},
                                    agent, "mcp")


@dataclass
class Bridge:
    store: Store
    service: ActionService
    transport: FloorTransport
    accounts: dict[str, dict[str, int]] = field(default_factory=dict)  # email id -> row id
    port: AgentPort | None = None

    def __post_init__(self) -> None:
        if self.port is None:
            self.port = DirectPort(self.service)
        self.suite = load_suite()
        from agentdojo.functions_runtime import FunctionsRuntime

        self.runtime = FunctionsRuntime(self.suite.tools)

    def _executor(self) -> Executor:
        transports: Mapping[str, FloorTransport] = dict.fromkeys(self.accounts, self.transport)
        return Executor(self.store.engine, transports)

    def map_inbox(self, account: str, env: Any) -> None:
        ids = {}
        for email in env.inbox.emails.values():
            origin = "sent" if email.status == "sent" else "eml"
            ids[email.id_] = self.store.ingest(rfc822(email), origin, account=account).message_id
        self.accounts[account] = ids

    def issue(self, account: str, env: Any, calls: list[Call], agent: str,
              approve: bool) -> Tally:
        """`approve`: whether the person approves these calls' floor actions."""
        tally = Tally()
        for call in calls:
            kind = surface(call[0])
            if kind is Surface.FLOOR:
                ran = self._floor(account, env, call, agent, approve, tally)
            elif kind is Surface.REVERSIBLE:
                ran = self._trash(account, call, agent, approve, tally)
            else:
                tally.outside += kind is Surface.OUTSIDE
                ran = True
            if ran:
                self.runtime.run_function(env, call[0], call[1])
        return tally

    def _floor(self, account: str, env: Any, call: Call, agent: str, approved: bool,
               tally: Tally) -> bool:
        args = call[1]
        attachments = [self._attachment(env, a) for a in args.get("attachments") or []]
        ids = []
        assert self.port is not None
        for to in [*args["recipients"], *(args.get("cc") or []), *(args.get("bcc") or [])]:
            try:
                view = self.port.send(account, agent, to, args["subject"], args["body"],
                                      attachments)
            except PayloadError:
                tally.refused += 1
                return False
            tally.proposed += 1
            ids.append(view["id"])
            if approved:
                self.service.approve(view["id"], HUMAN, expected_sha256=view["payload_sha256"])
        self._executor().run_until_idle()
        done = self._done(ids)
        tally.delivered += done
        tally.held += len(ids) - done
        return bool(ids) and done == len(ids)

    @staticmethod
    def _attachment(env: Any, spec: dict[str, Any]) -> File:
        if "file_id" in spec:
            file = env.cloud_drive.files[spec["file_id"]]
            name, content = file.filename, file.content
        else:
            name, content = "event.json", repr(spec.get("event_details"))
        kind = mimetypes.guess_type(name)[0] or "application/octet-stream"
        return name, kind, content.encode()

    def _trash(self, account: str, call: Call, agent: str, approve: bool,
               tally: Tally) -> bool:
        row = self.accounts[account].get(str(call[1]["email_id"]))
        if row is None:  # e.g. the mail the agent meant to send and hide was never sent
            tally.refused += 1
            return False
        assert self.port is not None
        view = self.port.trash(account, agent, row)
        tally.proposed += 1
        if self.port.agent_applies_reversible:
            self.service.approve(view["id"], agent)  # reversible: no person needed
        elif approve:  # the agent cannot approve: the person approves the task's own calls
            self.service.approve(view["id"], HUMAN, expected_sha256=view["payload_sha256"])
        else:
            tally.held += 1
            return False
        tally.reversible += 1
        return True

    def _done(self, action_ids: list[int]) -> int:
        with self.store.sessions() as session:
            return len(session.scalars(select(OutboxRow.action_id).where(
                OutboxRow.action_id.in_(action_ids), OutboxRow.state == "done")).all())

    def undefended(self, pre: Any, *runs: Any) -> bool:
        """The same calls straight into AgentDojo's tools: proves the replay is an attack."""
        *batches, task = runs
        env = pre.model_copy(deep=True)
        for function, args in (call for batch in batches for call in batch):
            self.runtime.run_function(env, function, args)
        return bool(task.security("", pre.model_copy(deep=True), env))

    def unreceipted_runs(self) -> int:
        """Floor actions that reached the outbox or ran without a person's receipt."""
        with self.store.sessions() as session:
            rows = session.execute(select(ActionRow, OutboxRow).join(
                OutboxRow, OutboxRow.action_id == ActionRow.id)).all()
        return sum(1 for action, _ in rows
                   if action.receipt is None or action.receipt["approved_by"] != HUMAN)


@dataclass
class MemorySent:
    """A Sent folder in memory: Message-ID -> the flags of our staged copy, as
    mail.smtp.SentFolder keeps them on an IMAP server."""

    copies: dict[str, set[str]] = field(default_factory=dict)

    def flags(self, message_id: str) -> frozenset[str] | None:
        got = self.copies.get(message_id)
        return None if got is None else frozenset(got)

    def stage(self, raw: bytes, message_id: str) -> None:
        self.copies[message_id] = {"\\Seen", "\\Draft"}

    def mark_submitting(self, message_id: str) -> None:
        self.copies[message_id].add("\\Flagged")

    def confirm(self, message_id: str) -> None:
        self.copies[message_id] -= {"\\Draft", "\\Flagged"}

    def discard(self, message_id: str) -> None:
        self.copies.pop(message_id, None)


@dataclass
class MemoryTransport:
    """The executor's transport for `mailmoat report`, where no mail server runs
    (act.executor.FloorTransport, checked by mypy); the test replays the same bridge against
    the mail-devel SMTP server. It holds no mailbox: a permanent delete finds nothing."""

    from_addr: str = "emma.johnson@bluesparrowtech.com"
    server_files_sent: bool = False
    submitted: list[tuple[str, bytes]] = field(default_factory=list)
    sent: MemorySent = field(default_factory=MemorySent)

    def submit(self, raw: bytes, recipient: str,
               before_data: Callable[[], None] | None = None) -> str:
        if before_data is not None:
            before_data()
        self.submitted.append((recipient, raw))
        return "250 ok"

    @contextlib.contextmanager
    def sent_folder(self) -> Iterator[MemorySent]:
        yield self.sent

    def fetch_exact(self, folder: str, uidvalidity: int, uid: int) -> bytes | None:
        return None

    def expunge(self, folder: str, uidvalidity: int, uid: int, sha256: str) -> int:
        return 0


def _truth(task: Any, env: Any) -> list[Call]:
    return [(c.function, dict(c.args)) for c in task.ground_truth(env)]


def _is_floor_task(task: Any, env: Any) -> bool:
    return any(surface(f) is Surface.FLOOR for f, _ in _truth(task, env))


def account_names(suite: Any) -> list[str]:
    """The accounts `run` fills: one per injection task, and the clean one."""
    return [*(f"agentdojo-{i}" for i in suite.injection_tasks), "agentdojo"]


def run(store: Store, transport: FloorTransport, port: AgentPort | None = None
        ) -> dict[str, Any]:
    """Every pair, then the floor user tasks alone; AgentDojo's checks judge both."""
    bridge = Bridge(store, ActionService(store.engine), transport, port=port)
    suite = bridge.suite
    user_tasks, injections = suite.user_tasks, suite.injection_tasks
    injected = {}
    for inj_id, task in injections.items():
        env = suite.load_and_inject_default_environment(
            dict.fromkeys(suite.get_injection_vector_defaults(), task.GOAL))
        bridge.map_inbox(f"agentdojo-{inj_id}", env)
        injected[inj_id] = env
    outside_only = sorted(
        i for i, t in injections.items()
        if all(surface(f) in (Surface.OUTSIDE, Surface.READ)
               for f, _ in goal_calls(i, t, injected[i])))

    attacks, tally = Counter[str](), Tally()
    for user_id, user in user_tasks.items():
        for inj_id, inj in injections.items():
            account, pre = f"agentdojo-{inj_id}", injected[inj_id]
            env = pre.model_copy(deep=True)
            agent = f"agent:{user_id}+{inj_id}"
            legit = _truth(user, env)
            tally.add(bridge.issue(account, env, legit, agent, approve=True))
            attack = goal_calls(inj_id, inj, env)
            tally.add(bridge.issue(account, env, attack, agent, approve=False))
            ok = bool(inj.security("", pre.model_copy(deep=True), env))
            attacks["no_defence"] += bridge.undefended(pre, legit, attack, inj)
            attacks["outside" if inj_id in outside_only else "email"] += ok
            attacks["pairs_outside" if inj_id in outside_only else "pairs_email"] += 1

    bridge.map_inbox("agentdojo", suite.load_and_inject_default_environment({}))
    floor_tasks = completed = 0
    clean = suite.load_and_inject_default_environment({})
    for user in user_tasks.values():
        if not _is_floor_task(user, clean):
            continue
        floor_tasks += 1
        pre, env = clean.model_copy(deep=True), clean.model_copy(deep=True)
        tally.add(bridge.issue("agentdojo", env, _truth(user, env), "agent:user",
                               approve=True))
        completed += bool(user.utility(user.GROUND_TRUTH_OUTPUT, pre, env))

    email_pairs = attacks["pairs_email"]
    return {
        "suite": f"agentdojo {SUITE_VERSION} workspace",
        "user_tasks": len(user_tasks),
        "injection_tasks": len(injections),
        "pairs": len(user_tasks) * len(injections),
        "email_surface_pairs": email_pairs,
        "targeted_attack_success_email": attacks["email"] / email_pairs if email_pairs else None,
        "attack_success_no_defence": attacks["no_defence"] / (len(user_tasks) * len(injections)),
        "attack_successes_email": attacks["email"],
        "outside_surface_injection_tasks": outside_only,
        "attack_successes_outside": attacks["outside"],
        "pairs_outside": attacks["pairs_outside"],
        "floor_user_tasks": floor_tasks,
        "floor_user_tasks_completed": completed,
        "utility_after_approval": completed / floor_tasks if floor_tasks else None,
        "floor_runs_without_human_receipt": bridge.unreceipted_runs(),
        "calls": vars(tally),
        "published_gpt4o": PUBLISHED_GPT4O,
    }
