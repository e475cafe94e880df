"""The hostile run (issue 28): a real `gladiator serve` whose Colosseum engine fails on purpose,
played by hostile clients, to show that no order breaks a match (ruling HF1).

Colosseum Advanced matches of four shapes (a duel, 2 v 2, one beast against a Retiarius, a pack
of beasts) are made on a server started with `--inject-fault colosseum:PATTERN`, and every human
seat is played over a real websocket with random offered orders and, between them, hostile
messages (server/hostile_client.py): malformed, binary, oversized, foreign-seat and not-offered
orders, on the seat's socket, on throwaway sockets and over HTTP. Once half the matches have
ended the seats send a volley of orders and the server is stopped (SIGTERM) amid it, then
started again on the same database, and every match's view (and a finished one's replay) must
answer. At the end every finished record is replayed
here under the real rules, and the server's stderr is read (server/hostile_log.py): every
traceback must be the one an engine fault's log line carries, the injected fault's or the real
engine's net fault in a beast hunt.
"""

from __future__ import annotations

import asyncio
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

from gladiator import registry
from gladiator.core.match import Match, ReplayMismatch
from gladiator.core.record import MatchRecord, RecordError
from gladiator.server.conn_limits import file_budget
from gladiator.server.hostile_client import SeatPlayer, SeatRef, Tally, Target
from gladiator.server.hostile_log import read_stderr
from gladiator.sim.machine import machine
from gladiator.sim.runner import derive_seed
from gladiator.store import Store

__all__ = ["DEFAULT_PATTERN", "SHAPES", "run_hostile"]

VOLLEY_LEAD = 1.0  # seconds the seats' volley of orders starts before the SIGTERM
TAKE_OVER_TIMEOUT = 120.0  # seconds a match asked for after the restart may take to answer
# A plot with a pivot left before a forward step: a few faults a match, yet always another plot.
DEFAULT_PATTERN = r"\(L\)F"
SHAPES: dict[str, dict[str, Any]] = {
    "duel": {"advanced": True},
    "2v2": {"advanced": True, "teams": "red+green:blue+gold"},
    "beast": {"advanced": True, "beasts": "blue:lion", "styles": ["retiarius", "random"]},
    "pack": {
        "advanced": True,
        "beasts": "blue:lion,green:bear",
        "styles": ["retiarius", "random", "random"],
    },
}


@dataclass
class _Server:
    process: subprocess.Popen[bytes]
    url: str
    stderr: Path


def _start(db: str, folder: Path, n: int, pattern: str) -> _Server:
    """`gladiator serve` on a free loopback port with the fault injected: no creation limit, no
    abandonment, every connection allowed from loopback. Its stdout (where the access log goes)
    and stderr are files, so that no pipe fills and stops it."""
    out, err = folder / f"server-{n}.out", folder / f"server-{n}.err"
    with out.open("wb") as out_file, err.open("wb") as err_file:
        process = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "from gladiator.cli.main import run; run()",
                "serve",
                *("--port", "0", "--db", db, "--create-rate", "0"),
                *("--abandon-after", "0", "--void-after", "0"),
                *("--max-per-address", str(file_budget())),
                *("--inject-fault", f"colosseum:{pattern}"),
            ],
            stdout=out_file,
            stderr=err_file,
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        found = re.search(r"arena on (http://\S+?)/ ", out.read_text(errors="replace"))
        if found:
            return _Server(process, found[1], err)
        time.sleep(0.05)
    _stop(_Server(process, "", err))
    raise RuntimeError(f"the server did not start: {err.read_text(errors='replace')[-800:]}")


def _stop(server: _Server) -> int | None:
    """SIGTERM, as a service manager stops it; SIGKILL if it has not gone in 20 s."""
    if server.process.poll() is None:
        server.process.send_signal(signal.SIGTERM)
        try:
            server.process.wait(20)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait()
    return server.process.returncode


@dataclass(frozen=True)
class _Made:
    shape: str
    id: str
    tokens: dict[str, str]  # human seat -> token
    spectator: str


def _make(base: str, per_shape: int, seed: int, tallies: dict[str, Tally]) -> list[_Made]:
    made: list[_Made] = []
    with httpx.Client(base_url=base, timeout=30) as http:
        for shape, options in SHAPES.items():
            for i in range(per_shape):
                body = {
                    "ruleset": "colosseum",
                    "options": options,
                    "seed": derive_seed(seed, shape, i),
                }
                answer = http.post("/api/matches", json=body)
                tallies[shape].http[answer.status_code] += 1
                answer.raise_for_status()
                info = answer.json()
                tokens = {
                    seat: s["link"].split("#t=", 1)[1]
                    for seat, s in info["seats"].items()
                    if s["kind"] == "human"
                }
                spectator = info["spectator"].split("#t=", 1)[1]
                made.append(_Made(shape, info["id"], tokens, spectator))
    return made


def _seats(made: list[_Made]) -> list[SeatRef]:
    refs = []
    for k, m in enumerate(made):
        foreign = next(iter(made[(k + 1) % len(made)].tokens.values()))
        for seat, token in m.tokens.items():
            others = tuple(t for s, t in m.tokens.items() if s != seat)
            refs.append(SeatRef(m.shape, m.id, seat, token, others, foreign, m.spectator))
    return refs


class _Run:
    """The clients, the restart halfway and the checks after it."""

    def __init__(
        self, made: list[_Made], server: _Server, start: Callable[[int], _Server], deadline: float
    ) -> None:
        self.made, self.server, self.start, self.deadline = made, server, start, deadline
        self.target = Target(server.url)
        self.tallies = {shape: Tally() for shape in SHAPES}
        self.restart: dict[str, Any] = {}
        self.servers = [server]

    async def drive(self, seed: int) -> list[str]:
        problems: list[str] = []
        limits = httpx.Limits(max_connections=64)
        async with httpx.AsyncClient(timeout=30, limits=limits) as http:
            players = [
                SeatPlayer(
                    ref,
                    self.target,
                    self.tallies[ref.shape],
                    http,
                    random.Random(derive_seed(seed, "client", ref.match_id, ref.seat)),
                    self.deadline,
                )
                for ref in _seats(self.made)
            ]
            restarter = asyncio.create_task(self._restart_halfway(http))
            ended = await asyncio.gather(*(p.play() for p in players), return_exceptions=True)
            await restarter
        for player, result in zip(players, ended, strict=True):
            if isinstance(result, BaseException):
                problems.append(f"{player.ref.match_id} {player.ref.seat}: {result!r}")
        return problems

    async def _restart_halfway(self, http: httpx.AsyncClient) -> None:
        while len(self.target.finished) < len(self.made) / 2 and time.monotonic() < self.deadline:
            await asyncio.sleep(0.1)
        self.target.volley += 1
        await asyncio.sleep(VOLLEY_LEAD)
        began = time.monotonic()
        self.target.restarting = True
        running = len(self.made) - len(self.target.finished)
        code = await asyncio.to_thread(_stop, self.server)
        stopped = time.monotonic()
        self.server = await asyncio.to_thread(self.start, len(self.servers))
        self.servers.append(self.server)
        self.target.base = self.server.url
        self.target.restarting = False
        started = time.monotonic()
        checked = await asyncio.gather(*(_unplayable(http, self.server.url, m) for m in self.made))
        unplayable = [why for why in checked if why is not None]
        self.restart = {
            "matches_running": running,
            "old_server_exit": code,
            "seconds_stopping": round(stopped - began, 2),
            "seconds_starting": round(started - stopped, 2),
            "seconds_checking": round(time.monotonic() - started, 2),
            "unplayable": len(unplayable),
            "unplayable_shown": unplayable[:10],
        }


async def _unplayable(http: httpx.AsyncClient, base: str, made: _Made) -> str | None:
    """Why the match cannot be played on (or, finished, replayed) now; None if it can. A new
    process takes its matches over as they are asked for, each a replay: on a busy machine the
    first answer may take longer than a client's usual timeout without the match being lost."""
    token = next(iter(made.tokens.values()))
    try:
        view = await http.get(
            f"{base}/api/matches/{made.id}/view",
            headers={"Authorization": f"Bearer {token}"},
            timeout=TAKE_OVER_TIMEOUT,
        )
        if view.status_code != 200:
            return f"{made.id}: view {view.status_code} {view.text[:200]}"
        if view.json()["view"].get("outcome") is None:
            return None
        replay = await http.get(f"{base}/api/matches/{made.id}/replay", timeout=TAKE_OVER_TIMEOUT)
        if replay.status_code != 200:
            return f"{made.id}: replay {replay.status_code} {replay.text[:200]}"
    except httpx.HTTPError as exc:
        return f"{made.id}: {exc!r}"
    return None


def _verify(base: str, made: list[_Made]) -> dict[str, Counter[str]]:
    """Each match's end: 'verified' (its record replays here, under the real rules),
    'unfinished', or what went wrong; by shape."""
    ruleset = registry.get("colosseum")
    ends: dict[str, Counter[str]] = {shape: Counter() for shape in SHAPES}
    with httpx.Client(base_url=base, timeout=30) as http:
        for m in made:
            answer = http.get(f"/api/matches/{m.id}/record")
            if answer.status_code == 409:
                ends[m.shape]["unfinished"] += 1
                continue
            try:
                answer.raise_for_status()
                Match.replay(MatchRecord.from_dict(answer.json()), ruleset)
            except (httpx.HTTPError, RecordError, ReplayMismatch) as exc:
                ends[m.shape][f"failed: {exc}"[:200]] += 1
            else:
                ends[m.shape]["verified"] += 1
    return ends


def _store_checks(db: str, made: list[_Made], pattern: str) -> dict[str, int]:
    """What the store holds after the run: voided orders, and stored orders the engine would
    have failed on (never: such a decision is voided whole)."""
    found = re.compile(pattern)
    voided = matching = 0
    with Store(db) as store:
        for m in made:
            voided += len(store.voids.orders(m.id))
            stored = store.load(m.id)
            matching += sum(1 for _, o in stored.orders if found.search(o)) if stored else 0
    return {"voided_orders": voided, "stored_orders_matching_pattern": matching}


def run_hostile(
    per_shape: int = 12,
    seed: int = 1,
    *,
    pattern: str = DEFAULT_PATTERN,
    time_limit: float = 900.0,
    folder: Path | None = None,
) -> dict[str, Any]:
    """The hostile run; its figures as JSON data. `folder` keeps the database and the
    server's logs (default: a temporary folder, removed)."""
    re.compile(pattern)  # a bad pattern fails here, not in the server
    with tempfile.TemporaryDirectory(prefix="gladiator-hostile-") as tmp:
        where = folder or Path(tmp)
        where.mkdir(parents=True, exist_ok=True)
        db = f"sqlite:///{where / 'hostile.db'}"
        began = time.perf_counter()

        def start(n: int) -> _Server:
            return _start(db, where, n, pattern)

        run = _Run([], start(0), start, time.monotonic() + time_limit)
        try:
            run.made = _make(run.server.url, per_shape, seed, run.tallies)
            problems = asyncio.run(run.drive(seed))
            ends = _verify(run.server.url, run.made)
        finally:
            for s in run.servers:
                _stop(s)
        logs = read_stderr("\n".join(s.stderr.read_text(errors="replace") for s in run.servers))
        stored = _store_checks(db, run.made, pattern)
        seconds = time.perf_counter() - began
    return _result(run, ends, logs.to_dict(), stored, problems, per_shape, seed, pattern, seconds)


def _result(
    run: _Run,
    ends: dict[str, Counter[str]],
    logs: dict[str, Any],
    stored: dict[str, int],
    problems: list[str],
    per_shape: int,
    seed: int,
    pattern: str,
    seconds: float,
) -> dict[str, Any]:
    shapes = {
        shape: {
            "options": SHAPES[shape],
            "matches": per_shape,
            "ends": dict(ends[shape]),
            **run.tallies[shape].to_dict(),
        }
        for shape in SHAPES
    }
    every = [run.tallies[s] for s in SHAPES]
    bare = [b for t in every for b in t.bare_closes]
    return {
        "schema": "gladiator.hostile",
        "schema_version": 1,
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "argv": sys.argv[1:],
        "machine": machine(),
        "ruleset": "colosseum",
        "injected_pattern": pattern,
        "seed": seed,
        "matches": per_shape * len(SHAPES),
        "shapes": shapes,
        "faults": {
            "logged": logs["fault_lines"],
            "by_cause": logs["fault_kinds"],
            "answered_engine_fault": sum(t.faults for t in every),
        },
        "tracebacks": logs,
        "http_5xx": sum(s["http_5xx"] for s in shapes.values()),
        "closes_without_frame": len(bare),
        # Of which those of seats whose server was stopped (SIGTERM) under them (ruling HC7).
        "closes_without_frame_at_restart": sum("while the server restarted" in b for b in bare),
        "closes_without_frame_shown": bare[:10],
        "restart": run.restart,
        "unplayable_after_restart": run.restart.get("unplayable"),
        "unfinished_at_end": sum(e["unfinished"] for e in ends.values()),
        "records_verified": sum(e["verified"] for e in ends.values()),
        "store": stored,
        "seconds": round(seconds, 1),
        "problems": (problems + [p for t in every for p in t.problems])[:20],
    }
