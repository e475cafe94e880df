"""Bringing a database to this program's schema with the Alembic migrations (store/migrations), or
refusing it with one line.

Everything happens in one transaction on one connection, held under a lock (PostgreSQL: an
advisory lock; SQLite: BEGIN IMMEDIATE), so two servers starting at once migrate once, and a crash
half-way leaves the database as it was. A database made before there were migrations (the match
tables by `create_all`, meta schema_version 1) is stamped at revision 0001, then upgraded.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util import CommandError
from sqlalchemy import Column, Connection, Engine, MetaData, String, Table, Text, inspect, text

from gladiator.store.engine import database_errors, describe
from gladiator.store.errors import StoreError
from gladiator.store.models import SCHEMA_VERSION

__all__ = ["MIGRATIONS", "migrations_config", "prepare_schema"]

MIGRATIONS = Path(__file__).parent / "migrations"
_VERSION_KEY = "schema_version"
_MATCH_TABLES = ("matches", "seats", "orders")
# Any fixed number: the PostgreSQL advisory lock that serialises migrating one database.
_LOCK_KEY = 0x474C4144


def migrations_config(connection: Connection) -> Config:
    """An Alembic Config built in code, running the migrations on `connection`."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def prepare_schema(engine: Engine) -> None:
    """Upgrade the database to the newest migration; StoreError if it cannot be used."""
    where = describe(engine.url)
    with database_errors(f"cannot open the database {where}"):
        conn = engine.connect()
    try:
        with database_errors(f"cannot open the database {where}"):
            _lock(conn)
        with database_errors(f"cannot upgrade the database {where}"):
            try:
                _migrate(conn, where)
            except CommandError as exc:
                first = str(exc).strip().splitlines()
                raise StoreError(
                    f"cannot upgrade the database {where}: {first[0] if first else exc}"
                ) from None
            conn.commit()
    finally:
        conn.close()


def _lock(conn: Connection) -> None:
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK_KEY})
        return
    # pysqlite would only begin a transaction before the first INSERT or UPDATE: take the write
    # lock now, so DDL is inside the transaction and a second migrator waits.
    driver = conn.connection.driver_connection
    if driver is None or not driver.in_transaction:
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def _migrate(conn: Connection, where: str) -> None:
    config = migrations_config(conn)
    script = ScriptDirectory.from_config(config)
    head = script.get_current_head()
    tables = set(inspect(conn).get_table_names())
    version = _version_row(conn) if "meta" in tables else None
    if version is not None:
        _check_version(version, where)
    if "alembic_version" in tables:
        known = {rev.revision for rev in script.walk_revisions()}
        for current in MigrationContext.configure(conn).get_current_heads():
            if current not in known:
                raise StoreError(
                    f"the database {where} was written by a newer gladiator (migration "
                    f"{current}; this program knows up to {head}): upgrade gladiator to use it"
                )
    elif tables & {"meta", *_MATCH_TABLES}:
        _adopt_premigration_database(conn, tables, version, where)
        command.stamp(config, "0001")
    command.upgrade(config, "head")


def _adopt_premigration_database(
    conn: Connection, tables: set[str], version: str | None, where: str
) -> None:
    """A database of gladiator before migrations holds exactly revision 0001's tables."""
    missing = [name for name in _MATCH_TABLES if name not in tables]
    if missing:
        raise StoreError(
            f"the database {where} has some of gladiator's tables but not {', '.join(missing)}: "
            "it was left half-made; use a new database"
        )
    if version is None:
        # The old prepare_schema wrote the version row after creating the tables; a crash between
        # the two left the tables without it (or without `meta`).
        meta = Table(
            "meta", MetaData(), Column("key", String(64), primary_key=True), Column("value", Text)
        )
        meta.create(conn, checkfirst=True)
        conn.execute(meta.insert().values(key=_VERSION_KEY, value="1"))


def _version_row(conn: Connection) -> str | None:
    value = conn.execute(
        text("SELECT value FROM meta WHERE key = :key"), {"key": _VERSION_KEY}
    ).scalar_one_or_none()
    return None if value is None else str(value)


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
    if version < 1:
        raise StoreError(
            f"the database {where} has the unknown schema version {version} "
            "and there is no upgrade for it"
        )
