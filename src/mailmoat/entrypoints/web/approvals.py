"""What the approvals and triage pages need from act/, as a small interface.

The real implementations over act/ are `web.act_adapter.ActApprovals` and `ActTriage`, the
default in `create_app`; tests may pass others.
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True, slots=True)
class OutgoingMail:
    """The pending mail as its recipient will read it, read off the exact payload (never a
    second copy): the page shows this first and the canonical JSON behind a disclosure."""

    from_addr: str  # "" when the account has no SMTP submission yet
    to: str  # exactly as in the payload (an IDN domain in its encoded form)
    to_unicode: str  # the same address as a person reads it
    subject: str
    body: str
    cc: tuple[str, ...] = ()
    in_reply_to: str = ""
    attachments: tuple[str, ...] = ()  # "name (type)"
    # The message it answers: sender, subject, date, snippet (None: not a reply).
    replying_to: dict[str, object] | None = None


@dataclass(frozen=True, slots=True)
class PendingAction:
    id: str
    kind: str  # send_email, delete_permanent, forward_external, ...
    message_id: int | None
    summary: str
    payload: str  # the exact canonical payload that will run, shown byte for byte
    payload_sha256: str
    draft_diff: str = ""  # unified diff when a person edited the proposed draft
    created_at: str = ""
    warnings: tuple[str, ...] = ()  # recipient risks for a person to look at (look-alikes...)
    proposed_by: str = ""  # who proposed it, and through what: "agent:claude via mcp"
    mail: OutgoingMail | None = None  # a send: the mail as it will read


@dataclass(frozen=True, slots=True)
class ApprovalLine:
    """A pending action as one line of the home page; its page shows the rest (the mail, the
    recipient warnings, the exact bytes). Cheap to list: no recipient checks, no diff."""

    id: str
    kind: str
    summary: str
    proposed_by: str = ""


@dataclass(frozen=True, slots=True)
class UnknownSend:
    """A send that may or may not have gone out and was not found on the server."""

    id: str
    summary: str
    message_id: str  # ours: what to look for in the recipient's or the Sent folder
    reason: str
    when: str = ""


@dataclass(frozen=True, slots=True)
class TriageItem:
    message_id: int
    subject: str
    reason: str  # the confidence canary that fired (core.autonomy.canary)


@dataclass(frozen=True, slots=True)
class ApprovalOutcome:
    ok: bool
    detail: str = ""
    extra: dict[str, str] = field(default_factory=dict)


class Approvals(Protocol):
    def list(self, account: str) -> list[PendingAction]: ...

    def show(self, account: str, action_id: str) -> PendingAction | None: ...

    def approve(self, account: str, action_id: str, actor: str,
                expected_sha256: str | None = None) -> ApprovalOutcome:
        """`expected_sha256`: the hash the approver was shown; a changed payload is refused."""
        ...

    def reject(self, account: str, action_id: str, actor: str, reason: str) -> ApprovalOutcome: ...

    def unknown(self, account: str) -> builtins.list[UnknownSend]: ...

    def resolve(self, account: str, action_id: str, actor: str,
                arrived: bool) -> ApprovalOutcome: ...

    def owner(self, action_id: str) -> str | None:
        """The account the action belongs to (None: no such action)."""
        ...


class Triage(Protocol):
    def list(self, account: str) -> list[TriageItem]: ...


class NoApprovals:
    """Nothing to approve (tests, and a web app built without act/)."""

    def list(self, account: str) -> list[PendingAction]:
        return []

    def show(self, account: str, action_id: str) -> PendingAction | None:
        return None

    def approve(self, account: str, action_id: str, actor: str,
                expected_sha256: str | None = None) -> ApprovalOutcome:
        return ApprovalOutcome(False, "no such pending action")

    def reject(self, account: str, action_id: str, actor: str, reason: str) -> ApprovalOutcome:
        return ApprovalOutcome(False, "no such pending action")

    def unknown(self, account: str) -> builtins.list[UnknownSend]:
        return []

    def resolve(self, account: str, action_id: str, actor: str, arrived: bool) -> ApprovalOutcome:
        return ApprovalOutcome(False, "no such send")

    def owner(self, action_id: str) -> str | None:
        return None


class NoTriage:
    """An empty triage list."""

    def list(self, account: str) -> list[TriageItem]:
        return []
