"""The campaign tables: campaigns, lanistas, gladiators, bouts, campaign_steps, ledger_entries.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

_meta = sa.table("meta", sa.column("key", sa.String), sa.column("value", sa.Text))


def _set_schema_version(value: str) -> None:
    op.execute(_meta.update().where(_meta.c.key == "schema_version").values(value=value))


def upgrade() -> None:
    op.create_table(
        "campaigns",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("meta", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_campaigns_created_at", "campaigns", ["created_at"], unique=False)
    op.create_table(
        "lanistas",
        sa.Column("campaign_id", sa.String(length=64), nullable=False),
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("doc", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["campaign_id"], ["campaigns.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("campaign_id", "id"),
    )
    op.create_table(
        "gladiators",
        sa.Column("campaign_id", sa.String(length=64), nullable=False),
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("lanista_id", sa.String(length=64), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("doc", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["campaign_id", "lanista_id"], ["lanistas.campaign_id", "lanistas.id"]
        ),
        sa.ForeignKeyConstraint(["campaign_id"], ["campaigns.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("campaign_id", "id"),
    )
    op.create_index(
        "ix_gladiators_lanista", "gladiators", ["campaign_id", "lanista_id"], unique=False
    )
    op.create_table(
        "bouts",
        sa.Column("campaign_id", sa.String(length=64), nullable=False),
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("munus", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("match_ids", sa.Text(), nullable=False),
        sa.Column("doc", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["campaign_id"], ["campaigns.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("campaign_id", "id"),
    )
    op.create_index("ix_bouts_munus", "bouts", ["campaign_id", "munus"], unique=False)
    op.create_table(
        "campaign_steps",
        sa.Column("campaign_id", sa.String(length=64), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=64), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("state_digest", sa.String(length=128), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["campaign_id"], ["campaigns.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("campaign_id", "seq"),
    )
    op.create_table(
        "ledger_entries",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            autoincrement=True,
            nullable=False,
        ),
        sa.Column("campaign_id", sa.String(length=64), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("account", sa.String(length=128), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("memo", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["campaign_id", "seq"],
            ["campaign_steps.campaign_id", "campaign_steps.seq"],
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        "ix_ledger_entries_account", "ledger_entries", ["campaign_id", "account"], unique=False
    )
    _set_schema_version("2")


def downgrade() -> None:
    op.drop_index("ix_ledger_entries_account", table_name="ledger_entries")
    op.drop_table("ledger_entries")
    op.drop_table("campaign_steps")
    op.drop_index("ix_bouts_munus", table_name="bouts")
    op.drop_table("bouts")
    op.drop_index("ix_gladiators_lanista", table_name="gladiators")
    op.drop_table("gladiators")
    op.drop_table("lanistas")
    op.drop_index("ix_campaigns_created_at", table_name="campaigns")
    op.drop_table("campaigns")
    _set_schema_version("1")
