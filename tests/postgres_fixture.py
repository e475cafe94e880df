"""A throwaway PostgreSQL 15 cluster for the store tests (tests/conftest.py: one a session).

`initdb` and `postgres` refuse to run as root, so under root they run as the `postgres` user in a
temporary folder it owns. The cluster listens on 127.0.0.1 at a free port, with fsync off (`-F`,
`--no-sync`): its data is thrown away at the end of the session.

If the binaries are missing the PostgreSQL tests fail and say to install PostgreSQL (CI installs
it); with GLADIATOR_SKIP_POSTGRES=1 they are skipped instead.
"""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


def _newest_debian_bin() -> Path:
    """Debian installs each major version beside the others; take the newest present."""
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    return found[-1].parent if found else Path("/usr/lib/postgresql/15/bin")


BIN = Path(os.environ.get("GLADIATOR_POSTGRES_BIN") or _newest_debian_bin())
SKIP_VARIABLE = "GLADIATOR_SKIP_POSTGRES"

_database_numbers = itertools.count()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_owner(args: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *args] if os.geteuid() == 0 else args


def _run(args: list[str], what: str) -> None:
    done = subprocess.run(_as_owner(args), capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines()
        pytest.fail(f"{what} failed: {lines[-1] if lines else done.returncode}", pytrace=False)


def postgres_server() -> Iterator[str]:
    """Start a cluster, yield the URL of its `postgres` database, stop and delete it."""
    if os.environ.get(SKIP_VARIABLE) == "1":
        pytest.skip(f"PostgreSQL tests skipped ({SKIP_VARIABLE}=1)")
    if not (BIN / "initdb").exists():
        pytest.fail(
            f"PostgreSQL 15 is not installed (no {BIN / 'initdb'}): install postgresql "
            f"(apt-get install postgresql), or set {SKIP_VARIABLE}=1 to skip these tests",
            pytrace=False,
        )
    folder = Path(tempfile.mkdtemp(prefix="gladiator-pg-"))
    if os.geteuid() == 0:
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            pytest.fail("running as root but there is no 'postgres' user to run PostgreSQL as")
        os.chown(folder, owner.pw_uid, owner.pw_gid)
    data = folder / "data"
    port = _free_port()
    started = False
    try:
        _run(
            [str(BIN / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "--no-sync"],
            "initdb",
        )
        options = f"-h 127.0.0.1 -p {port} -k {folder} -F"
        _run(
            [
                str(BIN / "pg_ctl"),
                "-D",
                str(data),
                "-w",
                "-l",
                str(folder / "log"),
                "-o",
                options,
                "start",
            ],
            "starting PostgreSQL",
        )
        started = True
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        if started:
            _run(
                [str(BIN / "pg_ctl"), "-D", str(data), "-m", "fast", "stop"], "stopping PostgreSQL"
            )
        shutil.rmtree(folder, ignore_errors=True)


def fresh_database(server_url: str) -> str:
    """A new, empty database on the cluster at `server_url`, so each test starts clean."""
    import psycopg

    name = f"t{os.getpid()}_{next(_database_numbers)}"
    dsn = server_url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return server_url.rsplit("/", 1)[0] + "/" + name
