"""The approvals and triage pages over act/: pending actions with their exact bytes, and the
confidence-canary list. Every call is scoped to the account asked about; an action of another
account is "not found"."""

from __future__ import annotations

import json
from typing import Any

from mailmoat.act.errors import ActError, NotFound
from mailmoat.act.service import ActionService
from mailmoat.core.actions import is_floor
from mailmoat.core.ids import ascii_id
from mailmoat.web.approvals import Outcome, PendingAction, TriageItem
from mailmoat.web.draft_diff import draft_diff, edits_from_audit


def _warnings(flags: dict[str, Any] | None) -> tuple[str, ...]:
    if not flags:
        return ()
    out = []
    if flags.get("lookalike_of"):
        out.append(f"the recipient's domain imitates {flags['lookalike_of']}")
    if flags.get("mixed_script"):
        out.append("the recipient's domain mixes alphabets")
    if flags.get("non_ascii_domain"):
        out.append("the recipient's domain is internationalised (IDN): check each letter")
    if flags.get("display_name_mismatch"):
        out.append("the original sender's display name shows a different address")
    return tuple(out)


def _pending(view: dict[str, Any], diff: str = "") -> PendingAction:
    payload = view.get("payload")
    target = view.get("to") or ""
    return PendingAction(
        id=str(view["id"]),
        kind=str(view["action"]),
        message_id=(view.get("replying_to") or {}).get("id") if payload else None,
        summary=f"to {target}: {view.get('subject', '')}" if target else str(view["action"]),
        # Shown byte for byte: the canonical JSON whose sha256 the receipt will bind.
        payload=json.dumps(payload, indent=2, ensure_ascii=False, sort_keys=True)
        if payload is not None else "",
        payload_sha256=str(view.get("payload_sha256", "")),
        draft_diff=diff,
        created_at=str(view.get("proposed_at", "")),
        warnings=_warnings(view.get("flags")),
    )


class ActApprovals:
    def __init__(self, service: ActionService) -> None:
        self.service = service

    def _owned(self, account: str, action_id: str) -> dict[str, Any] | None:
        number = ascii_id(action_id)
        if number is None:
            return None
        try:
            view = self.service.show(number)
        except NotFound:
            return None
        return view if view["account"] == account else None

    def list(self, account: str) -> list[PendingAction]:
        return [p for p in (self.show(account, str(s["id"]))
                            for s in self.service.list(account, "pending")) if p]

    def show(self, account: str, action_id: str) -> PendingAction | None:
        view = self._owned(account, action_id)
        if view is None:
            return None
        diff = ""
        if view.get("revision", 1) > 1 and isinstance(view.get("payload"), dict):
            edits = edits_from_audit(self.service.audit_trail(int(view["id"])))
            diff = draft_diff(edits, view["payload"])
        return _pending(view, diff)

    def approve(self, account: str, action_id: str, actor: str,
                expected_sha256: str | None = None) -> Outcome:
        view = self._owned(account, action_id)
        if view is None:
            return Outcome(False, "no such pending action")
        try:
            self.service.approve(int(view["id"]), actor, expected_sha256=expected_sha256)
        except ActError as exc:
            return Outcome(False, str(exc))
        if is_floor(str(view["action"])):
            return Outcome(True, "approved: the guarded executor will send it")
        return Outcome(True, "approved: the worker applies it on the mail server")

    def reject(self, account: str, action_id: str, actor: str, reason: str) -> Outcome:
        view = self._owned(account, action_id)
        if view is None:
            return Outcome(False, "no such pending action")
        try:
            self.service.reject(int(view["id"]), actor, reason)
        except ActError as exc:
            return Outcome(False, str(exc))
        return Outcome(True, "rejected")


class ActTriage:
    def __init__(self, service: ActionService) -> None:
        self.service = service

    def list(self, account: str) -> list[TriageItem]:
        return [TriageItem(t["message_id"], t["subject"], t["reason"])
                for t in self.service.triage(account)]
