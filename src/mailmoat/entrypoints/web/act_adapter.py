"""The approvals and triage pages over act/: pending actions with their exact bytes, and the
confidence-canary list. Every call is scoped to the account asked about; an action of another
account is "not found"."""

from __future__ import annotations

import builtins
import json
from typing import Any

from mailmoat.act.errors import ActError, NotFound
from mailmoat.act.service import ActionService
from mailmoat.core.actions import is_floor
from mailmoat.core.ids import ascii_id
from mailmoat.core.receipts import unicode_domain
from mailmoat.entrypoints.web.approvals import (
    ApprovalLine,
    ApprovalOutcome,
    OutgoingMail,
    PendingAction,
    TriageItem,
    UnknownSend,
)
from mailmoat.entrypoints.web.draft_diff import draft_diff, edits_from_audit
from mailmoat.store.sending_address import sending_address


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
    if flags.get("outside_domain"):
        out.append("no mail in this account ever came from the recipient's domain")
    if flags.get("rewritten_from"):
        out.append(f"the address was written {flags['rewritten_from']!r}; encoded it goes "
                   f"to {flags.get('address', '')!r}")
    return tuple(out)


def _summary(view: dict[str, Any]) -> str:
    """One line that says what will happen; for a forward or delete, which message."""
    payload = view.get("payload") or {}
    if payload.get("action") in ("calendar_event", "calendar_invite"):
        return (f"{view['action']}: {payload.get('operation')} {payload.get('uid')} on "
                f"calendar {payload.get('calendar')}")
    to = view.get("to") or ""
    target = view.get("target")
    if isinstance(target, dict):
        if target.get("missing"):
            what = "a message no longer stored as approved"
        else:
            what = f"“{target.get('subject', '')}” from {target.get('from', '')}"
        where = f"({target.get('folder')}, UID {target.get('uid')})"
        return f"to {to}: {what} {where}" if to else f"{what} {where}"
    return f"to {to}: {view.get('subject', '')}" if to else str(view["action"])


def _mail(view: dict[str, Any], from_addr: str) -> OutgoingMail | None:
    """A send as its recipient reads it; every field read off the payload the hash covers."""
    payload = view.get("payload")
    if not isinstance(payload, dict) or payload.get("action") != "send_email":
        return None
    to = str(payload.get("to", ""))
    local, _, domain = to.rpartition("@")
    replying = view.get("replying_to")
    return OutgoingMail(
        from_addr=from_addr, to=to, to_unicode=f"{local}@{unicode_domain(domain)}" if local else to,
        subject=str(payload.get("subject", "")), body=str(payload.get("body", "")),
        in_reply_to=str(payload.get("in_reply_to") or ""),
        attachments=tuple(f"{a.get('filename', '')} ({a.get('content_type', '')})"
                          for a in payload.get("attachments") or [] if isinstance(a, dict)),
        replying_to=replying if isinstance(replying, dict) else None)


def _pending(view: dict[str, Any], diff: str = "", from_addr: str = "") -> PendingAction:
    payload = view.get("payload")
    return PendingAction(
        id=str(view["id"]),
        kind=str(view["action"]),
        message_id=(view.get("replying_to") or {}).get("id") if payload else None,
        summary=_summary(view),
        # Shown byte for byte: the canonical JSON whose sha256 the receipt will bind.
        payload=json.dumps(payload, indent=2, ensure_ascii=False, sort_keys=True)
        if payload is not None else "",
        payload_sha256=str(view.get("payload_sha256", "")),
        draft_diff=diff,
        created_at=str(view.get("proposed_at", "")),
        warnings=_warnings(view.get("flags")),
        proposed_by=f"{view.get('proposed_by', '')} via {view.get('source', '')}",
        mail=_mail(view, from_addr),
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

    def owner(self, action_id: str) -> str | None:
        number = ascii_id(action_id)
        if number is None:
            return None
        try:
            return str(self.service.show(number)["account"])
        except NotFound:
            return None

    def list(self, account: str) -> list[PendingAction]:
        return [p for p in (self.show(account, str(s["id"]))
                            for s in self.service.list(account, "pending")) if p]

    def lines(self, account: str) -> builtins.list[ApprovalLine]:
        """One line per pending action, from the summaries alone (the home page)."""
        return [ApprovalLine(str(s["id"]), str(s["action"]),
                             f"to {s['to']}: {s['subject']}" if s.get("to")
                             else str(s["action"]),
                             f"{s.get('proposed_by', '')} via {s.get('source', '')}")
                for s in self.service.list(account, "pending")]

    def show(self, account: str, action_id: str) -> PendingAction | None:
        view = self._owned(account, action_id)
        if view is None:
            return None
        diff = ""
        if view.get("revision", 1) > 1 and isinstance(view.get("payload"), dict):
            edits = edits_from_audit(self.service.audit_trail(int(view["id"])))
            diff = draft_diff(edits, view["payload"])
        return _pending(view, diff, sending_address(self.service.engine, account) or "")

    def approve(self, account: str, action_id: str, actor: str,
                expected_sha256: str | None = None) -> ApprovalOutcome:
        view = self._owned(account, action_id)
        if view is None:
            return ApprovalOutcome(False, "no such pending action")
        try:
            self.service.approve(int(view["id"]), actor, expected_sha256=expected_sha256)
        except ActError as exc:
            return ApprovalOutcome(False, str(exc))
        if is_floor(str(view["action"])):
            return ApprovalOutcome(True, "approved: the guarded executor will send it")
        return ApprovalOutcome(True, "approved: the worker applies it on the mail server")

    def reject(self, account: str, action_id: str, actor: str, reason: str) -> ApprovalOutcome:
        view = self._owned(account, action_id)
        if view is None:
            return ApprovalOutcome(False, "no such pending action")
        try:
            self.service.reject(int(view["id"]), actor, reason)
        except ActError as exc:
            return ApprovalOutcome(False, str(exc))
        return ApprovalOutcome(True, "rejected")


    def unknown(self, account: str) -> builtins.list[UnknownSend]:
        return [UnknownSend(str(u["id"]), f"to {u['to']}: {u['subject']}", u["message_id"],
                            u["reason"], u["finished_at"] or "")
                for u in self.service.unresolved(account)]

    def resolve(self, account: str, action_id: str, actor: str, arrived: bool) -> ApprovalOutcome:
        if self._owned(account, action_id) is None:
            return ApprovalOutcome(False, "no such send")
        try:
            self.service.resolve_unknown(int(action_id), actor, sent=arrived)
        except ActError as exc:
            return ApprovalOutcome(False, str(exc))
        return ApprovalOutcome(True, "recorded as arrived" if arrived else "queued to send again")


class ActTriage:
    def __init__(self, service: ActionService) -> None:
        self.service = service

    def list(self, account: str) -> list[TriageItem]:
        return [TriageItem(t["message_id"], t["subject"], t["reason"])
                for t in self.service.triage(account)]
