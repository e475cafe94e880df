"""One match a running server holds: its `Match`, the connections of its seats and spectators,
its bots and its clocks.

Everything that changes a match happens under its lock, in this order (docs/web.md): check the
order (`Match.check`); if it completes a decision, apply the decision to a copy
(`Match.resolution`); store the order (`Store.add_order`, committed); make the copy the match's
own (`Match.commit`), or hold the order secret until the decision is complete; acknowledge it;
then send every connection its own seat's view and scene and the events it has not had. A
connection only ever receives `Match.view(its seat)` and `Ruleset.scene(state, its seat)`.

An engine that fails on a complete decision costs that decision, never the match (ruling HF1):
nothing of it is applied, its orders already stored are voided (kept in the store's audit
table, never replayed), every seat of it is told why and asked again, and the fault is logged
once with the match id and the traceback.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from gladiator.core.decisions import IllegalOrder
from gladiator.core.match import EngineFault, Match, NotYourTurn
from gladiator.server import messages
from gladiator.server.abandonment import Silence
from gladiator.server.bot_pool import BotPool
from gladiator.server.bot_seats import BotSeats
from gladiator.server.connection import CLOSE_MOVED, Connection, at, dumps
from gladiator.server.reaction_clocks import ReactionClocks
from gladiator.server.retry import RetryPolicy, retrying
from gladiator.store import NotOwner, Store, StoredMatch, StoredSeat, StoreError, StoreUnavailable
from gladiator.store.stored import Turn

__all__ = ["LiveMatch"]

log = logging.getLogger("gladiator.server")


class LiveMatch:
    def __init__(
        self,
        store: Store,
        stored: StoredMatch,
        match: Match,
        on_idle: Callable[[LiveMatch], None] | None = None,
        on_finish: Callable[[str], None] | None = None,
        clock: Callable[[], float] = time.time,
        retry: RetryPolicy | None = None,
        owner: str | None = None,
        on_moved: Callable[[LiveMatch], None] | None = None,
        bot_pool: BotPool | None = None,
    ) -> None:
        self.store = store
        self.retry = retry or RetryPolicy()
        self.owner = owner  # this server process (store/owners.py); None: no fencing
        self.on_moved = on_moved  # called when another process has taken the match over
        self.on_idle = on_idle  # called when the match is over and nobody is connected
        self.on_finish = on_finish  # called with the id once the match's end is stored
        self.id = stored.id
        self.match = match
        self.seats: dict[str, StoredSeat] = {s.seat: s for s in stored.seats}
        self.lock = asyncio.Lock()
        self.connections: list[Connection] = []
        self.seq = len(stored.orders)
        self.finish_stored = stored.status != "running"
        # A forfeit or a void (server/abandonment.py): the end the rules themselves did not reach.
        self.ended = stored.outcome if self.finish_stored and not match.finished else None
        self.silence = Silence.of(stored)
        self.clock = clock
        # Correspondence play (server/correspondence.py): the deadline, and when the current
        # decision was first asked (a match stored before deadlines: its last activity).
        self.deadline = stored.deadline
        since = stored.turn.since if stored.turn is not None else None
        self.turn_since = (since or stored.active_at or stored.created_at).timestamp()
        self.bots = BotSeats(self, stored, bot_pool)  # bot_pool: where they think (HF3)
        self.clocks = ReactionClocks(self)
        # Engine faults at the current step (HF1): how many, and each seat's orders that were
        # part of a failed decision, which the server never gives in a seat's name again.
        self.faults = 0
        self.faulted: dict[str, set[str]] = {}
        self._fault_step = -1
        self._tasks: set[asyncio.Task[None]] = set()
        self._again: set[asyncio.TimerHandle] = set()  # writes to try anew (server/retry.py)

    @property
    def over(self) -> bool:
        return self.match.finished or self.ended is not None

    @property
    def deadlines(self) -> dict[str, float]:
        return self.clocks.deadlines

    @property
    def late_seats(self) -> list[str]:
        """The human seats the current decision waits for (whom a deadline concerns)."""
        return [s for s in self.match.waiting_for() if s in self.silence.humans]

    def stand_in(self, seat: str, spec: str, due: datetime) -> None:
        """A bot plays `seat`'s current decision: its deadline passed (CP2). Caller holds the
        lock."""
        self.bots.stand_in(seat, spec, due)

    @property
    def decision(self) -> tuple[int, int]:
        """The current decision: its step and how many times the engine failed on it."""
        return len(self.match.steps), self.faults if self._fault_step == len(
            self.match.steps
        ) else 0

    # -- reading ---------------------------------------------------------------------------
    def view(self, seat: str | None) -> dict[str, Any]:
        v = self.match.view(seat)
        # The decision asked now, for an order to name (CP9); not `step`, which a ruleset's own
        # view may hold (the Colosseum's: plot, allocate).
        v["decision_number"] = len(self.match.steps)
        if self.ended is not None:  # nothing more is waited for; the outcome is the forfeit's
            v.update(outcome=self.ended, waiting_for=[])
            v.pop("decision", None)
        if self.deadline is not None:  # CP1: every seat sees the clock of the decision
            v["deadline"] = {
                "seconds": self.deadline.seconds,
                "then": self.deadline.then,
                "due": None if self.over else self.turn_since + self.deadline.seconds,
                "bot": self.deadline.bot,  # the stand-in (CP2); None for a forfeit
            }
        return v

    def welcome(self, seat: str | None) -> str:
        m = self.match
        return dumps(
            messages.welcome(
                self.id, seat, m.ruleset.name, m.ruleset.title, list(m.seats), m.commitment
            )
        )

    def snapshot(self, seat: str | None, last_event: int = 0) -> dict[str, Any]:
        """The update a newcomer gets: the view, the scene and the events from `last_event`.
        A client claiming more events than there are is sent them all again."""
        first = last_event if 0 <= last_event <= len(self.match.events) else 0
        return messages.update(
            self.view(seat),
            self.match.ruleset.scene(self.match.state, seat),
            list(self.match.events[first:]),
            first,
        )

    def in_seat_name(self, seat: str, order: str, rng: random.Random) -> str:
        """The canonical order the server gives in `seat`'s name (a bot's, a time-out's):
        `order` if it is legal and was never part of a decision the engine failed on (HF1),
        else a legal order that was not. Caller holds the lock."""
        decision = self.match.pending()[seat]
        bad = self.faulted.get(seat, set())
        try:
            canonical = self.match.check(seat, order)
        except ValueError as exc:
            log.error("match %s: %r is not legal for %s: %s", self.id, order, seat, exc)
            canonical = decision.sample(rng)
        if canonical not in bad:
            return canonical
        for candidate in decision.candidates(rng):
            if candidate not in bad:
                return candidate
        return decision.sample(rng)

    def stale(self, seat: str, decision: tuple[int, int]) -> bool:
        """The decision `seat` was asked is no longer pending (or the match ended)."""
        return self.over or self.decision != decision or seat not in self.match.waiting_for()

    # -- connections -----------------------------------------------------------------------
    async def attach(self, conn: Connection, last_event: int) -> None:
        async with self.lock:
            conn.send(self.welcome(conn.seat))
            snap = self.snapshot(conn.seat, last_event)
            conn.send(dumps(snap))
            conn.sent_events = snap["event_count"]
            for seat, deadline in self.deadlines.items():
                conn.send(dumps(messages.clock(seat, deadline)))
            self.connections.append(conn)
            if conn.seat in self.silence.humans and not self.over:
                now = self.clock()
                self.silence.touch(now)
                self.spawn(self._touch(now))
            self.bots.attached()  # paused bots go on (HF4)

    async def _touch(self, now: float) -> None:
        try:
            await self._write(self.store.touch, self.id, at(now))
        except StoreError as exc:  # the clock in memory has it; only a restart would lose it
            log.warning("match %s: the activity was not stored: %s", self.id, exc)

    def detach(self, conn: Connection) -> None:
        if conn in self.connections:
            self.connections.remove(conn)
        if self.finish_stored and not self.connections and self.on_idle is not None:
            self.on_idle(self)

    # -- orders ----------------------------------------------------------------------------
    async def order(
        self,
        seat: str,
        text: str,
        client_id: str | int | None = None,
        reply: Connection | None = None,
        step: int | None = None,
    ) -> dict[str, Any]:
        """Check, store and submit a seat's order; the ack (or error) goes to `reply` before any
        update it causes, and is returned (for the HTTP endpoint). `step`: the decision the
        order answers, refused if that one is over (CP9)."""
        async with self.lock:
            if self.ended is not None:
                answer = messages.error(client_id, f"the match is over: {self.ended['summary']}")
                if reply is not None:
                    reply.send(dumps(answer))
                return answer
            now_step = len(self.match.steps)
            if step is not None and step != now_step:
                answer = messages.stale(client_id, step, now_step)
                if reply is not None:
                    reply.send(dumps(answer))
                return answer
            try:
                canonical = self.match.check(seat, text)
            except IllegalOrder as exc:
                answer = messages.error(client_id, str(exc), exc.legal)
            except NotYourTurn as exc:
                answer = messages.error(client_id, str(exc))
            else:
                human = seat in self.silence.humans
                now = self.clock()
                try:
                    await self.accept(
                        seat,
                        canonical,
                        client_id=client_id,
                        reply=reply,
                        active_at=at(now) if human else None,
                    )
                    if human:
                        self.silence.touch(now)
                except EngineFault as fault:
                    answer = messages.fault(client_id, canonical, fault.step)
                except StoreError as exc:
                    answer = messages.error(client_id, f"the order was not stored: {exc}")
                else:
                    return messages.ack(client_id, canonical)
            if reply is not None:
                reply.send(dumps(answer))
            return answer

    async def accept(
        self,
        seat: str,
        canonical: str,
        *,
        client_id: str | int | None = None,
        reply: Connection | None = None,
        active_at: datetime | None = None,
        due_at: datetime | None = None,
    ) -> None:
        """Apply to a copy if it completes the decision, store, commit, acknowledge, tell
        everyone. Caller holds the lock. EngineFault once the failed decision is voided.
        `due_at`: the deadline this order answers, given in the seat's name (CP2)."""
        if self.ended is not None:
            raise StoreError(f"the match is over: {self.ended['summary']}")
        resolution = None
        if self.match.completes(seat):
            try:
                resolution = self.match.resolution(seat, canonical)
            except EngineFault as fault:
                await self._void(fault)
                raise
        if resolution is None:
            turn_since = self.turn_since
            waiting = [s for s in self.match.waiting_for() if s != seat]
        else:  # the next decision is asked now
            turn_since = self.clock()
            waiting = list(resolution.pending)
        turn = Turn(at(turn_since), tuple(waiting))
        try:
            await self._write(
                functools.partial(self.store.add_order, turn=turn, due_at=due_at),
                self.id,
                self.seq,
                seat,
                canonical,
                active_at,
                self.owner,
            )
        except NotOwner:
            self._moved()
            raise
        self.seq += 1
        self.turn_since = turn_since
        if resolution is None:
            self.match.submit(seat, canonical)
        else:
            self.match.commit(resolution)
        self.clocks.stop(seat)
        if reply is not None:
            reply.send(dumps(messages.ack(client_id, canonical)))
        await self.changed()

    async def _void(self, fault: EngineFault) -> None:
        """The engine failed on a complete decision (HF1): void its stored orders, forget them
        in memory, log once, tell every connection, ask every seat of it again."""
        held = len(self.match.pending()) - len(self.match.waiting_for())
        first = self.seq - held
        reason = f"engine fault at step {fault.step}: {fault.reason}"
        await self._write(
            self.store.voids.void_decision,
            self.id,
            first,
            reason,
            [(s, fault.orders[s]) for s in self.match.waiting_for()],
            self.owner,
        )
        self.seq = first
        self.match.void_decision()
        # Every seat of it is asked again: its deadline starts again (CP1).
        self.turn_since = self.clock()
        turn = Turn(at(self.turn_since), tuple(self.match.waiting_for()))
        try:
            await self._write(self.store.set_turn, self.id, turn)
        except StoreError as exc:  # the clock in memory has it; only a restart would lose it
            log.warning("match %s: the decision's new start was not stored: %s", self.id, exc)
        log.error(
            "match %s: %s; the decision's orders are voided (%s)",
            self.id,
            reason,
            ", ".join(f"{s}: {o}" for s, o in fault.orders.items()),
            exc_info=fault.cause,
        )
        if self._fault_step != fault.step:
            self._fault_step, self.faults, self.faulted = fault.step, 0, {}
        self.faults += 1
        for s, o in fault.orders.items():
            self.faulted.setdefault(s, set()).add(o)
        for s in fault.orders:
            self.clocks.stop(s)
        seats = list(fault.orders)
        for conn in list(self.connections):
            own = fault.orders.get(conn.seat) if conn.seat is not None else None
            conn.send(dumps(messages.voided(fault.step, seats, own)))
        await self.changed()

    async def changed(self) -> None:
        """After any change (and on resume): store the end, send updates, start clocks, wake
        bots. Caller holds the lock."""
        if self.match.finished and not self.finish_stored:
            outcome = self.match.outcome
            assert outcome is not None
            record = self.match.record(reveal=True).to_dict()
            try:
                await self._write(self.store.finish, self.id, outcome.to_dict(), record, self.owner)
                self.finish_stored = True
                if self.on_finish is not None:
                    self.on_finish(self.id)
            except NotOwner as exc:
                log.warning("match %s: %s", self.id, exc)
                self._moved()
                return
            except StoreUnavailable as exc:  # nobody will send anything to try it again
                log.error("match %s: the end was not stored: %s", self.id, exc)
                self.try_again(self._store_end)
            except StoreError as exc:  # refused: tried again on the next change or resume
                log.error("match %s: the end was not stored: %s", self.id, exc)
        self._broadcast()
        self.clocks.arm()
        self.bots.wake()
        if self.finish_stored and not self.connections and self.on_idle is not None:
            self.on_idle(self)

    async def _store_end(self) -> None:
        async with self.lock:
            if not self.finish_stored and self.ended is None:
                await self.changed()

    def _broadcast(self) -> None:
        m = self.match
        count = len(m.events)
        views: dict[str | None, tuple[str, str]] = {}
        event_text: dict[int, str] = {}
        for conn in list(self.connections):
            if conn.seat not in views:
                views[conn.seat] = (
                    dumps(self.view(conn.seat)),
                    dumps(m.ruleset.scene(m.state, conn.seat)),
                )
            view, scene = views[conn.seat]
            first = min(conn.sent_events, count)
            if first not in event_text:
                event_text[first] = dumps(m.events[first:count])
            # Views are serialised once per seat and spliced in: the same bytes as json.dumps of
            # messages.update, without dumping a large view once per connection.
            conn.send(
                f'{{"type":"update","view":{view},"scene":{scene},'
                f'"events":{event_text[first]},"first_event":{first},"event_count":{count}}}'
            )
            conn.sent_events = count
            if conn.dropped:
                self.detach(conn)

    def send_all(self, text: str) -> None:
        for conn in list(self.connections):
            conn.send(text)

    def let_go(self) -> None:
        """Another process holds the match now (its store said so). Caller holds the lock."""
        self._moved()

    def _moved(self) -> None:
        """Another process took the match over (this one was thought dead, OW2): stop, send
        every connection there, leave memory. Caller holds the lock."""
        log.warning("match %s: another server process holds it now; letting it go", self.id)
        self.stop()
        for conn in list(self.connections):
            conn.send(dumps(messages.moved(None)))
            conn.close(CLOSE_MOVED)
        self.connections.clear()
        if self.on_moved is not None:
            self.on_moved(self)

    def end_early(self, outcome: dict[str, Any], *, finished: bool) -> None:
        """The abandonment clock ended the match (its end is stored): stop its clocks and bots,
        tell every connection, and leave memory once nobody watches. Caller holds the lock."""
        self.ended = outcome
        self.finish_stored = True
        self.stop()
        self._broadcast()
        if finished and self.on_finish is not None:
            self.on_finish(self.id)
        if not self.connections and self.on_idle is not None:
            self.on_idle(self)

    async def _write(self, call: Callable[..., None], *args: Any) -> None:
        """A store write in a worker thread (the store serialises what must be; several
        matches committing at once measured twice the orders a second of one writer thread),
        tried again while the database is unavailable (server/retry.py)."""
        await retrying(call, *args, policy=self.retry, what=f"match {self.id}")

    def try_again(self, again: Callable[[], Any]) -> None:
        """Run the coroutine function `again` in `retry.again_after` seconds, unless the match
        stops first."""

        def fire() -> None:
            self._again.discard(handle)
            self.spawn(again())

        handle = asyncio.get_running_loop().call_later(self.retry.again_after, fire)
        self._again.add(handle)

    # -- tasks -----------------------------------------------------------------------------
    def spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("match %s: %s", self.id, task.exception(), exc_info=task.exception())

    def stop(self) -> None:
        self.clocks.stop_all()
        for handle in list(self._again):
            handle.cancel()
        self._again.clear()
        for task in list(self._tasks):
            task.cancel()
