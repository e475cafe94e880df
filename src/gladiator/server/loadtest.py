"""The load test: many concurrent all-human matches, every seat played over a real websocket.

The app runs on a free loopback port (uvicorn in a daemon thread, a SQLite file in a temporary
folder). Each seat is a client-side bot: it reads the decision the server sends (its JSON form),
draws a legal order from it and sends it. Latency is measured per order from send to `ack`, which
the server sends only once the order is stored, so it covers the check, the database commit and
the queueing behind other matches.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidURI

from gladiator import registry
from gladiator.bots.spec import parse_spec
from gladiator.core.decisions import (
    Arrange,
    ChooseOne,
    Decision,
    Distribute,
    Option,
    PickHex,
    Slot,
    SlotGroup,
)
from gladiator.core.hexgrid import Hex
from gladiator.server.app import create_app
from gladiator.server.bot_pool import BotPolicy
from gladiator.server.conn_limits import Limits, file_budget
from gladiator.server.listen import start_in_thread
from gladiator.server.loadtest_bots import BotMatches
from gladiator.sim.machine import machine
from gladiator.sim.runner import derive_seed
from gladiator.store import Store, StoredMatch

__all__ = ["decision_from_dict", "run_loadtest", "sample_order", "server_process"]


def decision_from_dict(d: Mapping[str, Any]) -> Decision:
    """A decision rebuilt from its `to_dict()` (what a client receives), enough to draw from."""
    kind = d.get("kind")
    prompt = str(d.get("prompt", ""))
    if kind == "choose":
        return ChooseOne(prompt=prompt, options=tuple(Option(o["text"]) for o in d["options"]))
    if kind == "distribute":
        return Distribute(
            prompt=prompt,
            budget=int(d["budget"]),
            exact=bool(d["exact"]),
            max_used=d.get("max_used"),
            slots=tuple(
                Slot(s["name"], int(s["max"]), int(s["min"]), step=int(s.get("step", 1)))
                for s in d["slots"]
            ),
            groups=tuple(
                SlotGroup(
                    tuple(g["slots"]),
                    int(g["max"]),
                    max_used=g.get("max_used"),
                    above=int(g.get("above", 0)),
                )
                for g in d.get("groups", ())
            ),
        )
    if kind == "hex":
        return PickHex(prompt=prompt, hexes=tuple(Hex(q, r) for q, r in d["hexes"]))
    if kind == "arrange":
        return Arrange(prompt=prompt, items=tuple(d["items"]))
    raise ValueError(f"unknown decision kind {kind!r}")


def sample_order(decision: Mapping[str, Any], rng: random.Random) -> str:
    """A legal order for a decision as the server describes it, drawn at random."""
    return decision_from_dict(decision).sample(rng)


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
                    if view.get("outcome") is not None:
                        return True, None
                    decision = view.get("decision")
                    if (
                        outstanding is None
                        and decision is not None
                        and seat in view.get("waiting_for", [])
                        and "my_order" not in view
                    ):
                        if seat_info.think > 0:  # a player reading the board
                            await asyncio.sleep(seat_info.rng.expovariate(1 / seat_info.think))
                        n += 1
                        cid = f"{seat}-{n}"
                        order = sample_order(decision, seat_info.rng)
                        outstanding = (cid, time.perf_counter())
                        tally.sent += 1
                        await ws.send(json.dumps({"type": "order", "id": cid, "order": order}))
        finally:
            if outstanding is not None:
                tally.cut_off += 1


async def _drive(
    seats: list[_Seat],
    limit: float,
    kill: Callable[[], Coroutine[Any, Any, None]] | None,
    beside: Callable[[], Coroutine[Any, Any, None]] | None = None,
) -> _Tally:
    """Play every seat; `kill` runs beside and is waited for, `beside` is stopped at the end."""
    tally = _Tally()
    deadline = time.monotonic() + limit
    killer = asyncio.create_task(kill()) if kill is not None else None
    helper = asyncio.create_task(beside()) if beside is not None else None
    results = await asyncio.gather(
        *(_play_seat(seat, tally, deadline) for seat in seats), return_exceptions=True
    )
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
) -> dict[str, Any]:
    """Play `matches` concurrent all-human matches through real servers; the figures as JSON
    data (latency in milliseconds from send to ack). `processes`: 0, the app in a thread of
    this process; N, N `gladiator serve` processes on one SQLite file, each making every N-th
    match. `think`: each seat's mean seconds before an order (exponential; 0: none, a closed
    loop that finds the most the servers take). `kill_after`: SIGKILL the first process this
    many seconds in (needs 2 processes or more). `bot_matches`: that many matches more, every
    seat the bot `bot_spec`, on the last server (never the killed one), kept at that many and
    thinking all along beside the humans' (their orders are counted, not timed); `bot_workers`:
    the servers' bot processes (None: their default). At the end every acknowledged order is
    looked for in the store (`acked_missing`)."""
    if kill_after is not None and processes < 2:
        raise ValueError("kill_after needs two server processes or more")
    parse_spec(bot_spec)  # an unknown bot or a bad budget: one line before anything starts
    if bot_workers is not None and bot_workers < 1:
        raise ValueError(f"bot_workers must be 1 or more, not {bot_workers}")
    rs = registry.get(ruleset)
    opts = rs.normalise_options(options or {})
    with tempfile.TemporaryDirectory(prefix="gladiator-loadtest-") as tmp:
        db = f"sqlite:///{Path(tmp) / 'load.db'}"
        with contextlib.ExitStack() as stack:
            if processes:
                extra = ["--bot-workers", str(bot_workers)] if bot_workers is not None else []
                children = [
                    stack.enter_context(
                        server_process(db, Path(tmp) / f"server-{i}.log", extra=extra)
                    )
                    for i in range(processes)
                ]
                bases = [child.url for child in children]
            else:
                store = Store(db)
                stack.callback(store.close)
                # Every client of the load test is on loopback: one address may use all.
                limits = Limits.checked(max_per_address=file_budget())
                # The bot matches have nobody watching: they must not pause (HF4).
                policy = BotPolicy(pause_after=0)
                if bot_workers is not None:
                    policy = replace(policy, workers=bot_workers)
                running = start_in_thread(create_app(store, bot_policy=policy), limits=limits)
                stack.callback(running.stop)
                children, bases = [], [running.url]
            bots = BotMatches(bases[-1], db, rs, opts, seed, bot_spec, bot_matches)
            bots.start(time_limit)
            seats = _make_matches(bases, matches, rs.name, opts, seed, think)
            killed: dict[str, float] = {}

            async def kill() -> None:
                assert kill_after is not None
                await asyncio.sleep(kill_after)
                children[0].kill()
                killed["at_seconds"] = kill_after
                await asyncio.to_thread(children[0].process.wait)

            start = time.perf_counter()
            keep = bots.keep if bot_matches else None
            tally = asyncio.run(_drive(seats, time_limit, kill if kill_after else None, keep))
            wall = time.perf_counter() - start
            survivor = bases[-1]
            with httpx.Client(base_url=survivor, timeout=30) as http:
                listed = http.get("/api/matches", params={"limit": 500}).json()
            finished = sum(
                1 for m in listed if m["status"] == "finished" and m["id"] not in bots.made
            )
        with Store(db) as store:
            missing = _acked_missing(store, tally)
        bot_tally = bots.tally()
    ms = [x * 1000 for x in tally.latencies]
    p50, p95, p99 = (_percentile(ms, q) for q in (50, 95, 99))
    return {
        "schema": "gladiator.loadtest",
        "schema_version": 3,
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "ruleset": rs.name,
        "options": dict(opts),
        "seed": seed,
        "matches": matches,
        "seats": len(seats),
        "processes": processes,
        "think_seconds": think,
        "killed": killed or None,
        "machine": machine(),
        "argv": sys.argv[1:],
        "orders_sent": tally.sent,
        "orders_acked": tally.acked,
        "orders_refused": tally.refused,
        "orders_cut_off": tally.cut_off,
        "orders_lost": tally.sent - tally.acked - tally.refused - tally.cut_off,
        "acked_missing": missing,
        "reconnects": tally.reconnects,
        "moved": tally.moved,
        "matches_finished": finished,
        "latency_ms": {
            "p50": round(p50, 2) if p50 is not None else None,
            "p95": round(p95, 2) if p95 is not None else None,
            "p99": round(p99, 2) if p99 is not None else None,
            "max": round(max(ms), 2) if ms else None,
        },
        "orders_per_second": round(tally.acked / wall, 1) if wall > 0 else None,
        "bot_workers": bot_workers,
        **bot_tally,
        "wall_seconds": round(wall, 3),
        "problems": tally.problems[:20],
    }


def _make_matches(
    bases: list[str],
    matches: int,
    ruleset: str,
    opts: Mapping[str, Any],
    seed: int,
    think: float,
) -> list[_Seat]:
    """Match i is made on server i mod N; each seat plays against the server that made it."""
    seats: list[_Seat] = []
    clients = [httpx.Client(base_url=base, timeout=30) for base in bases]
    try:
        for i in range(matches):
            k = i % len(bases)
            answer = clients[k].post(
                "/api/matches",
                json={"ruleset": ruleset, "options": dict(opts), "seed": derive_seed(seed, i)},
            )
            answer.raise_for_status()
            body = answer.json()
            for info in body["seats"].values():
                token = info["link"].split("#t=", 1)[1]
                rng = random.Random(derive_seed(seed, "client", len(seats)))
                order = bases[k:] + bases[:k]
                seats.append(_Seat(body["id"], token, order, rng, think))
    finally:
        for client in clients:
            client.close()
    return seats


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


@dataclass
class _Child:
    process: subprocess.Popen[bytes]
    url: str

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)


@contextlib.contextmanager
def server_process(db: str, log: Path, *, extra: Sequence[str] = ()) -> Iterator[_Child]:
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
            yield _Child(child, line.split(" on ", 1)[1].split("/ ", 1)[0])
        finally:
            if child.poll() is None:
                child.terminate()
                try:
                    child.wait(15)
                except subprocess.TimeoutExpired:
                    child.kill()
                    child.wait()
