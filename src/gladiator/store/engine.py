"""One SQLAlchemy Engine per Store, for SQLite or PostgreSQL, and database errors as StoreError.

The server calls the store from its event loop and from bot worker threads, so the Engine is
shared and every call takes a short-lived Session from it.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import Any

from sqlalchemy import URL, Engine, create_engine, event, make_url
from sqlalchemy.exc import (
    ArgumentError,
    DBAPIError,
    IntegrityError,
    InterfaceError,
    OperationalError,
    SQLAlchemyError,
)
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.pool import StaticPool

from gladiator.store.errors import StoreError, StoreUnavailable

__all__ = ["database_errors", "describe", "open_engine", "serialiser"]

_USAGE = "use sqlite:///FILE or postgresql://USER@HOST:PORT/DATABASE"


def describe(url: URL) -> str:
    """The URL for a message, never with its password."""
    return url.render_as_string(hide_password=True)


def _first_line(exc: BaseException) -> str:
    cause = exc.orig if isinstance(exc, DBAPIError) and exc.orig is not None else exc
    lines = [line.strip() for line in str(cause).splitlines() if line.strip()]
    return lines[0] if lines else type(cause).__name__


@contextmanager
def database_errors(what: str, *, conflict: str | None = None) -> Iterator[None]:
    """Turn a driver's error into a one-line StoreError that says what was being done;
    `conflict` says what a broken uniqueness or reference constraint means here. An error of
    the database's availability rather than of the data (HC5) is a StoreUnavailable, which the
    server tries again."""
    try:
        yield
    except IntegrityError as exc:
        raise StoreError(f"{what}: {conflict or _first_line(exc)}") from None
    except (OperationalError, InterfaceError, PoolTimeout) as exc:
        raise StoreUnavailable(f"{what}: {_first_line(exc)}") from None
    except DBAPIError as exc:
        if exc.connection_invalidated:
            raise StoreUnavailable(f"{what}: {_first_line(exc)}") from None
        raise StoreError(f"{what}: {_first_line(exc)}") from None
    except SQLAlchemyError as exc:
        raise StoreError(f"{what}: {_first_line(exc)}") from None


def _sqlite_is_memory(url: URL) -> bool:
    return url.database in (None, "", ":memory:") or url.query.get("mode") == "memory"


def _on_sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets readers (the lobby, spectators) go on while a worker thread commits an order;
    # SQLite leaves foreign keys off unless asked on every connection.
    cursor = dbapi_connection.cursor()
    try:
        _switch_to_wal(cursor)
        # With WAL, NORMAL still survives a crash of the server (what resuming needs); only a
        # power cut may lose the last orders. FULL cost an fsync, ~5 ms, on every order.
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
    finally:
        cursor.close()


def _switch_to_wal(cursor: Any) -> None:
    # Switching a new database file to WAL needs it unlocked, and SQLite answers "database is
    # locked" at once, without waiting as other statements do, while another process or thread
    # is creating the tables: wait for it a while as the busy timeout would.
    for attempt in range(100):
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == 99:
                raise
            time.sleep(0.05)


def open_engine(url_text: str) -> Engine:
    """An Engine for `url_text`; StoreError for anything but a usable SQLite or PostgreSQL URL."""
    try:
        url = make_url(url_text)
    except (ArgumentError, ValueError):
        raise StoreError(f"not a database URL; {_USAGE}") from None
    backend = url.get_backend_name()
    if backend == "sqlite":
        return _sqlite_engine(url)
    if backend == "postgresql":
        return _postgresql_engine(url)
    raise StoreError(f"unsupported database {backend!r}; {_USAGE}")


def _sqlite_engine(url: URL) -> Engine:
    if url.get_driver_name() != "pysqlite":
        raise StoreError(f"unsupported SQLite driver {url.get_driver_name()!r}; {_USAGE}")
    if _sqlite_is_memory(url):
        # One private connection shared by every thread; Store serialises its use.
        engine = create_engine(url, poolclass=StaticPool, connect_args={"check_same_thread": False})
    else:
        path = Path(str(url.database))
        if not path.parent.is_dir():
            raise StoreError(
                f"cannot open the SQLite database {path}: the folder {path.parent} does not exist"
            )
        if path.is_dir():
            raise StoreError(f"cannot open the SQLite database {path}: it is a folder")
        # File databases get a connection pool whose connections may cross threads.
        engine = create_engine(url)
    event.listen(engine, "connect", _on_sqlite_connect)
    return engine


def _postgresql_engine(url: URL) -> Engine:
    if url.drivername == "postgresql":
        # SQLAlchemy's default PostgreSQL driver is psycopg2; this project ships psycopg 3.
        url = url.set(drivername="postgresql+psycopg")
    try:
        return create_engine(
            url,
            # A server restarted under a running arena: check a pooled connection before use.
            pool_pre_ping=True,
            # An unreachable host fails in seconds instead of hanging the start-up.
            connect_args={"connect_timeout": 10},
        )
    except ImportError:
        raise StoreError(
            f"the PostgreSQL driver {url.get_driver_name()!r} is not installed; "
            "use postgresql+psycopg://"
        ) from None


def serialiser(engine: Engine) -> AbstractContextManager[Any]:
    """A lock for an in-memory SQLite database (one shared connection), else nothing."""
    if engine.dialect.name == "sqlite" and _sqlite_is_memory(engine.url):
        return threading.RLock()
    return nullcontext()
