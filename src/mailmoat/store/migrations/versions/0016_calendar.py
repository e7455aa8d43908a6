"""Calendars: linked CalDAV collections and ICS feeds, their sync state, synced events, and
the meeting proposals (reply + calendar write) made for a mail.

Revision ID: 0016_calendar
Revises: 0015_mcp_agents
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016_calendar"
down_revision = "0015_mcp_agents"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "calendars",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(200), nullable=False, unique=True),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("url", sa.String(2000), nullable=False),
        sa.Column("username", sa.String(320), nullable=False),
        sa.Column("secret", sa.Text, nullable=True),
        sa.Column("account", sa.String(200), nullable=True),
        sa.Column("zone", sa.String(100), nullable=False),
        sa.Column("sync_token", sa.Text, nullable=True),
        sa.Column("ctag", sa.Text, nullable=True),
        sa.Column("last_sync_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "calendar_events",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("calendar_id", sa.Integer,
                  sa.ForeignKey("calendars.id", ondelete="CASCADE"), nullable=False),
        sa.Column("href", sa.String(2000), nullable=False),
        sa.Column("uid", sa.String(500), nullable=False),
        sa.Column("etag", sa.String(500), nullable=False),
        sa.Column("summary", sa.String(2000), nullable=False),
        sa.Column("start_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("end_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("all_day", sa.Boolean, nullable=False),
        sa.Column("transparent", sa.Boolean, nullable=False),
        sa.Column("rrule", sa.String(500), nullable=False),
        sa.Column("wide", sa.Boolean, nullable=False),
        sa.Column("problem", sa.String(500), nullable=False),
        sa.Column("raw", sa.Text, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("calendar_id", "href", name="uq_calendar_events_href"),
    )
    op.create_index("ix_calendar_events_start", "calendar_events", ["calendar_id", "start_at"])
    op.create_index("ix_calendar_events_uid", "calendar_events", ["calendar_id", "uid"])
    op.create_index("ix_calendar_events_wide", "calendar_events",
                    ["calendar_id", "wide", "start_at"])
    op.create_table(
        "meeting_proposals",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("message_id", sa.Integer,
                  sa.ForeignKey("messages.id", ondelete="CASCADE"), nullable=False),
        sa.Column("account", sa.String(200), nullable=False),
        sa.Column("answer", sa.String(20), nullable=False),
        sa.Column("reply_action_id", sa.Integer,
                  sa.ForeignKey("act_actions.id", ondelete="SET NULL"), nullable=True),
        sa.Column("event_action_id", sa.Integer,
                  sa.ForeignKey("act_actions.id", ondelete="SET NULL"), nullable=True),
        sa.Column("context", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_meeting_proposals_message", "meeting_proposals", ["message_id"])


def downgrade() -> None:
    op.drop_index("ix_meeting_proposals_message", table_name="meeting_proposals")
    op.drop_table("meeting_proposals")
    op.drop_index("ix_calendar_events_wide", table_name="calendar_events")
    op.drop_index("ix_calendar_events_uid", table_name="calendar_events")
    op.drop_index("ix_calendar_events_start", table_name="calendar_events")
    op.drop_table("calendar_events")
    op.drop_table("calendars")
