"""The §7.5 reaction-time clocks of one live match: a decision with a time limit starts a clock
for each human seat it waits for; when it runs out, the decision's time-out order is given in
that seat's name. Every connection is told each deadline."""

from __future__ import annotations

import asyncio
import functools
import logging
import random
import time

from gladiator.core.match import EngineFault
from gladiator.server import messages
from gladiator.server.connection import dumps
from gladiator.server.live_parts import Live
from gladiator.store import StoreError, StoreUnavailable

__all__ = ["ReactionClocks"]

log = logging.getLogger("gladiator.server")


class ReactionClocks:
    def __init__(self, live: Live) -> None:
        self.live = live
        self.deadlines: dict[str, float] = {}
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._decision = (-1, 0)

    def arm(self) -> None:
        """Start the clocks the current decision asks for. Caller holds the match's lock."""
        live = self.live
        decision = live.decision
        if decision != self._decision:
            self.stop_all()
            self._decision = decision
        if live.over:
            return
        pending = live.match.pending()
        loop = asyncio.get_running_loop()
        for seat in live.match.waiting_for():
            asked = pending[seat]
            if seat in live.bots or asked.time_limit is None or seat in self.deadlines:
                continue
            limit = max(0.0, float(asked.time_limit))
            self.deadlines[seat] = time.time() + limit
            self._timers[seat] = loop.call_later(limit, self._on_expiry, seat, decision)
            live.send_all(dumps(messages.clock(seat, self.deadlines[seat])))

    def stop(self, seat: str) -> None:
        timer = self._timers.pop(seat, None)
        if timer is not None:
            timer.cancel()
        self.deadlines.pop(seat, None)

    def stop_all(self) -> None:
        for seat in list(self._timers):
            self.stop(seat)

    def _on_expiry(self, seat: str, decision: tuple[int, int]) -> None:
        self.live.spawn(self._expire(seat, decision))

    async def _expire(self, seat: str, decision: tuple[int, int]) -> None:
        live = self.live
        async with live.lock:
            if live.stale(seat, decision):
                return
            deadline = self.deadlines.get(seat, time.time())
            order = live.match.pending()[seat].on_timeout or ""
            canonical = live.in_seat_name(seat, order, random.Random())
            log.info("match %s: %s's time ran out; %s given in their name", live.id, seat, order)
            live.send_all(dumps(messages.clock(seat, deadline, expired=True)))
            try:
                await live.accept(seat, canonical)
            except EngineFault:
                return  # voided: the clocks start again for the decision asked anew
            except StoreError as exc:
                log.error("match %s: time-out order not stored: %s", live.id, exc)
                if isinstance(exc, StoreUnavailable):  # no clock is left to give it again
                    live.try_again(functools.partial(self._expire, seat, decision))
