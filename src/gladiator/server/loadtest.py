"""The load test: many concurrent all-human matches, every seat played over a real websocket.

The app runs on a free loopback port (uvicorn in a daemon thread, a SQLite file in a temporary
folder). Each seat is a client-side bot: it reads the decision the server sends (its JSON form),
draws a legal order from it and sends it. Latency is measured per order from send to `ack`, which
the server sends only once the order is stored, so it covers the check, the database commit and
the queueing behind other matches. With `correspondence` every match is a correspondence match
whose deadlines some seats leave to pass (server/loadtest_correspondence.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidURI

from gladiator import registry
from gladiator.bots.spec import parse_spec
from gladiator.core.protocol import Ruleset
from gladiator.server.loadtest_bots import BotMatches
from gladiator.server.loadtest_correspondence import Correspondence, SitOut
from gladiator.server.loadtest_orders import decision_from_dict, sample_order
from gladiator.server.loadtest_servers import finished_matches, server_process, start_servers
from gladiator.sim.machine import machine
from gladiator.sim.runner import derive_seed
from gladiator.store import Store, StoredMatch

__all__ = ["decision_from_dict", "run_loadtest", "sample_order", "server_process"]


@dataclass
class _Tally:
    latencies: list[float] = field(default_factory=list)
    sent: int = 0
    acked: int = 0
    refused: int = 0
    cut_off: int = 0  # sent, then the connection went before its ack or error
    reconnects: int = 0
    moved: int = 0
    finished: int = 0
    problems: list[str] = field(default_factory=list)
    # (match, seat) -> the orders acknowledged, in order: checked against the store at the end.
    acked_orders: dict[tuple[str, str], list[str]] = field(default_factory=dict)


@dataclass
class _Seat:
    match_id: str
    token: str
    bases: list[str]  # every server's URL; the first is the one that made the match
    rng: random.Random
    think: float  # mean seconds before each order (0: none)
    sit_out: SitOut | None = None  # a correspondence match's: the decisions left to the deadline


async def _play_seat(seat_info: _Seat, tally: _Tally, deadline: float) -> bool:
    """Play one seat to the end of its match; True if it saw the outcome. A connection that
    goes is made again (to the next server when a server does not answer); a "moved" message
    sends the seat where the match is held (docs/deploy.md)."""
    base = seat_info.bases[0]
    last_event = 0
    tries = 0
    while time.monotonic() < deadline:
        ws_url = f"{'ws' + base.removeprefix('http')}/ws/{seat_info.match_id}"
        try:
            outcome, where = await _one_connection(ws_url, seat_info, tally, deadline, last_event)
        except (OSError, ConnectionClosed, TimeoutError, InvalidURI) as exc:
            outcome, where = None, None
            tries += 1
            if tries > 50:
                tally.problems.append(f"{seat_info.match_id}: gave up: {exc}")
                return False
            bases = seat_info.bases
            base = bases[(bases.index(base) + 1) % len(bases)] if base in bases else bases[0]
            await asyncio.sleep(0.2)
        if outcome is not None:
            return outcome
        tally.reconnects += 1
        if where is not None:
            base, last_event = where
    return False


async def _one_connection(
    ws_url: str, seat_info: _Seat, tally: _Tally, deadline: float, last_event: int
) -> tuple[bool | None, tuple[str, int] | None]:
    """One socket: (True/False, None) when the match ended or time ran out; (None, (base,
    last event)) when the server sent the seat elsewhere."""
    async with connect(ws_url, max_size=2**24) as ws:
        await ws.send(
            json.dumps({"type": "hello", "token": seat_info.token, "last_event": last_event})
        )
        outstanding: tuple[str, float] | None = None
        seat: str | None = None
        n = 0
        base = ws_url.split("/ws/", 1)[0].replace("ws", "http", 1)
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False, None
                try:
                    raw = await asyncio.wait_for(ws.recv(), left)
                except TimeoutError:
                    return False, None
                msg = json.loads(raw)
                kind = msg.get("type")
                if kind == "welcome":
                    seat = msg["seat"]
                elif kind == "moved":
                    tally.moved += 1
                    return None, (msg.get("url") or base, last_event)
                elif kind == "ack" and outstanding is not None and msg["id"] == outstanding[0]:
                    tally.latencies.append(time.perf_counter() - outstanding[1])
                    tally.acked += 1
                    key = (seat_info.match_id, str(seat))
                    tally.acked_orders.setdefault(key, []).append(msg["order"])
                    outstanding = None
                elif kind == "error":
                    tally.refused += 1
                    tally.problems.append(str(msg.get("message")))
                    outstanding = None
                elif kind == "update":
                    last_event = int(msg.get("event_count", last_event))
                    view = msg["view"]
                    if seat_info.sit_out is not None:
                        seat_info.sit_out.saw(view)
                    if view.get("outcome") is not None:
                        return True, None
                    decision = view.get("decision")
                    if (
                        outstanding is None
                        and decision is not None
                        and seat in view.get("waiting_for", [])
                        and "my_order" not in view
                        and not (seat_info.sit_out is not None and seat_info.sit_out(view))
                    ):
                        if seat_info.think > 0:  # a player reading the board
                            pause = seat_info.rng.expovariate(1 / seat_info.think)
                            if seat_info.sit_out is not None:
                                pause = min(pause, seat_info.sit_out.longest_think(view))
                            await asyncio.sleep(pause)
                        if seat_info.sit_out is not None and seat_info.sit_out.too_near(view):
                            continue
                        n += 1
                        cid = f"{seat}-{n}"
                        order = sample_order(decision, seat_info.rng)
                        outstanding = (cid, time.perf_counter())
                        tally.sent += 1
                        # The decision it answers: one that went meanwhile refuses it (CP9).
                        message = {"type": "order", "id": cid, "order": order}
                        if isinstance(view.get("decision_number"), int):
                            message["decision_number"] = view["decision_number"]
                        await ws.send(json.dumps(message))
        finally:
            if outstanding is not None:
                tally.cut_off += 1


async def _drive(
    seats: list[_Seat],
    limit: float,
    kill: Callable[[], Coroutine[Any, Any, None]] | None,
    beside: Callable[[], Coroutine[Any, Any, None]] | None = None,
    make: Callable[[Callable[[_Seat], object]], None] | None = None,
) -> _Tally:
    """Play every seat; `kill` runs beside and is waited for, `beside` is stopped at the end.
    `make`: makes more matches meanwhile, in a thread, handing over each seat to be played at
    once (and added to `seats`); `kill` then starts once the last is made."""
    tally = _Tally()
    deadline = time.monotonic() + limit
    helper = asyncio.create_task(beside()) if beside is not None else None
    players = [asyncio.create_task(_play_seat(seat, tally, deadline)) for seat in seats]
    if make is not None:
        loop = asyncio.get_running_loop()

        def start(seat: _Seat) -> None:
            seats.append(seat)
            players.append(loop.create_task(_play_seat(seat, tally, deadline)))

        await asyncio.to_thread(make, lambda seat: loop.call_soon_threadsafe(start, seat))
        await asyncio.sleep(0)  # the last seats handed over start before the gather
    killer = asyncio.create_task(kill()) if kill is not None else None
    results: list[Any] = await asyncio.gather(*players, return_exceptions=True)
    if killer is not None:
        await killer
    if helper is not None:
        failed = helper.exception() if helper.done() else None
        if failed is not None:
            results.append(failed)
        helper.cancel()
    for r in results:
        if isinstance(r, BaseException):
            tally.problems.append(f"{type(r).__name__}: {r}")
    return tally


def _percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def run_loadtest(
    matches: int = 20,
    ruleset: str = "quick",
    seed: int = 1,
    *,
    options: Mapping[str, Any] | None = None,
    time_limit: float = 300.0,
    processes: int = 0,
    think: float = 0.0,
    kill_after: float | None = None,
    bot_matches: int = 0,
    bot_spec: str = "search@2",
    bot_workers: int | None = None,
    correspondence: Correspondence | None = None,
) -> dict[str, Any]:
    """Play `matches` concurrent all-human matches through real servers; the figures as JSON
    data (latency in milliseconds from send to ack). `processes`: 0, the app in a thread of
    this process; N, N `gladiator serve` processes on one SQLite file, each making every N-th
    match. `think`: each seat's mean seconds before an order (exponential; 0: none, a closed
    loop that finds the most the servers take). `kill_after`: SIGKILL the first process this
    many seconds in (needs 2 processes or more). `bot_matches`: that many matches more, every
    seat the bot `bot_spec`, on the last server (never the killed one), kept at that many and
    thinking all along beside the humans' (their orders are counted, not timed); `bot_workers`:
    the servers' bot processes (None: their default). `correspondence`: every match made with
    that deadline, some seats leaving decisions to it, and how late the servers applied them
    (server/loadtest_correspondence.py). At the end every acknowledged order is looked for in
    the store (`acked_missing`)."""
    if kill_after is not None and processes < 2:
        raise ValueError("kill_after needs two server processes or more")
    parse_spec(bot_spec)  # an unknown bot or a bad budget: one line before anything starts
    if bot_workers is not None and bot_workers < 1:
        raise ValueError(f"bot_workers must be 1 or more, not {bot_workers}")
    rs = registry.get(ruleset)
    opts = rs.normalise_options(options or {})
    if correspondence is not None:
        correspondence.check(rs.name, opts)
    plan = _Plan(
        matches, seed, time_limit, processes, think, kill_after, bot_workers, correspondence
    )
    load = [_load()]  # a machine shared with other work shows it here
    run = _run(plan, rs, opts, bot_spec, bot_matches)
    load.append(_load())
    tally = run.tally
    ms = [x * 1000 for x in tally.latencies]
    p50, p95, p99 = (_percentile(ms, q) for q in (50, 95, 99))
    return {
        "schema": "gladiator.loadtest",
        "schema_version": 4,
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "ruleset": rs.name,
        "options": dict(opts),
        "seed": seed,
        "matches": matches,
        "seats": run.seats,
        "processes": processes,
        "think_seconds": think,
        "killed": run.killed or None,
        "machine": machine(),
        "load_average": {"start": load[0], "end": load[1]},
        "argv": sys.argv[1:],
        "orders_sent": tally.sent,
        "orders_acked": tally.acked,
        "orders_refused": tally.refused,
        "orders_cut_off": tally.cut_off,
        "orders_lost": tally.sent - tally.acked - tally.refused - tally.cut_off,
        "acked_missing": run.missing,
        "reconnects": tally.reconnects,
        "moved": tally.moved,
        "matches_finished": run.finished,
        "latency_ms": {
            "p50": round(p50, 2) if p50 is not None else None,
            "p95": round(p95, 2) if p95 is not None else None,
            "p99": round(p99, 2) if p99 is not None else None,
            "max": round(max(ms), 2) if ms else None,
        },
        "orders_per_second": round(tally.acked / run.wall, 1) if run.wall > 0 else None,
        "bot_workers": bot_workers,
        **run.bot_tally,
        "correspondence": run.deadlines,
        "wall_seconds": round(run.wall, 3),
        "problems": tally.problems[:20],
    }


@dataclass(frozen=True)
class _Plan:
    matches: int
    seed: int
    time_limit: float
    processes: int
    think: float
    kill_after: float | None
    bot_workers: int | None
    correspondence: Correspondence | None


@dataclass
class _Run:
    tally: _Tally
    seats: int
    wall: float
    finished: int
    missing: int
    killed: dict[str, Any]
    bot_tally: dict[str, Any]
    deadlines: dict[str, Any] | None


def _run(
    plan: _Plan, rs: Ruleset[Any], opts: Mapping[str, Any], bot_spec: str, bot_matches: int
) -> _Run:
    """Start the servers, make the matches, play them, and read the store at the end."""
    with tempfile.TemporaryDirectory(prefix="gladiator-loadtest-") as tmp:
        db = f"sqlite:///{Path(tmp) / 'load.db'}"
        with contextlib.ExitStack() as stack:
            children, bases = start_servers(
                stack, Path(tmp), db, plan.processes, plan.bot_workers, plan.correspondence
            )
            bots = BotMatches(bases[-1], db, rs, opts, plan.seed, bot_spec, bot_matches)
            bots.start(plan.time_limit)
            seats: list[_Seat] = []
            made: dict[str, tuple[str, str]] = {}

            def make(hand: Callable[[_Seat], object]) -> None:
                made.update(_make_matches(bases, plan, rs.name, opts, hand))

            if plan.correspondence is None:  # made first, then played
                make(seats.append)
            killed: dict[str, Any] = {}

            async def kill() -> None:
                assert plan.kill_after is not None
                await asyncio.sleep(plan.kill_after)
                killed.update(at_seconds=plan.kill_after, at=_iso(datetime.now(UTC)))
                children[0].kill()
                await asyncio.to_thread(children[0].process.wait)

            start = time.perf_counter()
            killer = kill if plan.kill_after else None
            keep = bots.keep if bots.count else None
            # A deadline runs from the match's creation: its seats play from then on.
            streamed = make if plan.correspondence is not None else None
            tally = asyncio.run(_drive(seats, plan.time_limit, killer, keep, streamed))
            wall = time.perf_counter() - start
            finished = finished_matches(bases[-1], bots.made)
            deadlines = None
            if plan.correspondence is not None:  # while the servers run, keeping deadlines
                deadlines = plan.correspondence.figures(
                    db,
                    made,
                    [seat.sit_out for seat in seats if seat.sit_out is not None],
                    children[0].url if killed else None,
                    datetime.fromisoformat(killed["at"]) if killed else None,
                )
        with Store(db) as store:
            missing = _acked_missing(store, tally)
        bot_tally = bots.tally()
    return _Run(tally, len(seats), wall, finished, missing, killed, bot_tally, deadlines)


def _load() -> list[float] | None:
    """The machine's load average over 1, 5 and 15 minutes (None where there is none)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):
        return None


def _iso(when: datetime) -> str:
    return when.isoformat(timespec="milliseconds")


def _make_matches(
    bases: list[str],
    plan: _Plan,
    ruleset: str,
    opts: Mapping[str, Any],
    hand: Callable[[_Seat], object],
) -> dict[str, tuple[str, str]]:
    """Match i is made on server i mod N; each seat plays against the server that made it, and
    is handed over as soon as its match is made. The matches made: each one's server and what
    its deadline brings ("" for none)."""
    made: dict[str, tuple[str, str]] = {}
    n_seats = 0
    corr = plan.correspondence
    clients = [httpx.Client(base_url=base, timeout=30) for base in bases]
    try:
        for i in range(plan.matches):
            k = i % len(bases)
            body = {"ruleset": ruleset, "options": dict(opts), "seed": derive_seed(plan.seed, i)}
            then = corr.then_of(i, len(bases)) if corr is not None else ""
            if corr is not None:
                body["deadline"] = corr.deadline(then)
            answer = clients[k].post("/api/matches", json=body)
            answer.raise_for_status()
            made_id = answer.json()["id"]
            made[made_id] = (bases[k], then)
            for n, info in enumerate(answer.json()["seats"].values()):
                token = info["link"].split("#t=", 1)[1]
                rng = random.Random(derive_seed(plan.seed, "client", n_seats))
                order = bases[k:] + bases[:k]
                seat = _Seat(made_id, token, order, rng, plan.think)
                if corr is not None:
                    quiet = random.Random(derive_seed(plan.seed, "sit-out", n_seats))
                    seat.sit_out = corr.sit_out(then, n, quiet, plan.time_limit)
                n_seats += 1
                hand(seat)
    finally:
        for client in clients:
            client.close()
    return made


def _acked_missing(store: Store, tally: _Tally) -> int:
    """Acknowledged orders the store does not have, in order, for their seat."""
    missing = 0
    loaded: dict[str, StoredMatch | None] = {}
    for (match_id, seat), acked in tally.acked_orders.items():
        if match_id not in loaded:
            loaded[match_id] = store.load(match_id)
        stored = loaded[match_id]
        kept = iter([o for who, o in stored.orders if who == seat] if stored else [])
        for order in acked:
            if not any(order == k for k in kept):
                missing += 1
    return missing
