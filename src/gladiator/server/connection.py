"""One client connection of a live match (a socket, or an HTTP poller): a queue the socket's
writer task empties, so the hub never waits on a client."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

__all__ = ["CLOSE_MOVED", "CLOSE_TOO_SLOW", "OUTBOX", "Connection", "at", "dumps"]

OUTBOX = 512  # queued messages per connection before it is dropped as too slow
CLOSE_TOO_SLOW = 1013
CLOSE_MOVED = 4302  # another server process holds the match now: connect again (OW5)


def at(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))


@dataclass(eq=False)
class Connection:
    """One client socket (or HTTP poller) of one seat (None: a spectator).

    The hub only queues text here, never waits on a client: the socket's writer task sends it.
    A client too slow to take its messages is dropped rather than let the queue grow.
    """

    seat: str | None
    outbox: asyncio.Queue[str | int] = field(default_factory=lambda: asyncio.Queue(maxsize=OUTBOX))
    sent_events: int = 0
    dropped: bool = False

    def send(self, text: str) -> None:
        if self.dropped:
            return
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self.dropped = True
            while not self.outbox.empty():
                self.outbox.get_nowait()
            self.outbox.put_nowait(CLOSE_TOO_SLOW)  # an int tells the writer to close

    def close(self, code: int) -> None:
        """Have the writer close the socket with `code` once what is queued is sent."""
        if self.dropped:
            return
        self.dropped = True  # nothing is queued after the close
        if self.outbox.full():
            while not self.outbox.empty():
                self.outbox.get_nowait()
        self.outbox.put_nowait(code)
