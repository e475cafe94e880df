"""What a live match's parts (its bot seats, its reaction clocks) need of the match that holds
them: server/live_match.py's `LiveMatch` is one. A Protocol, so the parts import nothing of
the module that imports them."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Container
from datetime import datetime
from typing import Any, Protocol

from gladiator.core.match import Match

__all__ = ["Live"]


class Live(Protocol):
    id: str
    match: Match
    lock: asyncio.Lock

    @property
    def over(self) -> bool: ...

    @property
    def decision(self) -> tuple[int, int]: ...

    @property
    def bots(self) -> Container[str]: ...

    def stale(self, seat: str, decision: tuple[int, int]) -> bool: ...

    def in_seat_name(self, seat: str, order: str, rng: random.Random) -> str: ...

    async def accept(
        self,
        seat: str,
        canonical: str,
        *,
        client_id: str | int | None = None,
        reply: Any = None,
        active_at: datetime | None = None,
        due_at: datetime | None = None,
    ) -> None: ...

    def spawn(self, coro: Any) -> None: ...

    def try_again(self, again: Callable[[], Any]) -> None: ...

    def send_all(self, text: str) -> None: ...
