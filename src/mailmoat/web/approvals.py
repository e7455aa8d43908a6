"""What the approvals and triage pages need from act/, as a small interface.

act/ (pending actions, receipts, the guarded executor) is built separately. The pages are
written against these protocols and run with the empty implementations below until the lead
wires the real ones in `create_app(..., approvals=..., triage=...)`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


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


@dataclass(frozen=True, slots=True)
class TriageItem:
    message_id: int
    subject: str
    reason: str  # the confidence canary that fired (core.autonomy.canary)


@dataclass(frozen=True, slots=True)
class Outcome:
    ok: bool
    detail: str = ""
    extra: dict[str, str] = field(default_factory=dict)


class Approvals(Protocol):
    def list(self, account: str) -> list[PendingAction]: ...

    def show(self, account: str, action_id: str) -> PendingAction | None: ...

    def approve(self, account: str, action_id: str, actor: str) -> Outcome: ...

    def reject(self, account: str, action_id: str, actor: str, reason: str) -> Outcome: ...


class Triage(Protocol):
    def list(self, account: str) -> list[TriageItem]: ...


class NoApprovals:
    """TODO(lead): replace with act/'s pending-action store when that branch is merged."""

    def list(self, account: str) -> list[PendingAction]:
        return []

    def show(self, account: str, action_id: str) -> PendingAction | None:
        return None

    def approve(self, account: str, action_id: str, actor: str) -> Outcome:
        return Outcome(False, "no such pending action")

    def reject(self, account: str, action_id: str, actor: str, reason: str) -> Outcome:
        return Outcome(False, "no such pending action")


class NoTriage:
    """TODO(lead): replace with the canary list once decisions record canaries."""

    def list(self, account: str) -> list[TriageItem]:
        return []
