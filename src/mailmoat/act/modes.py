"""Per-account autonomy: SUGGEST (the default) or AUTO, the user's guidelines, the daily cap.

Switching AUTO off withdraws queued unattended work in the same transaction that changes
the mode; the executor re-reads the mode under the same row lock before it sends.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session, sessionmaker

from mailmoat.act.audit import Clock, audit
from mailmoat.core.actions import ActionType
from mailmoat.core.autonomy import Mode, policy_identity
from mailmoat.core.outbox import WITHDRAWABLE
from mailmoat.core.receipts import PayloadError
from mailmoat.store.tables.act import AccountModeRow, ActionRow, OutboxRow

DEFAULT_DAILY_CAP = 5


@dataclass(frozen=True, slots=True)
class AccountMode:
    account: str
    mode: Mode
    guidelines: str
    daily_cap: int


class AccountModes:
    """Mixed into ActionService, which provides the session factory and the clock."""

    sessions: sessionmaker[Session]
    clock: Clock

    def mode(self, account: str) -> AccountMode:
        with self.sessions() as session:
            row = session.get(AccountModeRow, account)
            if row is None:
                return AccountMode(account, Mode.SUGGEST, "", DEFAULT_DAILY_CAP)
            return AccountMode(account, Mode(row.mode), row.guidelines, row.daily_cap)

    def set_mode(self, account: str, mode: Mode, by: str, *, guidelines: str | None = None,
                 daily_cap: int | None = None) -> AccountMode:
        """Change the account's mode. Switching AUTO off withdraws queued unattended work in
        the same transaction; the executor re-checks the mode before it runs anything."""
        if daily_cap is not None and daily_cap < 0:
            raise PayloadError("the daily cap cannot be negative")
        now = self.clock()
        with self.sessions.begin() as session:
            row = session.get(AccountModeRow, account, with_for_update=True)
            if row is None:
                row = AccountModeRow(account=account, mode=Mode.SUGGEST.value, guidelines="",
                                     daily_cap=DEFAULT_DAILY_CAP, updated_by=by, updated_at=now)
                session.add(row)
            row.mode = Mode(mode).value
            if guidelines is not None:
                row.guidelines = guidelines
            if daily_cap is not None:
                row.daily_cap = daily_cap
            row.updated_by, row.updated_at = by, now
            audit(session, "mode", by, now, action_id=None, account=account, mode=row.mode,
                  daily_cap=row.daily_cap)
            if row.mode != Mode.AUTO.value:
                withdrawn = self._withdraw_unattended(session, account, now, by)
                if withdrawn:
                    audit(session, "auto_off_withdrawn", by, now, action_id=None,
                          account=account, count=withdrawn)
            session.flush()
            return AccountMode(account, Mode(row.mode), row.guidelines, row.daily_cap)

    @staticmethod
    def _withdraw_unattended(session: Session, account: str, now: datetime, by: str) -> int:
        ids = list(session.scalars(
            select(ActionRow.id).where(ActionRow.account == account,
                                       ActionRow.decided_by == policy_identity(account),
                                       ActionRow.status == "approved")
        ))
        if not ids:
            return 0
        result = session.execute(
            update(OutboxRow)
            .where(OutboxRow.action_id.in_(ids), OutboxRow.state.in_(WITHDRAWABLE))
            .values(state="cancelled", finished_at=now, last_error="AUTO switched off")
        )
        cancelled = list(session.scalars(
            select(OutboxRow.action_id).where(OutboxRow.action_id.in_(ids),
                                              OutboxRow.state == "cancelled")
        ))
        session.execute(update(ActionRow).where(ActionRow.id.in_(cancelled))
                        .values(status="cancelled"))
        # the ignore below: an UPDATE yields a CursorResult; Result's stubs lack rowcount
        return int(result.rowcount or 0)  # type: ignore[attr-defined]

    def unattended_today(self, account: str) -> int:
        """Unattended sends counted against today's cap (UTC day), whatever their outcome."""
        with self.sessions() as session:
            return self._unattended_count(session, account, self.clock())

    @staticmethod
    def _unattended_count(session: Session, account: str, now: datetime) -> int:
        start = now.replace(hour=0, minute=0, second=0, microsecond=0)
        return int(session.scalar(
            select(func.count()).select_from(ActionRow).where(
                ActionRow.account == account,
                ActionRow.action == ActionType.SEND_EMAIL.value,
                ActionRow.decided_by == policy_identity(account),
                ActionRow.decided_at >= start,
            )
        ) or 0)
