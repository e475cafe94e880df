"""The load test: many concurrent all-human matches, every seat played over a real websocket.

The app runs on a free loopback port (uvicorn in a daemon thread, a SQLite file in a temporary
folder). Each seat is a client-side bot: it reads the decision the server sends (its JSON form),
draws a legal order from it and sends it. Latency is measured per order from send to `ack`, which
the server sends only once the order is stored, so it covers the check, the database commit and
the queueing behind other matches.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from gladiator import registry
from gladiator.core.decisions import Arrange, ChooseOne, Decision, Distribute, Option, PickHex, Slot
from gladiator.core.hexgrid import Hex
from gladiator.server.app import create_app
from gladiator.server.conn_limits import Limits, file_budget
from gladiator.server.listen import start_in_thread
from gladiator.sim.machine import machine
from gladiator.sim.runner import derive_seed
from gladiator.store import Store

__all__ = ["decision_from_dict", "run_loadtest", "sample_order"]


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
            slots=tuple(Slot(s["name"], int(s["max"]), int(s["min"])) for s in d["slots"]),
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
    finished: int = 0
    problems: list[str] = field(default_factory=list)


async def _play_seat(
    ws_url: str, token: str, rng: random.Random, tally: _Tally, deadline: float
) -> bool:
    """Play one seat to the end of its match; True if it saw the outcome."""
    async with connect(ws_url, max_size=2**24) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "last_event": 0}))
        outstanding: tuple[str, float] | None = None
        seat: str | None = None
        n = 0
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            try:
                raw = await asyncio.wait_for(ws.recv(), left)
            except TimeoutError:
                return False
            msg = json.loads(raw)
            kind = msg.get("type")
            if kind == "welcome":
                seat = msg["seat"]
            elif kind == "ack" and outstanding is not None and msg["id"] == outstanding[0]:
                tally.latencies.append(time.perf_counter() - outstanding[1])
                tally.acked += 1
                outstanding = None
            elif kind == "error":
                tally.refused += 1
                tally.problems.append(str(msg.get("message")))
                outstanding = None
            elif kind == "update":
                view = msg["view"]
                if view.get("outcome") is not None:
                    return True
                decision = view.get("decision")
                if (
                    outstanding is None
                    and decision is not None
                    and seat in view.get("waiting_for", [])
                    and "my_order" not in view
                ):
                    n += 1
                    cid = f"{seat}-{n}"
                    order = sample_order(decision, rng)
                    outstanding = (cid, time.perf_counter())
                    tally.sent += 1
                    await ws.send(json.dumps({"type": "order", "id": cid, "order": order}))


async def _drive(base: str, links: list[tuple[str, str]], seed: int, limit: float) -> _Tally:
    tally = _Tally()
    deadline = time.monotonic() + limit
    ws_base = "ws" + base.removeprefix("http")
    results = await asyncio.gather(
        *(
            _play_seat(
                f"{ws_base}/ws/{mid}",
                tok,
                random.Random(derive_seed(seed, "client", i)),
                tally,
                deadline,
            )
            for i, (mid, tok) in enumerate(links)
        ),
        return_exceptions=True,
    )
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
) -> dict[str, Any]:
    """Play `matches` concurrent all-human matches through a real server; the figures as JSON
    data (latency in milliseconds from send to ack)."""
    rs = registry.get(ruleset)
    opts = rs.normalise_options(options or {})
    with tempfile.TemporaryDirectory(prefix="gladiator-loadtest-") as tmp:
        store = Store(f"sqlite:///{Path(tmp) / 'load.db'}")
        # Every client of the load test is on loopback: one address may use every connection.
        limits = Limits.checked(max_per_address=file_budget())
        running = start_in_thread(create_app(store), limits=limits)
        try:
            links: list[tuple[str, str]] = []
            with httpx.Client(base_url=running.url, timeout=30) as http:
                for i in range(matches):
                    answer = http.post(
                        "/api/matches",
                        json={"ruleset": rs.name, "options": opts, "seed": derive_seed(seed, i)},
                    )
                    answer.raise_for_status()
                    body = answer.json()
                    for info in body["seats"].values():
                        link = info["link"]
                        links.append((body["id"], link.split("#t=", 1)[1]))
            start = time.perf_counter()
            tally = asyncio.run(_drive(running.url, links, seed, time_limit))
            wall = time.perf_counter() - start
            with httpx.Client(base_url=running.url, timeout=30) as http:
                listed = http.get("/api/matches", params={"limit": 500}).json()
            finished = sum(1 for m in listed if m["status"] == "finished")
        finally:
            running.stop()
            store.close()
    ms = [x * 1000 for x in tally.latencies]
    p50, p99 = _percentile(ms, 50), _percentile(ms, 99)
    return {
        "schema": "gladiator.loadtest",
        "schema_version": 1,
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "ruleset": rs.name,
        "options": dict(opts),
        "seed": seed,
        "matches": matches,
        "seats": len(links),
        "machine": machine(),
        "argv": sys.argv[1:],
        "orders_sent": tally.sent,
        "orders_acked": tally.acked,
        "orders_refused": tally.refused,
        "orders_lost": tally.sent - tally.acked - tally.refused,
        "matches_finished": finished,
        "latency_ms": {
            "p50": round(p50, 2) if p50 is not None else None,
            "p99": round(p99, 2) if p99 is not None else None,
            "max": round(max(ms), 2) if ms else None,
        },
        "orders_per_second": round(tally.acked / wall, 1) if wall > 0 else None,
        "wall_seconds": round(wall, 3),
        "problems": tally.problems[:20],
    }
