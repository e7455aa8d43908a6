"""The corrections ledger in the database: append rows, read them back as core Events."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from mailmoat.core.lanes import Lane
from mailmoat.core.public_domains import is_public_domain
from mailmoat.core.rules import (
    CorrectionKind,
    Event,
    Scope,
    SenderKey,
    domain_of,
    keys_for,
    normalize_address,
)
from mailmoat.store.tables.learn import CorrectionRow
from mailmoat.store.tables.messages import DecisionRow, MessageRow

_CHUNK = 400


@dataclass(frozen=True, slots=True)
class NewCorrection:
    kind: CorrectionKind
    actor: str
    message_id: int | None = None
    sender: str = ""  # the corrected message's sender
    target: SenderKey | None = None  # for pin, unpin and rule removal
    lane: Lane | None = None
    shown_lane: str | None = None
    trace: dict[str, Any] | None = None
    note: str = ""
    withdraws: int | None = None  # for an undo: the lane change it takes back


def append(session: Session, account: str, new: NewCorrection, now: datetime) -> CorrectionRow:
    address = normalize_address(new.sender)
    if new.target is not None and new.target.scope is Scope.ADDRESS:
        address = new.target.value
    domain = new.target.value if new.target is not None and new.target.scope is Scope.DOMAIN \
        else domain_of(address)
    row = CorrectionRow(
        account=account,
        kind=new.kind.value,
        message_id=new.message_id,
        sender_addr=address[:500],
        sender_domain=domain[:255],
        target_scope=None if new.target is None else new.target.scope.value,
        target=None if new.target is None else new.target.value,
        lane=None if new.lane is None else new.lane.value,
        shown_lane=new.shown_lane,
        trace=new.trace,
        actor=new.actor[:200],
        note=new.note,
        created_at=now,
        withdraws=new.withdraws,
    )
    session.add(row)
    session.flush()
    return row


def about_message(
    kind: CorrectionKind, actor: str, message: MessageRow, decision: DecisionRow, note: str = ""
) -> NewCorrection:
    """A person's act about one stored message, carrying the decision trace it concerns."""
    return NewCorrection(
        kind=kind, actor=actor, message_id=message.id, sender=message.from_addr,
        shown_lane=decision.lane, trace=dict(decision.trace), note=note,
    )


def record_act(
    session: Session, account: str, message_id: int, kind: CorrectionKind, actor: str,
    note: str, now: datetime,
) -> CorrectionRow | None:
    """Append an approval, rejection or dismissal about `message_id` inside the caller's
    transaction (act/ calls this when a person decides). None, and nothing written, when the
    account holds no decided message by that id: there is no decision to correct."""
    message = session.get(MessageRow, message_id)
    decision = session.get(DecisionRow, message_id)
    if message is None or decision is None or message.account != account:
        return None
    return append(session, account, about_message(kind, actor, message, decision, note), now)


def withdrawn(session: Session, account: str | None) -> set[int]:
    """Ids of lane changes that no longer count (every account's when `account` is None):
    those a person has since undone, and those a later rule removal took back — every
    earlier lane change that counted for the removed key (core.rules.standing, in SQL)."""
    query = select(CorrectionRow.withdraws).where(
        CorrectionRow.kind == CorrectionKind.UNDO.value, CorrectionRow.withdraws.is_not(None))
    removals = select(CorrectionRow.id, CorrectionRow.account, CorrectionRow.target_scope,
                      CorrectionRow.target).where(
        CorrectionRow.kind == CorrectionKind.RULE_REMOVED.value,
        CorrectionRow.target.is_not(None))
    if account is not None:
        query = query.where(CorrectionRow.account == account)
        removals = removals.where(CorrectionRow.account == account)
    out = {int(i) for i in session.scalars(query) if i is not None}  # the WHERE drops NULL
    for removal_id, owner, scope, target in session.execute(removals).all():
        assert target is not None  # the WHERE drops NULL
        if scope == Scope.DOMAIN.value and is_public_domain(target):
            continue  # never a key: nothing counted for it
        column = (CorrectionRow.sender_addr if scope == Scope.ADDRESS.value
                  else CorrectionRow.sender_domain)
        out.update(session.scalars(select(CorrectionRow.id).where(
            CorrectionRow.account == owner,
            CorrectionRow.kind == CorrectionKind.LANE_CHANGE.value,
            CorrectionRow.id < removal_id, column == target)))
    return out


def to_event(row: CorrectionRow) -> Event:
    target = None
    if row.target_scope and row.target:
        target = SenderKey(Scope(row.target_scope), row.target)
    return Event(
        id=row.id,
        kind=CorrectionKind(row.kind),
        address="" if target is not None else row.sender_addr,
        lane=Lane(row.lane) if row.lane else None,
        target=target,
        withdraws=row.withdraws,
    )


def rows(
    session: Session, account: str, keys: Iterable[SenderKey] | None = None
) -> list[CorrectionRow]:
    """Ledger rows of an account, oldest first; with `keys`, only rows touching them:
    corrections to mail from those addresses or domains, and pins or removals naming them."""
    base = select(CorrectionRow).where(CorrectionRow.account == account)
    if keys is None:
        return list(session.scalars(base.order_by(CorrectionRow.id)))
    # Most accounts have no corrections (every account at its first sync): one indexed
    # probe spares sending every sender of the batch.
    if session.scalar(select(CorrectionRow.id).where(CorrectionRow.account == account)
                      .limit(1)) is None:
        return []
    wanted = {k.value: k for k in keys}
    addresses = sorted(v for v, k in wanted.items() if k.scope is Scope.ADDRESS)
    domains = sorted(v for v, k in wanted.items() if k.scope is Scope.DOMAIN)
    found: dict[int, CorrectionRow] = {}
    # A removal naming an address's organisation domain withdraws that address's lane
    # changes too (core.rules.standing), so rows naming those domains come along.
    owners = sorted({domain_of(a) for a in addresses} - set(domains))
    owners = [d for d in owners if d and not is_public_domain(d)]
    for start in range(0, max(len(addresses), len(domains), len(owners)), _CHUNK):
        a, d = addresses[start : start + _CHUNK], domains[start : start + _CHUNK]
        o = owners[start : start + _CHUNK]
        query = base.where(
            or_(
                CorrectionRow.sender_addr.in_(a),
                CorrectionRow.sender_domain.in_(d),
                CorrectionRow.target.in_(a + d + o),
            )
        )
        found.update((r.id, r) for r in session.scalars(query))
    return [found[i] for i in sorted(found)]


def rows_for_senders(session: Session, account: str, senders: Iterable[str]) -> list[CorrectionRow]:
    """Every row that can bear on mail from these sender addresses."""
    return rows(session, account, {k for s in senders for k in keys_for(s)})


def as_dict(row: CorrectionRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "kind": row.kind,
        "message_id": row.message_id,
        "sender": row.sender_addr,
        "target": row.target,
        "lane": row.lane,
        "shown_lane": row.shown_lane,
        "actor": row.actor,
        "note": row.note,
        "created_at": row.created_at.isoformat(),
        "trace": row.trace,
        "withdraws": row.withdraws,
    }
