"""The bot seats of one live match: which bot plays each, with what budget, and the thinking.

A bot decides on what its seat may know (`Ruleset.determinize`: every other seat's secret drawn
afresh), in a worker process of the hub's pool (server/bot_pool.py, HF3), never on the event
loop, then gives its order through the match like any seat. Its budget is at most the server's
cap (HF2). A bot that fails, answers an illegal order or whose worker dies plays a random legal
order instead: a bot's bug never stalls a match. A match nobody has been connected to for the
pool's `pause_after` seconds does not set its bots thinking until someone connects (HF4).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from gladiator.bots import Bot
from gladiator.bots.spec import parse_spec
from gladiator.core.decisions import Decision
from gladiator.core.match import EngineFault
from gladiator.server.abandonment import Silence
from gladiator.server.bot_pool import MAX_BUDGET, BotPool, Job, Thought, capped_budget
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


class Watched(Live, Protocol):
    """What the pause needs of the match besides (HF4): who is connected, and the last
    human activity (an order or a seat's connection, kept for the abandonment clock)."""

    @property
    def connections(self) -> Sequence[object]: ...

    @property
    def silence(self) -> Silence: ...


@dataclass
class StandIn:
    """A bot playing one decision of a human seat whose deadline passed (CP2)."""

    decision: tuple[int, int]
    bot: Bot
    budget: float | None
    due: datetime


class BotSeats:
    def __init__(self, live: Watched, stored: StoredMatch, pool: BotPool | None) -> None:
        self.live = live
        # A bot seat stores NAME or NAME@BUDGET (docs/web.md): a bare name, as stored before
        # budgets, plays with the bot's own default.
        specs = {s.seat: parse_spec(s.bot or "random") for s in stored.seats if s.kind == "bot"}
        self.bots: dict[str, Bot] = {seat: spec.make() for seat, spec in specs.items()}
        self.budgets: dict[str, float | None] = {seat: spec.budget for seat, spec in specs.items()}
        # The hub's pool; None only for a match held outside a hub, whose bots think in a
        # thread at the default cap.
        self.pool = pool
        self.paused = False
        # A correspondence match goes on with nobody connected (CP2): its bots never pause.
        self.pauses = stored.deadline is None
        # The last time a connection was seen; from the stored activity (the creation for a
        # match no human touched), so a match long left alone pauses at once after a restart.
        self._seen = (stored.active_at or stored.created_at).timestamp()
        self._thinking: set[tuple[str, tuple[int, int]]] = set()
        # A bot's order that the store did not take, by (seat, decision): tried again as it
        # was, since its first commit may have landed with only the answer lost (HC6).
        self._unstored: dict[tuple[str, tuple[int, int]], str] = {}
        self._stand_ins: dict[str, StandIn] = {}  # human seats played for one decision (CP2)

    def __contains__(self, seat: object) -> bool:
        return seat in self.bots

    @property
    def thinking(self) -> bool:
        """Whether a bot is thinking a decision (or waiting for a worker to)."""
        return bool(self._thinking)

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

    def stand_in(self, seat: str, spec: str, due: datetime) -> None:
        """A human seat's deadline passed: the bot `spec` plays its current decision in its
        name, never paused (HF4 waits for someone to connect; a deadline does not). Once per
        decision. Caller holds the match's lock."""
        live = self.live
        decision = live.decision
        if live.over or seat not in live.match.waiting_for() or (seat, decision) in self._thinking:
            return
        made = parse_spec(spec)
        self._stand_ins[seat] = StandIn(decision, made.make(), made.budget, due)
        self._thinking.add((seat, decision))
        log.info("match %s: %s's deadline passed; the bot %s plays for them", live.id, seat, spec)
        live.spawn(self._play(seat, decision))

    async def wake_later(self) -> None:
        async with self.live.lock:
            if not self.live.over:
                self.wake()

    # -- the pause (HF4) -------------------------------------------------------------------
    def attached(self) -> None:
        """A connection attached: a paused match's bots go on. Caller holds the lock."""
        if self.pool is not None:
            self._seen = max(self._seen, self.pool.clock())
        if self.paused:
            self.paused = False
            log.info("match %s: someone connected; its bots go on", self.live.id)
            self.wake()

    def _pausing(self) -> bool:
        """Whether the bots should not think now: nobody connected (a seat or a spectator) and
        no human activity for `pause_after` seconds. A connection that came and went between
        two looks counts from the last look: the bots pause at most one decision early."""
        pool = self.pool
        if pool is None or pool.pause_after <= 0 or not self.pauses:
            return False
        now = pool.clock()
        if self.live.connections:
            self._seen = now
        quiet = now - max(self._seen, self.live.silence.last)
        if quiet < pool.pause_after:
            self.paused = False
            return False
        if not self.paused:
            self.paused = True
            log.info(
                "match %s: nobody connected for %.0f s; its bots pause until someone connects",
                self.live.id,
                quiet,
            )
        return True

    # -- thinking --------------------------------------------------------------------------
    async def _play(self, seat: str, key: tuple[int, int]) -> None:
        live = self.live
        try:
            async with live.lock:
                if live.stale(seat, key) or (seat not in self._stand_ins and self._pausing()):
                    return
                decision: Decision = live.match.pending()[seat]
                rng = bot_rng(live.match.seed, seat, key)
                # Only what the bot may know: every other seat's secret drawn afresh.
                seen = live.match.ruleset.determinize(live.match.state, seat, rng)
            thought: Thought | None = None
            order = self._unstored.get((seat, key))
            if order is None:
                thought = await self._think(seat, key, decision, seen, rng)
                if thought is None:
                    return  # paused, or the decision went, while it waited for a worker
                rng = thought.rng  # as the bot left it: a random order draws on from there
                order = thought.order
                if order is None:  # no order must stall the match: it plays at random
                    log.log(
                        logging.WARNING if thought.lost else logging.ERROR,
                        "match %s: bot %s gave no order (%s); a random legal order instead",
                        live.id,
                        seat,
                        thought.error,
                    )
                    order = decision.sample(rng)
            async with live.lock:
                if live.stale(seat, key):
                    return
                stand_in = self._stand_ins.get(seat)
                if stand_in is None and thought is not None and thought.bot is not None:
                    self.bots[seat] = thought.bot  # what it learnt, for its next decision
                due = stand_in.due if stand_in is not None else None
                await self._give(seat, key, live.in_seat_name(seat, order, rng), due)
        finally:
            self._thinking.discard((seat, key))
            stand_in = self._stand_ins.get(seat)
            if stand_in is not None and stand_in.decision == key:
                del self._stand_ins[seat]

    async def _think(
        self,
        seat: str,
        key: tuple[int, int],
        decision: Decision,
        seen: object,
        rng: random.Random,
    ) -> Thought | None:
        live, pool = self.live, self.pool
        stand_in = self._stand_ins.get(seat)
        bot = stand_in.bot if stand_in is not None else self.bots[seat]
        wanted = stand_in.budget if stand_in is not None else self.budgets.get(seat)
        cap = pool.policy.max_budget if pool is not None else MAX_BUDGET
        budget = capped_budget(bot, live.match.ruleset.name, wanted, cap)
        job = Job(bot, live.match.ruleset, seen, seat, decision, rng, budget)
        if pool is None:
            return await asyncio.to_thread(job.run)
        return await pool.think(
            job,
            lambda: not live.stale(seat, key) and (stand_in is not None or not self._pausing()),
        )

    async def _give(
        self, seat: str, key: tuple[int, int], canonical: str, due: datetime | None
    ) -> None:
        """Submit the bot's order (`due`: a stand-in's, the deadline it answers). Caller holds
        the lock."""
        live = self.live
        try:
            await live.accept(seat, canonical, due_at=due)
        except EngineFault:
            return  # voided; the decision is asked again, and this bot woken anew
        except StoreError as exc:
            log.error("match %s: bot %s's order not stored: %s", live.id, seat, exc)
            if isinstance(exc, StoreUnavailable):  # else the match would wait forever
                self._unstored[(seat, key)] = canonical
                live.try_again(self.wake_later)
        else:
            self._unstored.pop((seat, key), None)
