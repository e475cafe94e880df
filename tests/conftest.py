"""Test configuration: under CI the property tests run a fixed, reproducible set of examples
(a failure found there is then the same on every machine); locally they explore afresh. The
store's tests share one throwaway PostgreSQL cluster for the whole session (`postgres_server`),
and `url` runs a test on an SQLite file and on a fresh PostgreSQL database of it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

import postgres_fixture

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    yield from postgres_fixture.postgres_server()


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'arena.db'}"
    return postgres_fixture.fresh_database(request.getfixturevalue("postgres_server"))
