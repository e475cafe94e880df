"""The campaign lanistas' secret links (token hashes): campaign_tokens.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

_meta = sa.table("meta", sa.column("key", sa.String), sa.column("value", sa.Text))


def _set_schema_version(value: str) -> None:
    op.execute(_meta.update().where(_meta.c.key == "schema_version").values(value=value))


def upgrade() -> None:
    op.create_table(
        "campaign_tokens",
        sa.Column("campaign_id", sa.String(length=64), nullable=False),
        sa.Column("lanista_id", sa.String(length=64), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(["campaign_id"], ["campaigns.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("campaign_id", "lanista_id"),
    )
    _set_schema_version("3")


def downgrade() -> None:
    op.drop_table("campaign_tokens")
    _set_schema_version("2")
