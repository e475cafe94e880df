"""Creating the tables, and refusing a database written by another schema version."""

from __future__ import annotations

from sqlalchemy import Connection, Engine, insert, inspect, select

from gladiator.store.engine import database_errors, describe
from gladiator.store.errors import StoreError
from gladiator.store.models import SCHEMA_VERSION, Base, MetaRow

__all__ = ["prepare_schema"]

_VERSION_KEY = "schema_version"


def prepare_schema(engine: Engine) -> None:
    """Check the stored schema version, then create whatever tables are missing."""
    where = describe(engine.url)
    found = _read_version(engine, where)
    if found is not None:
        _check_version(found, where)
    with database_errors(f"cannot create the tables in {where}"):
        Base.metadata.create_all(engine)
    if found is None:
        with database_errors(f"cannot write the schema version of {where}"), engine.begin() as c:
            # Read again inside the transaction: another process may have just created it.
            if _version_row(c) is None:
                c.execute(insert(MetaRow).values(key=_VERSION_KEY, value=str(SCHEMA_VERSION)))


def _read_version(engine: Engine, where: str) -> str | None:
    with database_errors(f"cannot open the database {where}"), engine.connect() as conn:
        if not inspect(conn).has_table(MetaRow.__tablename__):
            return None
        return _version_row(conn)


def _version_row(conn: Connection) -> str | None:
    return conn.execute(
        select(MetaRow.value).where(MetaRow.key == _VERSION_KEY)
    ).scalar_one_or_none()


def _check_version(value: str, where: str) -> None:
    try:
        version = int(value)
    except ValueError:
        raise StoreError(
            f"the database {where} has schema version {value!r}, which is not a number; "
            "is it a gladiator database?"
        ) from None
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"the database {where} was written by a newer gladiator (schema version {version}; "
            f"this program knows {SCHEMA_VERSION}): upgrade gladiator to use it"
        )
    if version < SCHEMA_VERSION:
        raise StoreError(
            f"the database {where} has the old schema version {version} "
            f"(this program needs {SCHEMA_VERSION}) and there is no upgrade for it"
        )
