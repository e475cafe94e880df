"""The abandonment clocks (docs/web.md, Abandoned matches): matches.abandonable, matches.active_at
and an index on (status, abandonable).

A match stored before this revision is abandonable when it is running, has a human seat and is
no campaign's fight (a fight's id starts with its campaign's id and a dash); its last human
activity is its last human order, or none.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

_meta = sa.table("meta", sa.column("key", sa.String), sa.column("value", sa.Text))


def _set_schema_version(value: str) -> None:
    op.execute(_meta.update().where(_meta.c.key == "schema_version").values(value=value))


def upgrade() -> None:
    op.add_column(
        "matches",
        sa.Column("abandonable", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.add_column("matches", sa.Column("active_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_matches_abandon", "matches", ["status", "abandonable"])
    op.execute(
        sa.text(
            "UPDATE matches SET abandonable = :yes WHERE status = 'running' "
            "AND EXISTS (SELECT 1 FROM seats s WHERE s.match_id = matches.id "
            "AND s.kind = 'human') "
            "AND NOT EXISTS (SELECT 1 FROM campaigns c WHERE matches.id LIKE c.id || '-%')"
        ).bindparams(sa.bindparam("yes", True, type_=sa.Boolean()))
    )
    op.execute(
        sa.text(
            "UPDATE matches SET active_at = (SELECT max(o.at) FROM orders o JOIN seats s "
            "ON s.match_id = o.match_id AND s.seat = o.seat "
            "WHERE o.match_id = matches.id AND s.kind = 'human') WHERE abandonable = :yes"
        ).bindparams(sa.bindparam("yes", True, type_=sa.Boolean()))
    )
    _set_schema_version("4")


def downgrade() -> None:
    op.drop_index("ix_matches_abandon", table_name="matches")
    op.drop_column("matches", "active_at")
    op.drop_column("matches", "abandonable")
    _set_schema_version("3")
