"""The bot seats of one live match: which bot plays each, with what budget, and the thinking.

A bot decides on what its seat may know (`Ruleset.determinize`: every other seat's secret drawn
afresh), away from the event loop, then gives its order through the match like any seat. A bot
that fails or answers an illegal order plays a random legal order instead: a bot's bug never
stalls a match.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import random

from gladiator.bots import Bot
from gladiator.bots.spec import parse_spec
from gladiator.core.decisions import Decision
from gladiator.core.match import EngineFault
from gladiator.server.live_parts import Live
from gladiator.store import StoredMatch, StoreError, StoreUnavailable

__all__ = ["BotSeats", "bot_rng"]

log = logging.getLogger("gladiator.server")


def bot_rng(seed: int, seat: str, decision: tuple[int, int]) -> random.Random:
    """A bot's own generator for one decision: never the match's dice (so it cannot foresee
    the rolls), but drawn from a hash of the secret seed, the seat and the decision (its step,
    and the engine faults on it: a decision asked again is thought anew), so a bot match played
    again from its seed plays the same, even across a server restart."""
    step, faults = decision
    text = f"bot:{seed}:{seat}:{step}" + (f":{faults}" if faults else "")
    key = hashlib.sha256(text.encode()).digest()
    return random.Random(int.from_bytes(key[:8], "big"))


class BotSeats:
    def __init__(self, live: Live, stored: StoredMatch) -> None:
        self.live = live
        # A bot seat stores NAME or NAME@BUDGET (docs/web.md): a bare name, as stored before
        # budgets, plays with the bot's own default.
        specs = {s.seat: parse_spec(s.bot or "random") for s in stored.seats if s.kind == "bot"}
        self.bots: dict[str, Bot] = {seat: spec.make() for seat, spec in specs.items()}
        self.budgets: dict[str, float | None] = {seat: spec.budget for seat, spec in specs.items()}
        self._thinking: set[tuple[str, tuple[int, int]]] = set()
        # A bot's order that the store did not take, by (seat, decision): tried again as it
        # was, since its first commit may have landed with only the answer lost (HC6).
        self._unstored: dict[tuple[str, tuple[int, int]], str] = {}

    def __contains__(self, seat: object) -> bool:
        return seat in self.bots

    def wake(self) -> None:
        """Set every bot the match waits for thinking (once per decision). Caller holds the
        match's lock."""
        live = self.live
        if live.over:
            return
        decision = live.decision
        for seat in live.match.waiting_for():
            if seat in self.bots and (seat, decision) not in self._thinking:
                self._thinking.add((seat, decision))
                live.spawn(self._play(seat, decision))

    async def wake_later(self) -> None:
        async with self.live.lock:
            if not self.live.over:
                self.wake()

    async def _play(self, seat: str, key: tuple[int, int]) -> None:
        live = self.live
        try:
            async with live.lock:
                if live.stale(seat, key):
                    return
                decision: Decision = live.match.pending()[seat]
                rng = bot_rng(live.match.seed, seat, key)
                # Only what the bot may know: every other seat's secret drawn afresh.
                seen = live.match.ruleset.determinize(live.match.state, seat, rng)
            bot = self.bots[seat]
            unstored = self._unstored.get((seat, key))
            try:
                order: str = (
                    unstored
                    if unstored is not None
                    else await asyncio.to_thread(
                        functools.partial(bot.choose, budget=self.budgets.get(seat)),
                        live.match.ruleset,
                        seen,
                        seat,
                        decision,
                        rng,
                    )
                )
            except Exception:  # a bot's bug must not stall the match: it plays at random
                log.exception(
                    "match %s: bot %s failed; a random legal order instead", live.id, seat
                )
                order = decision.sample(rng)
            async with live.lock:
                if live.stale(seat, key):
                    return
                canonical = live.in_seat_name(seat, order, rng)
                try:
                    await live.accept(seat, canonical)
                except EngineFault:
                    return  # voided; the decision is asked again, and this bot woken anew
                except StoreError as exc:
                    log.error("match %s: bot %s's order not stored: %s", live.id, seat, exc)
                    if isinstance(exc, StoreUnavailable):  # else the match would wait forever
                        self._unstored[(seat, key)] = canonical
                        live.try_again(self.wake_later)
                else:
                    self._unstored.pop((seat, key), None)
        finally:
            self._thinking.discard((seat, key))
