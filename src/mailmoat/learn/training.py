"""What the learned scorer learns from, read from the store.

A person's lane change labels its message with the chosen lane (weighted up); a message the
person read (`\\Seen`) and left alone labels itself with its current lane. Only the store's
own records choose the label: no message text can name one.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Select, or_, select
from sqlalchemy.orm import Session

from mailmoat.core.lanes import Lane
from mailmoat.core.message import parse_message
from mailmoat.core.rules import CorrectionKind
from mailmoat.core.signals import detect_signals
from mailmoat.learn.ledger import withdrawn
from mailmoat.learn.model import Labelled, featurize
from mailmoat.store.tables.learn import CorrectionRow
from mailmoat.store.tables.messages import DecisionRow, MessageRow

CORRECTION_WEIGHT = 3.0  # a person's explicit correction outweighs a silent confirmation
MAX_TRAINING = 5000  # newest examples a retrain reads: bounded time and memory on big stores


def _labelled(raw: bytes, labels: Sequence[str] | None, lane: Lane, weight: float,
              corrected: bool = False) -> Labelled:
    message = parse_message(raw, labels=tuple(labels or ()))
    return Labelled(featurize(message, detect_signals(message)), lane, weight, corrected)


def _lane_changes(account: str | None) -> Select[int, int | None, str | None]:
    query = select(CorrectionRow.id, CorrectionRow.message_id, CorrectionRow.lane).where(
        CorrectionRow.kind == CorrectionKind.LANE_CHANGE.value,
        CorrectionRow.message_id.is_not(None), CorrectionRow.lane.is_not(None),
    )
    return query if account is None else query.where(CorrectionRow.account == account)


def training_examples(
    session: Session, account: str | None, limit: int = MAX_TRAINING
) -> list[Labelled]:
    """The newest `limit` corrected or read messages of `account` (None: every account),
    oldest first; a corrected message carries the person's latest lane for it."""
    corrected: dict[int, Lane] = {}
    undone = withdrawn(session, account)
    taken_back: set[int] = set()  # messages whose every lane change was withdrawn
    for cid, message_id, lane in session.execute(
            _lane_changes(account).order_by(CorrectionRow.id)):
        assert message_id is not None and lane is not None
        if cid not in undone:
            corrected[message_id] = Lane(lane)
        else:
            taken_back.add(message_id)
    query = (
        select(MessageRow.id, MessageRow.raw, MessageRow.labels, DecisionRow.lane)
        .join(DecisionRow, DecisionRow.message_id == MessageRow.id)
        .where(or_(MessageRow.seen.is_(True),
                   MessageRow.id.in_(_lane_changes(account).with_only_columns(
                       CorrectionRow.message_id))))
        .order_by(MessageRow.id.desc())
        .limit(limit)
    )
    if account is not None:
        query = query.where(MessageRow.account == account)
    found = list(session.execute(query))
    found.reverse()
    # A message whose corrections were all withdrawn teaches nothing: its current lane is
    # still the withdrawn correction's (a rule removal moves no mail back), so labelling it
    # with that lane would teach the removed correction again.
    return [
        _labelled(raw, labels, corrected[mid], CORRECTION_WEIGHT, corrected=True)
        if mid in corrected else _labelled(raw, labels, Lane(lane), 1.0)
        for mid, raw, labels, lane in found
        if mid in corrected or mid not in taken_back
    ]


def corrections_since(
    session: Session, account: str | None, after_id: int
) -> tuple[list[Labelled], int]:
    """Lane changes recorded after ledger row `after_id`, oldest first, and the newest row id
    seen (`after_id` when there are none): what an already trained model has not learned."""
    rows = session.execute(
        _lane_changes(account).add_columns(MessageRow.raw, MessageRow.labels)
        .join(MessageRow, MessageRow.id == CorrectionRow.message_id)
        .where(CorrectionRow.id > after_id)
        .order_by(CorrectionRow.id)
    ).all()
    examples = [_labelled(raw, labels, Lane(lane), CORRECTION_WEIGHT, corrected=True)
                for _, _, lane, raw, labels in rows]
    return examples, max((r[0] for r in rows), default=after_id)


def newest_correction(session: Session, account: str | None) -> int:
    """The id of the newest lane change (0 when there is none): a cheap change detector."""
    query = _lane_changes(account).with_only_columns(CorrectionRow.id) \
        .order_by(CorrectionRow.id.desc()).limit(1)
    return session.scalar(query) or 0


WITHDRAWING = (CorrectionKind.UNDO.value, CorrectionKind.RULE_REMOVED.value)


def newest_undo(session: Session, account: str | None) -> int:
    """The id of the newest undo or rule removal (0 when there is none): either means a
    retrain, because a correction already learned step by step cannot be taken back out of
    the weights."""
    query = select(CorrectionRow.id).where(CorrectionRow.kind.in_(WITHDRAWING))
    if account is not None:
        query = query.where(CorrectionRow.account == account)
    return session.scalar(query.order_by(CorrectionRow.id.desc()).limit(1)) or 0
