"""Authority: receipts become MACs; forwards and deletes name exactly one message.

Revision ID: 0014_act_receipt_mac
Revises: 0013_one_head

No table changes: the MAC lives in the receipt's JSON. What changes is what an old row
means, and nothing old is trusted silently:

* An approved floor action whose receipt has no MAC cannot be verified any more: it goes
  back to `pending` (its queued outbox row cancelled) with a note saying to approve it again.
* A forward or delete that names its message only by Message-ID (pending or approved) can
  no longer be approved at all: it becomes `failed`, with a note saying to propose it again
  from the message (which binds folder, UIDVALIDITY, UID and the bytes' hash).
* Rows already handed to a worker (`claimed`, `sending`) are left to the executor, which
  refuses their unverifiable receipt after reconciling, and dead-letters them.

Each changed action gets an `act_audit` entry (`receipt_voided`, actor `migration:0014`),
and the counts are logged.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0014_act_receipt_mac"
down_revision = "0013_one_head"
branch_labels = None
depends_on = None

FLOOR = ("send_email", "delete_permanent", "forward_external")
ONE_MESSAGE = ("delete_permanent", "forward_external")
REAPPROVE = "approved before receipts were MACs: review and approve it again"
REPROPOSE = ("a forward or delete must name one message (folder, UIDVALIDITY, UID and the "
             "hash of its bytes): propose it again from the message")

actions = sa.table(
    "act_actions", sa.column("id", sa.Integer), sa.column("action", sa.String),
    sa.column("payload", sa.JSON), sa.column("status", sa.String),
    sa.column("receipt", sa.JSON), sa.column("decided_by", sa.String),
    sa.column("decided_at", sa.DateTime(timezone=True)), sa.column("note", sa.Text),
)
outbox = sa.table(
    "act_outbox", sa.column("action_id", sa.Integer), sa.column("state", sa.String),
    sa.column("last_error", sa.Text), sa.column("finished_at", sa.DateTime(timezone=True)),
)
audit = sa.table(
    "act_audit", sa.column("action_id", sa.Integer), sa.column("outbox_id", sa.Integer),
    sa.column("event", sa.String), sa.column("actor", sa.String),
    sa.column("detail", sa.JSON), sa.column("created_at", sa.DateTime(timezone=True)),
)


def upgrade() -> None:
    bind = op.get_bind()
    now = datetime.now(UTC)
    rows = bind.execute(
        sa.select(actions.c.id, actions.c.action, actions.c.payload, actions.c.status,
                  actions.c.receipt)
        .where(actions.c.action.in_(FLOOR), actions.c.status.in_(("pending", "approved")))
    ).all()
    counts = {"reapprove": 0, "repropose": 0}
    for action_id, action, payload, status, receipt in rows:
        no_identity = action in ONE_MESSAGE and "uid" not in (payload or {})
        unsigned = status == "approved" and not (receipt or {}).get("mac")
        if not (no_identity or unsigned):
            continue
        note = REPROPOSE if no_identity else REAPPROVE
        bind.execute(
            sa.update(outbox)
            .where(outbox.c.action_id == action_id, outbox.c.state == "queued")
            .values(state="cancelled", last_error=note, finished_at=now)
        )
        values = {"status": "failed", "note": note} if no_identity else {
            "status": "pending", "receipt": None, "decided_by": None, "decided_at": None,
            "note": note}
        bind.execute(sa.update(actions).where(actions.c.id == action_id).values(**values))
        bind.execute(sa.insert(audit).values(
            action_id=action_id, outbox_id=None, event="receipt_voided",
            actor="migration:0014", detail={"reason": note, "was": status}, created_at=now))
        counts["repropose" if no_identity else "reapprove"] += 1
    if any(counts.values()):
        logging.getLogger("mailmoat.store").warning(
            "receipts are MACs now: %d approved action(s) need approving again, %d forward(s) "
            "or delete(s) must be proposed again from the message (see each action's note)",
            counts["reapprove"], counts["repropose"])


def downgrade() -> None:
    pass  # the voided approvals stay voided: an old receipt is never trusted again
