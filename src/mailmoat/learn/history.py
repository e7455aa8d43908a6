"""Sender history from the store: aggregates for core/facts.py, and who the user wrote to.

The queries read only the store's own records (sender address, current lane, the server's
\\Seen flag, arrival time, the Sent folder's recipients, the corrections ledger), so no
message text can change a number here.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime

from sqlalchemy import case, func, select
from sqlalchemy.orm import Session

from mailmoat.core.facts import (
    READ_RATE,
    ReadRateSettings,
    SenderFacts,
    SenderHistory,
    sender_facts,
)
from mailmoat.core.message import Message
from mailmoat.core.rules import (
    MESSAGE_KINDS,
    RULE_MIN_CORRECTIONS,
    KeyedEvents,
    normalize_address,
    standing,
)
from mailmoat.learn import ledger
from mailmoat.store.tables.learn import SentRecipientRow
from mailmoat.store.tables.messages import DecisionRow, MessageRow

_CHUNK = 400


def _aware(moment: datetime | None) -> datetime | None:
    # SQLite hands back naive datetimes for timezone-aware columns; they were stored in UTC.
    if moment is not None and moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment


def load_sender_facts(
    session: Session,
    account: str,
    senders: Iterable[str],
    now: datetime,
    settings: ReadRateSettings = READ_RATE,
    rule_threshold: int = RULE_MIN_CORRECTIONS,
) -> dict[str, SenderFacts]:
    """Facts for each distinct sender address (lower-case), in a handful of queries."""
    addresses = sorted({normalize_address(s) for s in senders if s and "@" in s})
    if not addresses:
        return {}
    lanes: dict[str, dict[str, int]] = defaultdict(dict)
    last: dict[str, datetime] = {}
    seen: dict[str, tuple[int, int]] = {}
    replies: dict[str, int] = {}
    start = settings.window_start(now)
    for i in range(0, len(addresses), _CHUNK):
        chunk = addresses[i : i + _CHUNK]
        for addr, lane, n, newest in session.execute(
            select(
                MessageRow.from_addr,
                DecisionRow.lane,
                func.count(),
                func.max(MessageRow.created_at),
            )
            .join(DecisionRow, DecisionRow.message_id == MessageRow.id)
            .where(MessageRow.account == account, MessageRow.from_addr.in_(chunk))
            .group_by(MessageRow.from_addr, DecisionRow.lane)
        ):
            lanes[addr][lane] = int(n)
            latest = _aware(newest)
            if latest is not None and (addr not in last or latest > last[addr]):
                last[addr] = latest
        for addr, known, read in session.execute(
            select(
                MessageRow.from_addr,
                func.count(),
                func.sum(case((MessageRow.seen.is_(True), 1), else_=0)),
            )
            .where(
                MessageRow.account == account,
                MessageRow.from_addr.in_(chunk),
                MessageRow.seen.is_not(None),
                MessageRow.created_at >= start,
            )
            .group_by(MessageRow.from_addr)
        ):
            seen[addr] = (int(read or 0), int(known))
        for addr, n in session.execute(
            select(SentRecipientRow.address, func.count())
            .where(SentRecipientRow.account == account, SentRecipientRow.address.in_(chunk))
            .group_by(SentRecipientRow.address)
        ):
            replies[addr] = int(n)
    events = standing(ledger.to_event(r)
                      for r in ledger.rows_for_senders(session, account, addresses))
    keyed = KeyedEvents(events)
    corrected = Counter(e.address for e in events if e.kind in MESSAGE_KINDS)
    out: dict[str, SenderFacts] = {}
    for addr in addresses:
        read, known = seen.get(addr, (0, 0))
        corrections = corrected[addr]
        pin = keyed.pin_for(addr)
        rule = keyed.rule_for(addr, rule_threshold)
        history = SenderHistory(
            lanes=lanes.get(addr, {}),
            seen_in_window=read,
            known_in_window=known,
            last_received=last.get(addr),
            replies_sent=replies.get(addr, 0),
            human_corrections=corrections,
        )
        out[addr] = sender_facts(
            addr,
            history,
            now,
            pinned_lane=None if pin is None else pin.lane,
            rule_lane=None if rule is None else rule.lane,
            rule_cites=() if rule is None else rule.correction_ids,
            settings=settings,
        )
    return out


def record_sent_recipients(
    session: Session, account: str, sent: Sequence[tuple[int, Message]]
) -> None:
    """Remember whom each of the user's sent messages went to (To and Cc).

    Unattended replies (Auto-Submitted, RFC 3834 — what AUTO mode sends) are not the user
    writing to someone: counting them would let the system vouch for a sender on its own."""
    for message_id, message in sent:
        if message.auto_submitted and message.auto_submitted.strip().lower() != "no":
            continue
        recipients = {normalize_address(a) for a in (*message.to, *message.cc) if "@" in a}
        session.add_all(
            SentRecipientRow(message_id=message_id, address=addr[:500], account=account)
            for addr in sorted(recipients)
        )
