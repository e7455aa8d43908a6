"""The action-type table. Whether an action can be undone is a property of the action type,
written here by people — never a model's score."""

from __future__ import annotations

from enum import StrEnum

from mailmoat.core.receipts import FLOOR_ACTIONS


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
    # floor: need a human receipt (or an AUTO policy receipt for eligible replies)
    SEND_EMAIL = "send_email"
    DELETE_PERMANENT = "delete_permanent"
    FORWARD_EXTERNAL = "forward_external"


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
    }
)
FLOOR: frozenset[ActionType] = frozenset(ActionType(a) for a in FLOOR_ACTIONS)


def is_floor(action: str) -> bool:
    """Unknown action names count as floor actions: the safe default is to ask."""
    try:
        return ActionType(action) not in REVERSIBLE
    except ValueError:
        return True
