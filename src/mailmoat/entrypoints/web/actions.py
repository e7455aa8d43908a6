"""The state-changing actions the pages and the API share. Each checks the message belongs to
the signed-in account first; another account's id is answered like a missing one (404)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from fastapi import HTTPException, Request
from sqlalchemy import select

from mailmoat.core.autonomy import Mode
from mailmoat.core.lanes import Lane
from mailmoat.entrypoints.web.notices import notice_code
from mailmoat.entrypoints.web.security.auth import repos
from mailmoat.learn.service import Learning, LearningError, NotFound
from mailmoat.notify.dispatch import LATER_DELAY
from mailmoat.notify.keys import link_key
from mailmoat.notify.signing import verify_link
from mailmoat.services.relabel import explain, relabel
from mailmoat.store.tables.messages import MessageRow
from mailmoat.store.user_sessions import SessionInfo

PIN_BACKFILL = 500  # a pin also re-files this many of the sender's existing messages


@dataclass(frozen=True, slots=True)
class ActionResult:
    message_id: int
    lane: str | None
    note: str
    notice: str = ""  # the page's notice code (web/notices.py) for the same outcome


def _explain(asked: Lane, got: str) -> tuple[str, str]:
    if got == asked.value:
        return explain(asked, got), notice_code("moved", got)
    if asked is Lane.PUSH:
        return explain(asked, got), notice_code("moved_no_push", got)
    return explain(asked, got), notice_code("moved_urgent", got, asked.value)


def learning(request: Request, me: SessionInfo) -> Learning:
    """Corrections and pins are learn/'s: one ledger, which rules and sender facts read."""
    return Learning(request.app.state.store, account=me.account)


def move(request: Request, me: SessionInfo, message_id: int, lane: Lane) -> ActionResult:
    try:
        done = relabel(request.app.state.store, me.account, message_id, lane, me.username)
    except NotFound as exc:
        raise HTTPException(404, "no such message") from exc
    except LearningError:  # already in that lane: nothing to record
        summary = repos(request).summaries.get(message_id, me.account)
        got = summary["lane"] if summary else lane.value
        return ActionResult(message_id, got, *_explain(lane, got))
    # The one relabel's own words for the note; the page's notice is a code (web/notices.py).
    return ActionResult(message_id, done.lane.value, done.explanation,
                        _explain(lane, done.lane.value)[1])


def pins(request: Request, me: SessionInfo) -> list[dict[str, str]]:
    return [{"sender": p.key.value, "lane": p.lane.value}
            for p in learning(request, me).pins()]


def pin(request: Request, me: SessionInfo, message_id: int, lane: Lane) -> ActionResult:
    data = repos(request)
    summary = data.summaries.get(message_id, me.account)
    if summary is None:
        raise HTTPException(404, "no such message")
    sender = summary["from_addr"].lower()
    if not sender:
        raise HTTPException(422, "this message has no sender address to pin")
    # The pin lives in learn/'s ledger, which ingest reads as Facts.pinned_lane for new mail;
    # the sender's existing mail is re-filed here.
    try:
        learning(request, me).pin(sender, lane, me.username)
    except LearningError as exc:
        raise HTTPException(422, str(exc)) from exc
    got = data.decisions.move(message_id, me.account, lane, me.username) or lane.value
    with data.store.sessions() as s:
        others = list(s.scalars(select(MessageRow.id).where(
            MessageRow.account == me.account, MessageRow.from_addr == summary["from_addr"],
            MessageRow.id != message_id).order_by(MessageRow.id.desc()).limit(PIN_BACKFILL)))
    for other in others:
        data.decisions.move(other, me.account, lane, me.username)
    note = f"pinned {sender} to {lane.value}"
    code = notice_code("pinned", lane.value)
    if got != lane.value and lane is Lane.PUSH:  # the policy's no-PUSH re-check, not urgency
        note += f"; evidence speaks against this message's sender, so it went to {got}"
        code = notice_code("pinned_no_push", lane.value, got)
    elif got != lane.value:
        note += f"; this message is urgent and went to {got}"
        code = notice_code("pinned_urgent", lane.value, got)
    return ActionResult(message_id, got, note, code)


def undo(request: Request, me: SessionInfo, message_id: int) -> ActionResult:
    data = repos(request)
    if data.summaries.get(message_id, me.account) is None:
        raise HTTPException(404, "no such message")
    teach = learning(request, me)
    got = data.decisions.undo(
        message_id, me.account, me.username,
        also=lambda session, undone: teach.withdraw(session, message_id, undone, me.username))
    if got is None:
        return ActionResult(message_id, None, "nothing to undo", "nothing_to_undo")
    return ActionResult(message_id, got, f"undone: back in {got}", notice_code("undone", got))


def set_images(request: Request, me: SessionInfo, message_id: int, allow: bool) -> ActionResult:
    data = repos(request)
    summary = data.summaries.get(message_id, me.account)
    if summary is None or not summary["from_addr"]:
        raise HTTPException(404, "no such message")
    data.senders.set_prefs(me.account, summary["from_addr"], me.username, allow_images=allow)
    return ActionResult(message_id, summary["lane"],
                        "images allowed" if allow else "images blocked",
                        "images_allowed" if allow else "images_blocked")


def apply_link(request: Request, token: str) -> str:
    """Carry out a signed "later" or "mute" link. Raises BadLink when forged or expired."""
    data = repos(request)
    now = datetime.now(UTC)
    claim = verify_link(link_key(data.secrets), token, now)
    summary = data.summaries.get(claim.message_id, claim.account)
    if summary is None:
        return "that message is gone"
    if claim.action == "mute":
        data.senders.set_prefs(claim.account, summary["from_addr"], "link:mute", muted=True)
        return f"notifications from {summary['from_addr']} are muted"
    data.notifications.forget(claim.account, claim.message_id, "later")
    data.notifications.log(claim.account, claim.message_id, "later", "snoozed by link",
                           due_at=now + LATER_DELAY)
    return "you will be reminded in about two hours"


def current_mode(request: Request, account: str) -> str:
    """The account's mode as act/ enforces it (the one switch the AUTO sweep and the executor
    read); the settings page and API show and change only this."""
    return str(request.app.state.actions.mode(account).mode.value)


def set_mode(request: Request, me: SessionInfo, mode: str, guidelines: str | None = None,
             daily_cap: int | None = None) -> str:
    """Switching AUTO off also withdraws queued unattended work (act/, same transaction)."""
    request.app.state.actions.set_mode(me.account, Mode(mode), me.username,
                                       guidelines=guidelines, daily_cap=daily_cap)
    return current_mode(request, me.account)
