"""Tests for the store's Alembic migrations (gladiator.store.schema, store/migrations).

Every test that takes `url` runs on an SQLite file and on a throwaway PostgreSQL 15 cluster
(tests/postgres_fixture.py). "Old-style" is a database made before migrations existed: the match
tables by `create_all` and a meta row schema_version = 1.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, inspect, text

from gladiator.core.seeding import commit
from gladiator.store import SCHEMA_VERSION, Store, StoredSeat, StoreError, hash_token
from gladiator.store import campaign_models as _campaign_models  # registers the campaign tables
from gladiator.store.models import Base, MatchRow, MetaRow, OrderRow, SeatRow
from gladiator.store.schema import migrations_config

assert _campaign_models
HEAD = f"{SCHEMA_VERSION:04d}"
CAMPAIGN_TABLES = {
    "campaigns",
    "lanistas",
    "gladiators",
    "bouts",
    "campaign_steps",
    "ledger_entries",
}
MATCH_TABLES = [MetaRow.__table__, MatchRow.__table__, SeatRow.__table__, OrderRow.__table__]


def _schema_diff(url: str) -> list[Any]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return list(compare_metadata(MigrationContext.configure(conn), Base.metadata))
    finally:
        engine.dispose()


def _scalar(url: str, sql: str) -> Any:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return conn.execute(text(sql)).scalar()
    finally:
        engine.dispose()


def _tables(url: str) -> set[str]:
    engine = create_engine(url)
    try:
        return set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


def _old_style_database(url: str, *, version_row: bool = True) -> None:
    """What the store wrote before migrations: create_all of the match tables, meta 1, and one
    match with two orders."""
    engine = create_engine(url)
    try:
        # Revision 0001's tables are the schema before migrations: made by the migration itself,
        # then its stamp removed, so columns added since (0004) are not there.
        with engine.begin() as conn:
            command.upgrade(migrations_config(conn), "0001")
            conn.execute(text("DROP TABLE alembic_version"))
            conn.execute(text("DELETE FROM meta"))
        with engine.begin() as conn:
            if version_row:
                conn.execute(text("INSERT INTO meta (key, value) VALUES ('schema_version', '1')"))
            conn.execute(
                text(
                    "INSERT INTO matches (id, ruleset, options, seed, nonce, commitment, status, "
                    "created_at, spectator_hash) VALUES ('old', 'quick', '{\"max_rounds\": 30}', "
                    "11, 'n', :commitment, 'running', '2024-01-01 00:00:00', 'h')"
                ),
                {"commitment": commit(11, "n")},
            )
            conn.execute(
                text(
                    "INSERT INTO seats (match_id, seat, position, kind, bot, token_hash, label) "
                    "VALUES ('old', 'red', 0, 'human', NULL, :token, 'Ann'), "
                    "('old', 'blue', 1, 'bot', 'greedy', NULL, '')"
                ),
                {"token": hash_token("t")},
            )
            conn.execute(
                text(
                    "INSERT INTO orders (match_id, seq, seat, order_text, at) VALUES "
                    "('old', 0, 'red', 'F', '2024-01-01 00:00:01'), "
                    "('old', 1, 'blue', 'L', '2024-01-01 00:00:02')"
                )
            )
    finally:
        engine.dispose()


def test_a_new_database_is_migrated_to_exactly_the_models(url: str) -> None:
    Store(url).close()
    assert _schema_diff(url) == []
    assert _tables(url) >= CAMPAIGN_TABLES
    assert _scalar(url, "SELECT version_num FROM alembic_version") == HEAD
    assert _scalar(url, "SELECT value FROM meta WHERE key = 'schema_version'") == str(
        SCHEMA_VERSION
    )


def test_opening_a_migrated_database_again_changes_nothing(url: str) -> None:
    Store(url).close()
    Store(url).close()
    assert _scalar(url, "SELECT count(*) FROM alembic_version") == 1
    assert _scalar(url, "SELECT count(*) FROM meta") == 1


def test_an_old_style_database_is_stamped_at_0001_upgraded_and_keeps_its_matches(url: str) -> None:
    _old_style_database(url)
    assert _schema_diff(url) != []  # the campaign tables are missing: the probe can fail
    with Store(url) as store:
        stored = store.load("old")
        assert stored is not None
        assert stored.orders == (("red", "F"), ("blue", "L"))
        assert [s.seat for s in stored.seats] == ["red", "blue"]
        assert [m.id for m in store.list_matches()] == ["old"]
    assert _schema_diff(url) == []
    assert _scalar(url, "SELECT version_num FROM alembic_version") == HEAD
    assert _scalar(url, "SELECT value FROM meta WHERE key = 'schema_version'") == str(
        SCHEMA_VERSION
    )


def test_an_old_style_database_that_crashed_before_its_version_row_is_adopted(url: str) -> None:
    # The old prepare_schema created the tables, then wrote the version row in a second step.
    _old_style_database(url, version_row=False)
    with Store(url) as store:
        assert store.load("old") is not None
    assert _scalar(url, "SELECT value FROM meta WHERE key = 'schema_version'") == str(
        SCHEMA_VERSION
    )


def test_a_database_from_a_newer_migration_is_refused_in_one_line(url: str) -> None:
    Store(url).close()
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '0099'"))
    engine.dispose()
    with pytest.raises(StoreError) as caught:
        Store(url)
    message = str(caught.value)
    assert "written by a newer gladiator (migration 0099; this program knows up to " in message
    assert message.endswith("upgrade gladiator to use it") and "\n" not in message


def test_a_half_made_old_database_is_refused(url: str) -> None:
    engine = create_engine(url)
    Base.metadata.create_all(engine, tables=[MatchRow.__table__])
    engine.dispose()
    with pytest.raises(StoreError, match="has some of gladiator's tables but not seats, orders"):
        Store(url)


def test_a_failing_migration_leaves_the_database_as_it_was(url: str) -> None:
    """The whole upgrade is one transaction: 0002 fails on its last table (one that is already
    there) and none of its other tables, nor the stamp, remain."""
    _old_style_database(url)
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE ledger_entries (x INTEGER)"))
    engine.dispose()
    with pytest.raises(StoreError, match=r"^cannot upgrade the database "):
        Store(url)
    assert _tables(url) == {"meta", "matches", "seats", "orders", "ledger_entries"}
    assert _scalar(url, "SELECT value FROM meta WHERE key = 'schema_version'") == "1"


def test_downgrade_to_0001_and_up_again(url: str) -> None:
    Store(url).close()
    engine = create_engine(url)
    with engine.begin() as conn:
        command.downgrade(migrations_config(conn), "0001")
    engine.dispose()
    assert not CAMPAIGN_TABLES & _tables(url)
    assert _scalar(url, "SELECT value FROM meta WHERE key = 'schema_version'") == "1"
    Store(url).close()
    assert _schema_diff(url) == []


def test_two_stores_opening_a_new_database_at_once_migrate_it_once(url: str) -> None:
    errors: list[BaseException] = []
    start = threading.Barrier(3)

    def open_store() -> None:
        start.wait()
        try:
            Store(url).close()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=open_store) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert _scalar(url, "SELECT count(*) FROM alembic_version") == 1
    assert _schema_diff(url) == []


def test_a_stored_match_survives_in_a_migrated_database(url: str) -> None:
    with Store(url) as store:
        store.create_match(
            match_id="m",
            ruleset="quick",
            options={},
            seed=3,
            nonce="n",
            commitment=commit(3, "n"),
            seats=(
                StoredSeat("red", "human", None, None),
                StoredSeat("blue", "bot", "greedy", None),
            ),
            spectator_hash="h",
        )
    with Store(url) as store:
        assert store.load("m") is not None
