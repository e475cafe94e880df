"""The match tables: matches, seats, orders, and meta (schema version 1).

This is the schema gladiator created before it had migrations (`create_all` and a meta row
schema_version = 1); `prepare_schema` stamps such a database at this revision.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    meta = op.create_table(
        "meta",
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )
    op.create_table(
        "matches",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("ruleset", sa.String(length=64), nullable=False),
        sa.Column("options", sa.Text(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("nonce", sa.String(length=128), nullable=False),
        sa.Column("commitment", sa.String(length=128), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("outcome", sa.Text(), nullable=True),
        sa.Column("record", sa.Text(), nullable=True),
        sa.Column("spectator_hash", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_matches_created_at", "matches", ["created_at"], unique=False)
    op.create_index("ix_matches_status", "matches", ["status"], unique=False)
    op.create_table(
        "seats",
        sa.Column("match_id", sa.String(length=64), nullable=False),
        sa.Column("seat", sa.String(length=64), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("bot", sa.String(length=64), nullable=True),
        sa.Column("token_hash", sa.String(length=64), nullable=True),
        sa.Column("label", sa.String(length=200), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id", "seat"),
    )
    op.create_table(
        "orders",
        sa.Column("match_id", sa.String(length=64), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.String(length=64), nullable=False),
        sa.Column("order_text", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id", "seat"], ["seats.match_id", "seats.seat"], ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id", "seq"),
    )
    op.bulk_insert(meta, [{"key": "schema_version", "value": "1"}])


def downgrade() -> None:
    op.drop_table("orders")
    op.drop_table("seats")
    op.drop_index("ix_matches_status", table_name="matches")
    op.drop_index("ix_matches_created_at", table_name="matches")
    op.drop_table("matches")
    op.drop_table("meta")
