"""The triage list: decisions a confidence canary flagged for a person (not a log line)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from mailmoat.act.audit import Clock
from mailmoat.act.errors import NotFound
from mailmoat.act.recording import HumanActs, is_person
from mailmoat.core.rules import CorrectionKind
from mailmoat.store.tables.act import TriageRow
from mailmoat.store.tables.messages import MessageRow


class TriageList:
    """Mixed into ActionService, which provides the session factory and the clock."""

    sessions: sessionmaker[Session]
    clock: Clock
    record_human_act: HumanActs

    def add_triage(self, account: str, message_id: int, reason: str) -> bool:
        """Put a message in the triage list once; True when it was new."""
        now = self.clock()
        try:
            with self.sessions.begin() as session:
                if session.scalar(select(TriageRow.id).where(
                        TriageRow.message_id == message_id)) is not None:
                    return False
                session.add(TriageRow(account=account, message_id=message_id, reason=reason,
                                      created_at=now))
        except IntegrityError:
            return False
        return True

    def triage(self, account: str, include_resolved: bool = False) -> list[dict[str, Any]]:
        with self.sessions() as session:
            query = (select(TriageRow, MessageRow.from_addr, MessageRow.subject)
                     .join(MessageRow, MessageRow.id == TriageRow.message_id)
                     .where(TriageRow.account == account).order_by(TriageRow.id.desc()))
            if not include_resolved:
                query = query.where(TriageRow.resolved_at.is_(None))
            return [
                {"id": t.id, "message_id": t.message_id, "from": from_addr, "subject": subject,
                 "reason": t.reason, "created_at": t.created_at.isoformat(),
                 "resolved_by": t.resolved_by}
                for t, from_addr, subject in session.execute(query)
            ]

    def resolve_triage(self, triage_id: int, by: str) -> None:
        now = self.clock()
        with self.sessions.begin() as session:
            row = session.get(TriageRow, triage_id)
            if row is None:
                raise NotFound(f"no triage item {triage_id}")
            if row.resolved_at is None and is_person(by):  # a person dismissed the canary
                self.record_human_act(session, row.account, row.message_id,
                                      CorrectionKind.DISMISSAL, by, f"triage: {row.reason}",
                                      now)
            row.resolved_by, row.resolved_at = by, now
