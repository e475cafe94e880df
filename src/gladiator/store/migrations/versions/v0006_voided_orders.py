"""The audit of voided orders (ruling HF1): `voided_orders`, the orders of a decision the engine
failed on, and stored tails dropped to resume a match from its last good step.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

_meta = sa.table("meta", sa.column("key", sa.String), sa.column("value", sa.Text))


def _set_schema_version(value: str) -> None:
    op.execute(_meta.update().where(_meta.c.key == "schema_version").values(value=value))


def upgrade() -> None:
    op.create_table(
        "voided_orders",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "match_id",
            sa.String(64),
            sa.ForeignKey("matches.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.String(64), nullable=False),
        sa.Column("order_text", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("voided_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
    )
    op.create_index("ix_voided_orders_match_id", "voided_orders", ["match_id"])
    _set_schema_version("6")


def downgrade() -> None:
    op.drop_index("ix_voided_orders_match_id", table_name="voided_orders")
    op.drop_table("voided_orders")
    _set_schema_version("5")
