"""One seat of the hostile run (server/hostile.py): random offered orders over a real websocket,
with hostile messages in between, on the socket, on throwaway sockets and over HTTP.

What the server must do with each is known (docs/web.md): a message it cannot read, an order
that is not offered or not the sender's to give, or a second hello is answered with an error
and the socket stays open; an over-8-KiB message, a bad or foreign hello, silence or a flood
close the socket, always with a close frame and its code; an HTTP request of the same kinds is
a 4xx. Just before the server is restarted every seat sends a volley of orders, so that some are
in flight when it stops: its close must reach the client all the same. The seat counts what came
back (`Tally`) and never judges: the run does.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from gladiator.server.loadtest import sample_order

__all__ = ["HTTP_KINDS", "SOCKET_KINDS", "SPARE_KINDS", "SeatPlayer", "SeatRef", "Tally", "Target"]

OVERSIZE = 9 * 1024  # over the server's 8 KiB
RATE = 12.0  # messages a second a socket sends at most, under the server's 20
HOSTILE_SHARE = 0.3  # of a seat's turns that start with something hostile
VOLLEY = 36  # orders each seat sends from just before the restart: three seconds' worth
SOCKET_KINDS = (
    "malformed_json",
    "not_json",
    "binary",
    "wrong_types",
    "unknown_type",
    "foreign_seat_field",
    "second_hello",
    "not_offered",
    "offered_earlier",
    "twice",
)
SPARE_KINDS = (  # each on a throwaway socket, which the server closes by design
    "oversized",
    "oversized_hello",
    "foreign_token",
    "bad_token",
    "binary_hello",
    "not_json_hello",
    "flood",
    "silent",
    "bad_hello_then_gone",  # the client leaves before the server can close: no close to count
    "foreign_hello_then_gone",
)
HTTP_KINDS = (
    "malformed_json",
    "not_json",
    "binary",
    "oversized",
    "foreign_token",
    "spectator_token",
    "no_token",
    "other_seat_not_offered",
    "not_offered",
    "offered_earlier",
    "extra_field",
)


@dataclass
class Tally:
    """What one shape's seats saw."""

    http: Counter[int] = field(default_factory=Counter)  # status of every request sent
    http_unanswered: int = 0  # no answer at all (the server restarting)
    closes: Counter[int] = field(default_factory=Counter)  # close code (1006: no frame)
    bare_closes: list[str] = field(default_factory=list)  # each close without a close frame
    sent: Counter[str] = field(default_factory=Counter)  # hostile messages by kind
    answers: Counter[str] = field(default_factory=Counter)  # error answers by what they were
    orders: int = 0
    acked: int = 0
    faults: int = 0  # engine_fault answers to this shape's orders
    voided: int = 0  # voided notices received
    connects: int = 0
    connect_failures: int = 0
    problems: list[str] = field(default_factory=list)

    def closed(self, exc: ConnectionClosed, what: str, restarting: bool) -> None:
        """A close the server made: its code, and whether it sent a close frame at all."""
        if exc.rcvd is None:
            self.closes[1006] += 1
            when = " while the server restarted" if restarting else ""
            under = exc.__cause__ or exc.__context__  # what the socket itself said, if anything
            self.bare_closes.append(f"{what}{when}: {exc}" + (f" ({under!r})" if under else ""))
        else:
            self.closes[exc.rcvd.code] += 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "orders_sent": self.orders,
            "orders_acked": self.acked,
            "engine_fault_answers": self.faults,
            "voided_notices": self.voided,
            "hostile_sent": dict(sorted(self.sent.items())),
            "error_answers": dict(sorted(self.answers.items())),
            "http_statuses": {str(k): v for k, v in sorted(self.http.items())},
            "http_5xx": sum(v for k, v in self.http.items() if k >= 500),
            "http_unanswered": self.http_unanswered,
            "closes_by_code": {str(k): v for k, v in sorted(self.closes.items())},
            "closes_without_frame": len(self.bare_closes),
            "connects": self.connects,
            "connect_failures": self.connect_failures,
        }


@dataclass
class Target:
    """Where the server is now: the run moves it on a restart."""

    base: str
    restarting: bool = False
    # Just before the restart, every seat sends a volley of orders, so that some are still in
    # flight when the server stops: the close must reach the client all the same.
    volley: int = 0  # which volley (0: none now)
    finished: set[str] = field(default_factory=set)  # matches a seat saw end

    @property
    def ws(self) -> str:
        return "ws" + self.base.removeprefix("http")


@dataclass(frozen=True)
class SeatRef:
    shape: str
    match_id: str
    seat: str
    token: str
    other_tokens: tuple[str, ...]  # the match's other seats'
    foreign_token: str  # a seat's token of another match
    spectator_token: str


class _Bucket:
    """The client's own pace, under the server's message rate."""

    def __init__(self) -> None:
        self.tokens, self.last = RATE, time.monotonic()

    async def take(self) -> None:
        now = time.monotonic()
        self.tokens = min(RATE, self.tokens + (now - self.last) * RATE)
        self.last = now
        if self.tokens < 1.0:
            await asyncio.sleep((1.0 - self.tokens) / RATE)
            self.tokens, self.last = 1.0, time.monotonic()
        self.tokens -= 1.0


class SeatPlayer:
    def __init__(
        self,
        ref: SeatRef,
        target: Target,
        tally: Tally,
        http: httpx.AsyncClient,
        rng: random.Random,
        deadline: float,
    ) -> None:
        self.ref, self.target, self.tally, self.http = ref, target, tally, http
        self.rng, self.deadline = rng, deadline
        self.last_event = 0
        self.earlier: list[str] = []  # this seat's orders acknowledged before
        self.view: dict[str, Any] = {}
        self.awaiting: set[str] = set()  # ids of orders sent and not answered yet
        self.count = 0
        self.refused = 0  # connections refused in a row
        self.volleyed = 0  # the last volley this seat sent
        self.spares: set[asyncio.Task[None]] = set()

    # -- the seat's socket -----------------------------------------------------------------
    async def play(self) -> bool:
        """Play to the end of the match (True), through closes and restarts; False if the
        deadline came first."""
        try:
            while time.monotonic() < self.deadline:
                if await self._connection():
                    return True
            return False
        finally:
            if self.spares:
                await asyncio.gather(*self.spares, return_exceptions=True)

    async def _connection(self) -> bool:
        restarting = self.target.restarting
        try:
            async with connect(
                f"{self.target.ws}/ws/{self.ref.match_id}", max_size=2**24, open_timeout=10
            ) as ws:
                self.tally.connects += 1
                self.refused = 0
                self.awaiting.clear()
                hello = {"type": "hello", "token": self.ref.token, "last_event": self.last_event}
                await ws.send(json.dumps(hello))
                return await self._session(ws, _Bucket())
        except ConnectionClosed as exc:
            self.tally.closed(exc, "a seat's socket", restarting or self.target.restarting)
        except (OSError, TimeoutError, InvalidHandshake, InvalidURI):
            # Backing off, so that a hundred seats knocking do not slow the restart they wait on.
            self.tally.connect_failures += 1
            self.refused += 1
            await asyncio.sleep(min(2.0, 0.05 * 2**self.refused))
        return False

    async def _session(self, ws: ClientConnection, bucket: _Bucket) -> bool:
        while True:
            left = self.deadline - time.monotonic()
            if left <= 0:
                return False
            try:
                raw = await asyncio.wait_for(ws.recv(), min(left, 0.25))
            except TimeoutError:  # the others are thinking, or the server is restarting
                if self.target.volley != self.volleyed:
                    await self._volley(ws, bucket)
                continue
            if self._read(json.loads(raw)):
                self.target.finished.add(self.ref.match_id)
                return True
            if self.target.volley != self.volleyed:
                await self._volley(ws, bucket)
            if self._my_turn():
                await self._act(ws, bucket)

    def _read(self, msg: dict[str, Any]) -> bool:
        """Take in one server message; True once the match is over."""
        kind = msg.get("type")
        if kind == "update":
            self.last_event = int(msg["event_count"])
            self.view = msg["view"]
            return self.view.get("outcome") is not None
        if kind == "voided":
            self.tally.voided += 1
        elif kind in ("ack", "error"):
            self.awaiting.discard(str(msg.get("id")))
            if kind == "ack":
                self.tally.acked += 1
                self.earlier.append(msg["order"])
            elif msg.get("reason") == "engine_fault":
                self.tally.faults += 1
            else:
                self.tally.answers["with id" if msg.get("id") else "without id"] += 1
        return False

    def _my_turn(self) -> bool:
        v = self.view
        return (
            not self.awaiting
            and "decision" in v
            and self.ref.seat in v.get("waiting_for", [])
            and "my_order" not in v
        )

    async def _act(self, ws: ClientConnection, bucket: _Bucket) -> None:
        """A random offered order, after something hostile now and then."""
        if self.rng.random() < HOSTILE_SHARE:
            where = self.rng.random()
            if where < 0.55:
                await self._hostile_socket(ws, bucket, self.rng.choice(SOCKET_KINDS))
            elif where < 0.9:
                await self._hostile_http(self.rng.choice(HTTP_KINDS))
            else:
                self._spare(self.rng.choice(SPARE_KINDS))
            if not self._my_turn():  # a hostile order that was legal after all
                return
        await self._order(ws, bucket, sample_order(self.view["decision"], self.rng))

    async def _volley(self, ws: ClientConnection, bucket: _Bucket) -> None:
        """Orders that are never offered, as fast as the server's rate allows."""
        self.volleyed = self.target.volley
        self.tally.sent["socket:volley"] += 1
        for _ in range(VOLLEY):
            await bucket.take()
            await ws.send(json.dumps({"type": "order", "order": self._unoffered()}))

    async def _order(self, ws: ClientConnection, bucket: _Bucket, text: str) -> None:
        self.count += 1
        cid = f"{self.ref.seat}-{self.count}"
        self.awaiting.add(cid)
        self.tally.orders += 1
        await bucket.take()
        await ws.send(json.dumps({"type": "order", "id": cid, "order": text}))

    async def _hostile_socket(self, ws: ClientConnection, bucket: _Bucket, kind: str) -> None:
        self.tally.sent[f"socket:{kind}"] += 1
        if kind in ("not_offered", "offered_earlier", "twice"):
            text = self._unoffered() if kind == "not_offered" else self._earlier()
            await self._order(ws, bucket, text)
            if kind == "twice":  # the same seat again, before the first is even answered
                await self._order(ws, bucket, text)
            return
        messages: dict[str, str | bytes] = {
            "malformed_json": '{"type": "order", "order": ',
            "not_json": "give me the match",
            "binary": os.urandom(32),
            "wrong_types": json.dumps({"type": "order", "order": 7, "id": True}),
            "unknown_type": json.dumps({"type": "resign"}),
            "foreign_seat_field": json.dumps(
                {"type": "order", "order": self._earlier(), "seat": self._other_seat()}
            ),
            "second_hello": json.dumps({"type": "hello", "token": self.ref.foreign_token}),
        }
        await bucket.take()
        await ws.send(messages[kind])

    def _unoffered(self) -> str:
        return self.rng.choice(["ZZ TOP", "F F F F F", "A9:head", "", "(L)(L)(L)", "RN +TW-SOUL"])

    def _earlier(self) -> str:
        return self.rng.choice(self.earlier) if self.earlier else "F"

    def _other_seat(self) -> str:
        return self.rng.choice(["red", "blue", "green", "gold"])

    # -- HTTP ------------------------------------------------------------------------------
    async def _hostile_http(self, kind: str) -> None:
        self.tally.sent[f"http:{kind}"] += 1
        token = {
            "foreign_token": self.ref.foreign_token,
            "spectator_token": self.ref.spectator_token,
            "other_seat_not_offered": self.rng.choice(self.ref.other_tokens or (self.ref.token,)),
        }.get(kind, self.ref.token)
        headers = {} if kind == "no_token" else {"Authorization": f"Bearer {token}"}
        body: dict[str, Any] = {"order": self._unoffered()}
        if kind == "offered_earlier":
            body = {"order": self._earlier()}
        elif kind == "extra_field":
            body = {"order": self._earlier(), "seat": self._other_seat()}
        raw: bytes | None = {
            "malformed_json": b'{"order": ',
            "not_json": b"order=F",
            "binary": os.urandom(64),
            "oversized": json.dumps({"order": "F" * OVERSIZE}).encode(),
        }.get(kind)
        url = f"{self.target.base}/api/matches/{self.ref.match_id}/orders"
        try:
            if raw is not None:
                headers["Content-Type"] = "application/json"
                answer = await self.http.post(url, content=raw, headers=headers)
            else:
                answer = await self.http.post(url, json=body, headers=headers)
        except httpx.HTTPError:
            self.tally.http_unanswered += 1
            return
        self.tally.http[answer.status_code] += 1
        if answer.status_code >= 500:
            self.tally.problems.append(f"HTTP {kind}: {answer.status_code} {answer.text[:300]}")

    # -- throwaway sockets -----------------------------------------------------------------
    def _spare(self, kind: str) -> None:
        self.tally.sent[f"spare:{kind}"] += 1
        task = asyncio.get_running_loop().create_task(self._spare_socket(kind))
        self.spares.add(task)
        task.add_done_callback(self.spares.discard)

    async def _spare_socket(self, kind: str) -> None:
        """A socket the server should close, with a close frame: read until it does."""
        restarting = self.target.restarting
        url = f"{self.target.ws}/ws/{self.ref.match_id}"
        hello = {"type": "hello", "token": self.ref.token}
        firsts: dict[str, str | bytes] = {
            "oversized": json.dumps(hello),
            "flood": json.dumps(hello),
            "oversized_hello": json.dumps({**hello, "pad": "x" * OVERSIZE}),
            "foreign_token": json.dumps({**hello, "token": self.ref.foreign_token}),
            "bad_token": json.dumps({**hello, "token": "not-a-token-" + str(self.count)}),
            "binary_hello": os.urandom(16),
            "bad_hello_then_gone": os.urandom(16),
            "foreign_hello_then_gone": json.dumps({**hello, "token": self.ref.foreign_token}),
            "not_json_hello": "hello?",
        }
        first = firsts.get(kind)  # none at all: the silent socket
        try:
            async with connect(url, max_size=2**24, open_timeout=10) as ws:
                if first is not None:
                    await ws.send(first)
                if kind.endswith("_then_gone"):
                    return  # leaving the block closes at once, before any answer is read
                if kind == "oversized":
                    await ws.send("x" * OVERSIZE)
                elif kind == "flood":
                    for _ in range(60):  # three seconds' worth at once
                        await ws.send(json.dumps({"type": "ping"}))
                async with asyncio.timeout(20):
                    while True:
                        await ws.recv()
        except ConnectionClosed as exc:
            self.tally.closed(
                exc, f"a throwaway socket ({kind})", restarting or self.target.restarting
            )
        except TimeoutError:
            self.tally.problems.append(f"the server left a {kind} socket open")
        except (OSError, InvalidHandshake, InvalidURI):
            self.tally.connect_failures += 1
