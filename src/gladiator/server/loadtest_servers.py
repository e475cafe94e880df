"""The load test's servers (server/loadtest.py): `gladiator serve` processes on one database,
or the app in a thread of the load test's own process."""

from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import httpx

from gladiator.server.app import create_app
from gladiator.server.bot_pool import BotPolicy
from gladiator.server.conn_limits import Limits, file_budget
from gladiator.server.listen import start_in_thread
from gladiator.server.loadtest_correspondence import Correspondence
from gladiator.store import Store

__all__ = ["Child", "finished_matches", "server_process", "start_servers"]


def start_servers(
    stack: contextlib.ExitStack,
    tmp: Path,
    db: str,
    processes: int,
    bot_workers: int | None,
    correspondence: Correspondence | None,
) -> tuple[list[Child], list[str]]:
    """`processes` server processes on `db` (0: the app in a thread of this one), stopped
    when `stack` closes; their URLs, the first the one a kill stops."""
    extra = correspondence.server_args() if correspondence is not None else []
    if processes:
        if bot_workers is not None:
            extra += ["--bot-workers", str(bot_workers)]
        children = [
            stack.enter_context(server_process(db, tmp / f"server-{i}.log", extra=extra))
            for i in range(processes)
        ]
        return children, [child.url for child in children]
    store = Store(db)
    stack.callback(store.close)
    # Every client of the load test is on loopback: one address may use all.
    limits = Limits.checked(max_per_address=file_budget())
    # The bot matches have nobody watching: they must not pause (HF4).
    policy = BotPolicy(pause_after=0)
    if bot_workers is not None:
        policy = replace(policy, workers=bot_workers)
    deadlines = correspondence.policy if correspondence is not None else None
    app = create_app(store, bot_policy=policy, deadlines=deadlines)
    running = start_in_thread(app, limits=limits)
    stack.callback(running.stop)
    return [], [running.url]


def finished_matches(base: str, bot_made: list[str]) -> int:
    """The humans' matches finished, as the server lists them."""
    with httpx.Client(base_url=base, timeout=30) as http:
        listed = http.get("/api/matches", params={"limit": 500}).json()
    return sum(1 for m in listed if m["status"] == "finished" and m["id"] not in bot_made)


@dataclass
class Child:
    process: subprocess.Popen[bytes]
    url: str

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)


@contextlib.contextmanager
def server_process(db: str, log: Path, *, extra: Sequence[str] = ()) -> Iterator[Child]:
    """`gladiator serve` on a free loopback port (the load test, the tests): no creation
    limit, no abandonment, every connection allowed from loopback, then the `extra`
    arguments; stopped at the end."""
    budget = file_budget()
    with log.open("wb") as err:
        child = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "from gladiator.cli.main import run; run()",
                "serve",
                "--port",
                "0",
                "--db",
                db,
                "--create-rate",
                "0",
                "--abandon-after",
                "0",
                "--void-after",
                "0",
                "--max-per-address",
                str(budget),
                *extra,
            ],
            stdout=subprocess.PIPE,
            stderr=err,
        )
        try:
            assert child.stdout is not None
            line = child.stdout.readline().decode()
            if " on " not in line:
                raise RuntimeError(f"the server did not start: {log.read_text()[-500:]}")
            yield Child(child, line.split(" on ", 1)[1].split("/ ", 1)[0])
        finally:
            if child.poll() is None:
                child.terminate()
                try:
                    child.wait(15)
                except subprocess.TimeoutExpired:
                    child.kill()
                    child.wait()
