"""Migration 0014: approvals from before receipts were MACs are never trusted silently."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import insert, select

from mailmoat.act.service import ActionService
from mailmoat.store.db import MIGRATIONS, make_engine, migrate
from mailmoat.store.tables.act import ActionRow, AuditRow, OutboxRow

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
OLD_RECEIPT = {"schema": 1, "action": "send_email", "payload_sha256": "ab" * 32,
               "approved_by": "sam", "approved_at": NOW.isoformat()}
SEND = {"schema": 1, "action": "send_email", "account": "acct", "to": "ana@client.example",
        "subject": "Numbers", "body": "Attached.", "in_reply_to": "", "references": [],
        "attachments": []}
OLD_DELETE = {"schema": 1, "action": "delete_permanent", "account": "acct",
              "message_id": "", "folder": "INBOX"}


def _action(conn, action: str, payload: dict, status: str, receipt: dict | None) -> int:  # type: ignore[no-untyped-def,type-arg]
    return int(conn.execute(insert(ActionRow).values(
        account="acct", action=action, payload=payload, status=status, source="cli",
        proposed_by="sam", proposed_at=NOW, receipt=receipt, revision=1, note="",
        decided_by="sam" if receipt else None, decided_at=NOW if receipt else None,
    )).inserted_primary_key[0])


def test_old_receipts_need_approving_again_and_message_id_deletes_are_voided(
    tmp_path: Path,
) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0013_one_head")
    with engine.begin() as conn:
        approved = _action(conn, "send_email", SEND, "approved", OLD_RECEIPT)
        conn.execute(insert(OutboxRow).values(
            action_id=approved, idempotency_key="k" * 64, account="acct", action="send_email",
            payload=SEND, receipt=OLD_RECEIPT, message_id="", raw=None, state="queued",
            attempts=0, next_attempt_at=NOW, last_error="", created_at=NOW, staged=False))
        wipe = _action(conn, "delete_permanent", OLD_DELETE, "pending", None)
        untouched = _action(conn, "send_email", SEND, "pending", None)
    migrate(engine)
    with engine.connect() as conn:
        rows = {r.id: r for r in conn.execute(select(ActionRow.__table__))}
        outbox = conn.execute(select(OutboxRow.__table__)).one()
        voided = conn.execute(select(AuditRow.__table__)
                              .where(AuditRow.event == "receipt_voided")).all()
    assert rows[approved].status == "pending" and rows[approved].receipt is None
    assert "approve it again" in rows[approved].note
    assert outbox.state == "cancelled" and "approve it again" in outbox.last_error
    assert rows[wipe].status == "failed" and "propose it again" in rows[wipe].note
    assert rows[untouched].status == "pending" and rows[untouched].note == ""
    assert sorted(a.action_id for a in voided) == sorted([approved, wipe])
    # Approved again, the receipt is a MAC and one new row is queued.
    view = ActionService(engine).approve(approved, "sam")
    assert view["receipt"]["mac"] and view["outbox"]["state"] == "queued"
