"""Helpers for the web arena tests: a real server in a thread, socket clients that keep every
byte they receive, and a client-side player that draws legal orders from the decisions sent."""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from gladiator.server.app import create_app
from gladiator.server.listen import Listening, start_in_thread
from gladiator.server.loadtest import sample_order
from gladiator.store import Store


def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'arena.db'}"


@contextmanager
def arena(url: str, *, port: int = 0, **app_options: Any) -> Iterator[Listening]:
    """The app over a store at `url`, on a free loopback port (or `port`: a restart where the
    pages' sockets will look for it), until the block ends."""
    store = Store(url)
    running = start_in_thread(create_app(store, **app_options), port=port)
    try:
        yield running
    finally:
        running.stop()
        store.close()


def tokens_of(link: str) -> list[str]:
    """The tokens in a link's fragment (`#t=A` or `#t=A&t=B`)."""
    fragment = link.split("#", 1)[1]
    return [part[2:] for part in fragment.split("&") if part.startswith("t=")]


def new_match(
    base: str,
    ruleset: str = "quick",
    *,
    options: dict[str, Any] | None = None,
    seats: dict[str, str] | None = None,
    seed: int | None = None,
) -> dict[str, Any]:
    body: dict[str, Any] = {"ruleset": ruleset, "options": options or {}, "seats": seats or {}}
    if seed is not None:
        body["seed"] = seed
    answer = httpx.post(f"{base}/api/matches", json=body, timeout=30)
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    made["tokens"] = {
        seat: tokens_of(info["link"])[0]
        for seat, info in made["seats"].items()
        if info["kind"] == "human"
    }
    made["spectator_token"] = tokens_of(made["spectator"])[0]
    return made


ORDER_RATE = 16.0  # orders a second a client sends at most, bursts included


class Client:
    """One socket of one seat. Keeps every frame received (`frames`), the events in order and
    the latest view."""

    def __init__(self, base: str, match_id: str, *, origin: str | None = None) -> None:
        ws_base = "ws" + base.removeprefix("http")
        headers = {"Origin": origin} if origin else None
        self.ws: ClientConnection = connect(
            f"{ws_base}/ws/{match_id}", additional_headers=headers, max_size=2**24, legacy=True
        )
        self.frames: list[str] = []
        self.messages: list[dict[str, Any]] = []
        self.events: list[dict[str, Any]] = []
        self.view: dict[str, Any] = {}
        self.seat: str | None = None
        self.outstanding: str | None = None
        self.count = 0
        # Orders keep under the server's 20 messages a second a socket (docs/web.md): on a
        # quiet machine a quick match's orders come faster than that, and the socket is closed.
        self._tokens = ORDER_RATE
        self._last = time.monotonic()

    # -- sending ---------------------------------------------------------------------------
    def send(self, message: dict[str, Any] | str | bytes) -> None:
        """Send; a socket the server has already closed is left for `closed_with` to read."""
        text = message if isinstance(message, str | bytes) else json.dumps(message)
        with contextlib.suppress(ConnectionClosed):
            self.ws.send(text)

    def hello(self, token: str, last_event: int = 0) -> dict[str, Any]:
        self.send({"type": "hello", "token": token, "last_event": last_event})
        welcome = self.recv()
        assert welcome["type"] == "welcome", welcome
        self.seat = welcome["seat"]
        self.wait(lambda m: m["type"] == "update")
        return welcome

    def order(self, text: str, cid: str | None = None) -> str:
        self._pace()
        self.count += 1
        cid = cid or f"{self.seat}-{self.count}"
        self.outstanding = cid
        self.send({"type": "order", "id": cid, "order": text})
        return cid

    def _pace(self) -> None:
        """A token bucket a little under the server's: bursts of ORDER_RATE, then that rate."""
        now = time.monotonic()
        self._tokens = min(ORDER_RATE, self._tokens + (now - self._last) * ORDER_RATE)
        self._last = now
        if self._tokens < 1.0:
            time.sleep((1.0 - self._tokens) / ORDER_RATE)
            self._tokens, self._last = 1.0, time.monotonic()
        self._tokens -= 1.0

    # -- receiving -------------------------------------------------------------------------
    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        raw = self.ws.recv(timeout=timeout)
        assert isinstance(raw, str)
        self.frames.append(raw)
        msg: dict[str, Any] = json.loads(raw)
        self.messages.append(msg)
        if msg["type"] == "update":
            assert msg["first_event"] <= len(self.events), "a gap in the events"
            del self.events[msg["first_event"] :]
            self.events.extend(msg["events"])
            assert len(self.events) == msg["event_count"]
            self.view = msg["view"]
        elif msg["type"] in ("ack", "error") and msg.get("id") == self.outstanding:
            self.outstanding = None
        return msg

    def wait(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 20.0) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            msg = self.recv(max(0.01, end - time.monotonic()))
            if pred(msg):
                return msg

    def closed_with(self, timeout: float = 10.0) -> int | None:
        """Read until the server closes; its close code."""
        end = time.monotonic() + timeout
        try:
            while time.monotonic() < end:
                self.recv(max(0.01, end - time.monotonic()))
        except ConnectionClosed:
            pass
        return self.ws.close_code

    def my_turn(self) -> bool:
        v = self.view
        return (
            self.outstanding is None
            and v.get("outcome") is None
            and "decision" in v
            and self.seat in v.get("waiting_for", [])
            and "my_order" not in v
        )

    @property
    def over(self) -> bool:
        return self.view.get("outcome") is not None

    def close(self) -> None:
        self.ws.close()


def play(
    clients: Sequence[Client],
    rng: random.Random,
    *,
    until: Callable[[], bool] | None = None,
    timeout: float = 60.0,
) -> None:
    """Let every client play legal random orders until all see the outcome (or `until()`)."""
    end = time.monotonic() + timeout
    done = until or (lambda: all(c.over for c in clients))
    while not done():
        assert time.monotonic() < end, [(c.seat, c.outstanding, c.view) for c in clients]
        for c in clients:
            if c.my_turn():
                c.order(sample_order(c.view["decision"], rng))
            with contextlib.suppress(TimeoutError):
                c.recv(timeout=0.02)
