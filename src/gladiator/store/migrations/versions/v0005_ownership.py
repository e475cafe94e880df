"""Several server processes on one database (docs/deploy.md): `processes`, the servers alive
with their heartbeats, and matches.owner, the process that holds a running match.

A match stored before this revision has no owner: the first process to want it claims it.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

_meta = sa.table("meta", sa.column("key", sa.String), sa.column("value", sa.Text))


def _set_schema_version(value: str) -> None:
    op.execute(_meta.update().where(_meta.c.key == "schema_version").values(value=value))


def upgrade() -> None:
    op.create_table(
        "processes",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("url", sa.String(300), nullable=False),
        sa.Column("host", sa.String(255), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.add_column("matches", sa.Column("owner", sa.String(32), nullable=True))
    op.create_index("ix_matches_owner", "matches", ["owner"])
    _set_schema_version("5")


def downgrade() -> None:
    op.drop_index("ix_matches_owner", table_name="matches")
    op.drop_column("matches", "owner")
    op.drop_table("processes")
    _set_schema_version("4")
