"""Correspondence play (docs/web.md, Correspondence; rulings CP1-CP8): each match's deadline and
what follows it, the current decision's start and the seats it waits for, the order given in a
seat's name when its deadline passed, the seats' e-mail contacts, a campaign's deadline and its
lanistas' addresses.

A match stored before this revision has no deadline; its `waiting` and `turn_at` stay NULL
until its next order (the lobby then shows nothing of whose move it is).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

_meta = sa.table("meta", sa.column("key", sa.String), sa.column("value", sa.Text))


def _set_schema_version(value: str) -> None:
    op.execute(_meta.update().where(_meta.c.key == "schema_version").values(value=value))


def upgrade() -> None:
    op.add_column("matches", sa.Column("deadline_s", sa.Integer(), nullable=True))
    op.add_column("matches", sa.Column("on_deadline", sa.String(16), nullable=True))
    op.add_column("matches", sa.Column("deadline_bot", sa.String(64), nullable=True))
    op.add_column("matches", sa.Column("turn_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("matches", sa.Column("waiting", sa.Text(), nullable=True))
    op.add_column("orders", sa.Column("due_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("campaigns", sa.Column("deadline_s", sa.Integer(), nullable=True))
    op.add_column("campaigns", sa.Column("deadline_bot", sa.String(64), nullable=True))
    op.add_column("campaign_tokens", sa.Column("email", sa.String(254), nullable=True))
    op.create_table(
        "seat_contacts",
        sa.Column(
            "match_id",
            sa.String(64),
            sa.ForeignKey("matches.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.String(64), primary_key=True),
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("unsubscribed", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("unsubscribe_hash", sa.String(64), nullable=False),
        sa.Column("noticed_turn", sa.DateTime(timezone=True), nullable=True),
        sa.Column("resent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("resent_hash", sa.String(64), nullable=True),
        sa.ForeignKeyConstraint(
            ["match_id", "seat"], ["seats.match_id", "seats.seat"], ondelete="CASCADE"
        ),
    )
    _set_schema_version("7")


def downgrade() -> None:
    op.drop_table("seat_contacts")
    op.drop_column("campaign_tokens", "email")
    op.drop_column("campaigns", "deadline_bot")
    op.drop_column("campaigns", "deadline_s")
    op.drop_column("orders", "due_at")
    for column in ("waiting", "turn_at", "deadline_bot", "on_deadline", "deadline_s"):
        op.drop_column("matches", column)
    _set_schema_version("6")
