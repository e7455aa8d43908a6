"""The action-type table. Whether an action can be undone is a property of the action type,
written here by people — never a model's score."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from mailmoat.core.lane_actions import ActionKind, PlannedAction, default_keyword
from mailmoat.core.lanes import Lane
from mailmoat.core.receipts import FLOOR_ACTIONS, PayloadError


class ActionType(StrEnum):
    # reversible
    ARCHIVE = "archive"
    MOVE = "move"
    LABEL = "label"
    MARK_READ = "mark_read"
    MARK_UNREAD = "mark_unread"
    TRASH = "trash"  # restorable from Trash
    SNOOZE = "snooze"
    CHANGE_LANE = "change_lane"
    CALENDAR_EVENT = "calendar_event"  # only the user's own calendar; deleted by UID to undo
    # floor: need a human receipt (or an AUTO policy receipt for eligible replies)
    SEND_EMAIL = "send_email"
    DELETE_PERMANENT = "delete_permanent"
    FORWARD_EXTERNAL = "forward_external"
    CALENDAR_INVITE = "calendar_invite"  # an event that invites others: invitations go out


REVERSIBLE: frozenset[ActionType] = frozenset(
    {
        ActionType.ARCHIVE,
        ActionType.MOVE,
        ActionType.LABEL,
        ActionType.MARK_READ,
        ActionType.MARK_UNREAD,
        ActionType.TRASH,
        ActionType.SNOOZE,
        ActionType.CHANGE_LANE,
        ActionType.CALENDAR_EVENT,
    }
)
FLOOR: frozenset[ActionType] = frozenset(ActionType(a) for a in FLOOR_ACTIONS)


def is_floor(action: str) -> bool:
    """Unknown action names count as floor actions: the safe default is to ask."""
    try:
        return ActionType(action) not in REVERSIBLE
    except ValueError:
        return True


# -- reversible actions on the IMAP server ---------------------------------------------------

ARCHIVE_FOLDER = "Archive"
TRASH_FOLDER = "Trash"  # trash is restorable: the message moves, nothing is expunged


@dataclass(frozen=True, slots=True)
class SpecialFolders:
    """Where this server keeps archived and trashed mail: the folders it marks \\Archive and
    \\Trash (RFC 6154) when it says, these names when it does not."""

    archive: str = ARCHIVE_FOLDER
    trash: str = TRASH_FOLDER

SNOOZE_KEYWORD = "$MoatSnoozed"
_ATOM_SPECIALS = frozenset('(){ %*"\\]')
_MAX_FOLDER = 500
_MAX_KEYWORD = 100


def _folder(payload: Mapping[str, Any]) -> str:
    folder = payload.get("folder")
    if (not isinstance(folder, str) or not folder.strip() or len(folder) > _MAX_FOLDER
            or any(ord(c) < 32 or ord(c) == 127 for c in folder)):
        raise PayloadError("move needs a one-line 'folder' of at most 500 characters")
    return folder


def _keyword(payload: Mapping[str, Any]) -> str:
    """An IMAP keyword is an atom: no spaces, no specials, not a system flag."""
    if payload.get("label") is None and payload.get("lane") is not None:
        return default_keyword(_lane(payload))
    label = payload.get("label")
    if (not isinstance(label, str) or not label or len(label) > _MAX_KEYWORD
            or any(ord(c) <= 32 or ord(c) >= 127 or c in _ATOM_SPECIALS for c in label)):
        raise PayloadError("label needs a 'label' keyword: printable ASCII, no spaces or "
                           '(){%*"\\] characters, at most 100')
    return label


def _lane(payload: Mapping[str, Any]) -> Lane:
    try:
        return Lane(str(payload.get("lane")).strip().upper())
    except ValueError:
        raise PayloadError(f"unknown lane {payload.get('lane')!r}") from None


def snooze_until(payload: Mapping[str, Any]) -> datetime:
    try:
        until = datetime.fromisoformat(str(payload.get("until")))
    except ValueError:
        raise PayloadError("snooze needs 'until': an ISO 8601 time with a UTC offset") from None
    if until.tzinfo is None:
        raise PayloadError("snooze needs 'until' with a UTC offset")
    return until


def change_lane_to(payload: Mapping[str, Any]) -> Lane:
    return _lane(payload)


def server_steps(
    payload: Mapping[str, Any], folders: SpecialFolders = SpecialFolders()
) -> tuple[PlannedAction, ...]:
    """What an approved reversible action does on the IMAP server. Raises PayloadError for a
    payload that cannot run. change_lane has no steps of its own: the lane change is
    recorded, and its server side is the lane reversal (core.lane_actions)."""
    kind = ActionType(str(payload.get("action")))
    if kind is ActionType.ARCHIVE:
        return (PlannedAction(ActionKind.MOVE, folders.archive),)
    if kind is ActionType.TRASH:
        return (PlannedAction(ActionKind.MOVE, folders.trash),)
    if kind is ActionType.MOVE:
        return (PlannedAction(ActionKind.MOVE, _folder(payload)),)
    if kind is ActionType.LABEL:
        return (PlannedAction(ActionKind.ADD_KEYWORD, _keyword(payload)),)
    if kind is ActionType.MARK_READ:
        return (PlannedAction(ActionKind.MARK_READ),)
    if kind is ActionType.MARK_UNREAD:
        return (PlannedAction(ActionKind.MARK_UNREAD),)
    if kind is ActionType.SNOOZE:
        # A keyword, not a move: the message stays where sync sees it, so waking it (the
        # keyword removed when `until` passes) finds it again.
        snooze_until(payload)
        return (PlannedAction(ActionKind.ADD_KEYWORD, SNOOZE_KEYWORD),)
    if kind is ActionType.CHANGE_LANE:
        change_lane_to(payload)
        return ()
    if kind is ActionType.CALENDAR_EVENT:
        return ()  # no IMAP step: the executor writes it to the calendar, by UID
    raise PayloadError(f"not a reversible action: {kind.value!r}")


def wake_steps() -> tuple[PlannedAction, ...]:
    return (PlannedAction(ActionKind.REMOVE_KEYWORD, SNOOZE_KEYWORD),)
