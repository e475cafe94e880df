"""Alembic's environment for the store: always on the connection `prepare_schema` hands over.

`prepare_schema` holds that connection's transaction (and, on PostgreSQL, a lock), so the
migrations run inside it: a crash half-way through leaves the database as it was.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from gladiator.store import campaign_models  # noqa: F401  (registers the campaign tables)
from gladiator.store.models import Base

connection = context.config.attributes.get("connection")
if not isinstance(connection, Connection):
    raise RuntimeError("the store's migrations run through gladiator.store.schema.prepare_schema")
context.configure(connection=connection, target_metadata=Base.metadata)
with context.begin_transaction():
    context.run_migrations()
