"""A person's approvals, rejections and dismissals go into the corrections ledger.

act/ does not know how learning stores them: it hands each one, inside its own transaction,
to a `HumanActs` recorder (by default learn/ledger.py's `record_act`), so the decision and
its ledger row commit together or not at all.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from sqlalchemy.orm import Session

from mailmoat.core.autonomy import policy_identity
from mailmoat.core.rules import CorrectionKind
from mailmoat.store.tables.act import ActionRow

POLICY_PREFIX = policy_identity("")  # "auto:": the AUTO sweep acting, not a person


class HumanActs(Protocol):
    def __call__(self, session: Session, account: str, message_id: int, kind: CorrectionKind,
                 actor: str, note: str, now: datetime) -> object:
        """Record the act; nothing when the message is unknown to the account."""
        ...


def is_person(actor: str) -> bool:
    return not actor.startswith(POLICY_PREFIX)


def message_of(row: ActionRow) -> int | None:
    """The stored message an action is about: the one a reply answers, or the one a
    reversible action acts on. A fresh message answers none, so it corrects no decision."""
    if row.reply_to_message is not None:
        return row.reply_to_message
    target = row.payload.get("message")
    return target if isinstance(target, int) and not isinstance(target, bool) else None
