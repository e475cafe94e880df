"""The live matches of a running server: one `LiveMatch` per match, each with its `Match`, the
connections of its seats and spectators, its bots and its clocks.

Everything that changes a match happens under its lock, in this order (docs/web.md): check the
order (`Match.check`), store it (`Store.add_order`, committed), give it to the match
(`Match.submit`), acknowledge it, then send every connection its own seat's view and scene and
the events it has not had. A connection only ever receives `Match.view(its seat)` and
`Ruleset.scene(state, its seat)`: a secret order waits inside the `Match`, never in anything
sent to another seat.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import logging
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from gladiator import registry
from gladiator.bots import Bot
from gladiator.bots.levels import level_for
from gladiator.bots.spec import parse_spec
from gladiator.core.decisions import Decision, IllegalOrder
from gladiator.core.match import Match, NotYourTurn
from gladiator.server import messages
from gladiator.server.abandonment import Abandoner, AbandonPolicy, Silence
from gladiator.server.ownership import Ownership
from gladiator.server.retry import RetryPolicy, retrying
from gladiator.store import (
    NotOwner,
    Store,
    StoredMatch,
    StoredSeat,
    StoreError,
    StoreUnavailable,
    hash_token,
    new_match_id,
    new_token,
)
from gladiator.store.resume import rebuild

__all__ = ["Connection", "CreatedMatch", "Elsewhere", "Hub", "LiveMatch", "Unavailable"]

log = logging.getLogger("gladiator.server")

OUTBOX = 512  # queued messages per connection before it is dropped as too slow
CLOSE_TOO_SLOW = 1013
CLOSE_MOVED = 4302  # another server process holds the match now: connect again (OW5)
FINISHED_KEPT = 32  # finished matches kept in memory for HTTP lookers (sockets keep theirs)


class Unavailable(Exception):
    """A stored match that cannot be brought back (its data is broken); the message says why."""


class Elsewhere(Exception):
    """Another server process, alive, holds the match: its clients go to `url` (OW5)."""

    def __init__(self, match_id: str, url: str) -> None:
        super().__init__(f"match {match_id} is held by the server at {url or 'another address'}")
        self.url = url


def _at(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def _dumps(data: Any) -> str:
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


@dataclass(frozen=True)
class CreatedMatch:
    live: LiveMatch
    tokens: dict[str, str]  # human seat -> its token
    spectator: str


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
        # A bot seat stores NAME or NAME@BUDGET (docs/web.md): a bare name, as stored before
        # budgets, plays with the bot's own default.
        specs = {s.seat: parse_spec(s.bot or "random") for s in stored.seats if s.kind == "bot"}
        self.bots: dict[str, Bot] = {seat: spec.make() for seat, spec in specs.items()}
        self.budgets: dict[str, float | None] = {seat: spec.budget for seat, spec in specs.items()}
        self.deadlines: dict[str, float] = {}
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._clock_step = -1
        self._thinking: set[tuple[str, int]] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._again: set[asyncio.TimerHandle] = set()  # writes to try anew (server/retry.py)
        # A bot's order that the store did not take, by (seat, step): tried again as it was,
        # since its first commit may have landed with only the answer lost (HC6).
        self._unstored: dict[tuple[str, int], str] = {}

    @property
    def over(self) -> bool:
        return self.match.finished or self.ended is not None

    # -- reading ---------------------------------------------------------------------------
    def view(self, seat: str | None) -> dict[str, Any]:
        v = self.match.view(seat)
        if self.ended is not None:  # nothing more is waited for; the outcome is the forfeit's
            v.update(outcome=self.ended, waiting_for=[])
            v.pop("decision", None)
        return v

    def welcome(self, seat: str | None) -> str:
        m = self.match
        return _dumps(
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

    # -- connections -----------------------------------------------------------------------
    async def attach(self, conn: Connection, last_event: int) -> None:
        async with self.lock:
            conn.send(self.welcome(conn.seat))
            snap = self.snapshot(conn.seat, last_event)
            conn.send(_dumps(snap))
            conn.sent_events = snap["event_count"]
            for seat, deadline in self.deadlines.items():
                conn.send(_dumps(messages.clock(seat, deadline)))
            self.connections.append(conn)
            if conn.seat in self.silence.humans and not self.over:
                now = self.clock()
                self.silence.touch(now)
                self._spawn(self._touch(now))

    async def _touch(self, now: float) -> None:
        try:
            await self._write(self.store.touch, self.id, _at(now))
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
    ) -> dict[str, Any]:
        """Check, store and submit a seat's order; the ack (or error) goes to `reply` before any
        update it causes, and is returned (for the HTTP endpoint)."""
        async with self.lock:
            if self.ended is not None:
                answer = messages.error(client_id, f"the match is over: {self.ended['summary']}")
                if reply is not None:
                    reply.send(_dumps(answer))
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
                    await self._accept(
                        seat,
                        canonical,
                        client_id=client_id,
                        reply=reply,
                        active_at=_at(now) if human else None,
                    )
                    if human:
                        self.silence.touch(now)
                except StoreError as exc:
                    answer = messages.error(client_id, f"the order was not stored: {exc}")
                else:
                    return messages.ack(client_id, canonical)
            if reply is not None:
                reply.send(_dumps(answer))
            return answer

    async def _accept(
        self,
        seat: str,
        canonical: str,
        *,
        client_id: str | int | None = None,
        reply: Connection | None = None,
        active_at: datetime | None = None,
    ) -> None:
        """Store, then submit, then acknowledge, then tell everyone. Caller holds the lock."""
        if self.ended is not None:
            raise StoreError(f"the match is over: {self.ended['summary']}")
        try:
            await self._write(
                self.store.add_order, self.id, self.seq, seat, canonical, active_at, self.owner
            )
        except NotOwner:
            self._moved()
            raise
        self.seq += 1
        self.match.submit(seat, canonical)
        self._stop_clock(seat)
        if reply is not None:
            reply.send(_dumps(messages.ack(client_id, canonical)))
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
                self._try_again(self._store_end)
            except StoreError as exc:  # refused: tried again on the next change or resume
                log.error("match %s: the end was not stored: %s", self.id, exc)
        self._broadcast()
        self._arm_clocks()
        self._wake_bots()
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
                    _dumps(self.view(conn.seat)),
                    _dumps(m.ruleset.scene(m.state, conn.seat)),
                )
            view, scene = views[conn.seat]
            first = min(conn.sent_events, count)
            if first not in event_text:
                event_text[first] = _dumps(m.events[first:count])
            # Views are serialised once per seat and spliced in: the same bytes as json.dumps of
            # messages.update, without dumping a large view once per connection.
            conn.send(
                f'{{"type":"update","view":{view},"scene":{scene},'
                f'"events":{event_text[first]},"first_event":{first},"event_count":{count}}}'
            )
            conn.sent_events = count
            if conn.dropped:
                self.detach(conn)

    def _send_all(self, text: str) -> None:
        for conn in list(self.connections):
            conn.send(text)

    # -- clocks (§7.5 reaction time) -------------------------------------------------------
    def _arm_clocks(self) -> None:
        step = len(self.match.steps)
        if step != self._clock_step:
            for seat in list(self._timers):
                self._stop_clock(seat)
            self._clock_step = step
        if self.over:
            return
        pending = self.match.pending()
        loop = asyncio.get_running_loop()
        for seat in self.match.waiting_for():
            decision = pending[seat]
            if seat in self.bots or decision.time_limit is None or seat in self.deadlines:
                continue
            limit = max(0.0, float(decision.time_limit))
            self.deadlines[seat] = time.time() + limit
            self._timers[seat] = loop.call_later(limit, self._on_expiry, seat, step)
            self._send_all(_dumps(messages.clock(seat, self.deadlines[seat])))

    def _stop_clock(self, seat: str) -> None:
        timer = self._timers.pop(seat, None)
        if timer is not None:
            timer.cancel()
        self.deadlines.pop(seat, None)

    def _on_expiry(self, seat: str, step: int) -> None:
        self._spawn(self._expire(seat, step))

    async def _expire(self, seat: str, step: int) -> None:
        async with self.lock:
            if self._stale(seat, step):
                return
            deadline = self.deadlines.get(seat, time.time())
            decision = self.match.pending()[seat]
            order = decision.on_timeout
            try:
                canonical = self.match.check(seat, order or "")
            except ValueError:
                log.error("match %s: %s's time-out order %r is illegal", self.id, seat, order)
                canonical = decision.sample(random.Random())
            log.info("match %s: %s's time ran out; %s given in their name", self.id, seat, order)
            self._send_all(_dumps(messages.clock(seat, deadline, expired=True)))
            try:
                await self._accept(seat, canonical)
            except StoreError as exc:
                log.error("match %s: time-out order not stored: %s", self.id, exc)
                if isinstance(exc, StoreUnavailable):  # no clock is left to give it again
                    self._try_again(functools.partial(self._expire, seat, step))

    def _stale(self, seat: str, step: int) -> bool:
        """The decision `seat` was asked at `step` is no longer pending (or the match ended)."""
        return self.over or len(self.match.steps) != step or seat not in self.match.waiting_for()

    # -- bots ------------------------------------------------------------------------------
    def _wake_bots(self) -> None:
        if self.over:
            return
        step = len(self.match.steps)
        for seat in self.match.waiting_for():
            if seat in self.bots and (seat, step) not in self._thinking:
                self._thinking.add((seat, step))
                self._spawn(self._play_bot(seat, step))

    def _bot_rng(self, seat: str, step: int) -> random.Random:
        """A bot's own generator for one decision: never the match's dice (so it cannot foresee
        the rolls), but drawn from a hash of the secret seed, the seat and the step, so a bot
        match played again from its seed plays the same, even across a server restart."""
        m = self.match
        key = hashlib.sha256(f"bot:{m.seed}:{seat}:{step}".encode()).digest()
        return random.Random(int.from_bytes(key[:8], "big"))

    async def _play_bot(self, seat: str, step: int) -> None:
        try:
            async with self.lock:
                if self._stale(seat, step):
                    return
                decision: Decision = self.match.pending()[seat]
                rng = self._bot_rng(seat, step)
                # Only what the bot may know: every other seat's secret drawn afresh.
                seen = self.match.ruleset.determinize(self.match.state, seat, rng)
            bot = self.bots[seat]
            unstored = self._unstored.get((seat, step))
            try:
                order: str = (
                    unstored
                    if unstored is not None
                    else await asyncio.to_thread(
                        functools.partial(bot.choose, budget=self.budgets.get(seat)),
                        self.match.ruleset,
                        seen,
                        seat,
                        decision,
                        rng,
                    )
                )
            except Exception:  # a bot's bug must not stall the match: it plays at random
                log.exception(
                    "match %s: bot %s failed; a random legal order instead", self.id, seat
                )
                order = decision.sample(rng)
            async with self.lock:
                if self._stale(seat, step):
                    return
                try:
                    canonical = self.match.check(seat, order)
                except ValueError as exc:
                    log.error("match %s: bot %s gave an illegal order: %s", self.id, seat, exc)
                    canonical = decision.sample(rng)
                try:
                    await self._accept(seat, canonical)
                except StoreError as exc:
                    log.error("match %s: bot %s's order not stored: %s", self.id, seat, exc)
                    if isinstance(exc, StoreUnavailable):  # else the match would wait forever
                        self._unstored[(seat, step)] = canonical
                        self._try_again(self._wake_bots_later)
                else:
                    self._unstored.pop((seat, step), None)
        finally:
            self._thinking.discard((seat, step))

    def _moved(self) -> None:
        """Another process took the match over (this one was thought dead, OW2): stop, send
        every connection there, leave memory. Caller holds the lock."""
        log.warning("match %s: another server process holds it now; letting it go", self.id)
        self.stop()
        for conn in list(self.connections):
            conn.send(_dumps(messages.moved(None)))
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

    async def _wake_bots_later(self) -> None:
        async with self.lock:
            if not self.over:
                self._wake_bots()

    def _try_again(self, again: Callable[[], Any]) -> None:
        """Run the coroutine function `again` in `retry.again_after` seconds, unless the match
        stops first."""

        def fire() -> None:
            self._again.discard(handle)
            self._spawn(again())

        handle = asyncio.get_running_loop().call_later(self.retry.again_after, fire)
        self._again.add(handle)

    # -- tasks -----------------------------------------------------------------------------
    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("match %s: %s", self.id, task.exception(), exc_info=task.exception())

    def stop(self) -> None:
        for seat in list(self._timers):
            self._stop_clock(seat)
        for handle in list(self._again):
            handle.cancel()
        self._again.clear()
        for task in list(self._tasks):
            task.cancel()


class Hub:
    """Every match this server holds in memory: running ones always, finished ones while
    someone is looking at them."""

    def __init__(
        self,
        store: Store,
        policy: AbandonPolicy | None = None,
        retry: RetryPolicy | None = None,
        ownership: Ownership | None = None,
    ) -> None:
        self.store = store
        self.policy = policy or AbandonPolicy()
        self.retry = retry or RetryPolicy()
        self.ownership = ownership or Ownership(store)
        self._beating: asyncio.Task[None] | None = None
        # The other processes on this database: a page one of them served may call this one
        # once its match moved here (OW5).
        self.peer_origins: frozenset[str] = frozenset()
        self.abandoner = Abandoner(store, self.policy, lambda: self.live.values())
        self.live: dict[str, LiveMatch] = {}
        self._loading = asyncio.Lock()
        # Told the id of every match whose end is stored (the campaigns settle their fights).
        self.on_finish: Callable[[str], None] | None = None

    async def resume_all(self) -> None:
        """Bring back every running match of the store (a broken one is logged and skipped),
        then start the abandonment clocks."""
        await self.abandoner.before_resume()
        await asyncio.to_thread(self.ownership.register)
        await asyncio.to_thread(self.ownership.claim_orphans)
        matches, problems = await asyncio.to_thread(self.store.running, self.ownership.me)
        for problem in problems:
            log.warning("not resumed: %s", problem)
        for stored in matches:
            try:
                live = await asyncio.to_thread(self._rebuild, stored)
            except Unavailable as exc:
                log.warning("not resumed: match %s: %s", stored.id, exc)
                continue
            self.live[stored.id] = live
            async with live.lock:
                await live.changed()
        log.info("resumed %d running matches", len(self.live))
        self.abandoner.start()
        self._beating = asyncio.get_running_loop().create_task(self._beat())

    async def _beat(self) -> None:
        """The heartbeat, and the takeover of the matches of processes that died (OW2, OW3)."""
        while True:
            await asyncio.sleep(self.ownership.policy.heartbeat)
            try:
                await asyncio.to_thread(self.ownership.beat)
                taken = await asyncio.to_thread(self.ownership.claim_orphans)
                self.peer_origins = await asyncio.to_thread(self.ownership.peer_origins)
            except StoreError as exc:
                log.warning("heartbeat: %s", exc)
                continue
            for match_id in taken:
                if match_id not in self.live:
                    try:
                        await self._take_over(match_id)
                    except Exception:  # one broken match must not stop the heartbeat
                        log.exception("match %s: the takeover failed", match_id)

    async def _take_over(self, match_id: str) -> None:
        async with self._loading:
            try:
                stored = await asyncio.to_thread(self.store.load, match_id)
                if stored is None or stored.status != "running" or match_id in self.live:
                    return
                live = await asyncio.to_thread(self._rebuild, stored)
            except (StoreError, Unavailable) as exc:
                log.warning("not taken over: match %s: %s", match_id, exc)
                return
            self.live[match_id] = live
        log.info("took over match %s", match_id)
        async with live.lock:
            await live.changed()

    def _rebuild(self, stored: StoredMatch) -> LiveMatch:
        try:
            return LiveMatch(
                self.store,
                stored,
                rebuild(stored),
                self._forget,
                self._finished,
                self.policy.clock,
                self.retry,
                self.ownership.me,
                self._moved,
            )
        except (StoreError, ValueError) as exc:  # ValueError: a bot this program lacks
            raise Unavailable(str(exc)) from None

    async def get(self, match_id: str) -> LiveMatch | None:
        """The live match, loading it from the store if need be; None if there is none;
        Unavailable if it is stored but broken."""
        live = self.live.get(match_id)
        if live is not None:
            return live
        async with self._loading:
            live = self.live.get(match_id)
            if live is not None:
                return live
            try:
                holder = await asyncio.to_thread(self.ownership.claim, match_id)
                stored = await asyncio.to_thread(self.store.load, match_id)
            except StoreError as exc:
                raise Unavailable(str(exc)) from None
            if holder is not None:
                raise Elsewhere(match_id, holder.url)
            if stored is None:
                return None
            live = await asyncio.to_thread(self._rebuild, stored)
            if stored.status != "running":
                self._evict_idle_finished(keep=FINISHED_KEPT - 1)
            self.live[match_id] = live
        if stored.status == "running":
            async with live.lock:
                await live.changed()
        return live

    def _evict_idle_finished(self, keep: int) -> None:
        """Finished matches loaded for a look but watched by no socket: keep the last few."""
        idle = [m for m in self.live.values() if m.finish_stored and not m.connections]
        for m in idle[: max(0, len(idle) - keep)]:
            del self.live[m.id]

    def _finished(self, match_id: str) -> None:
        if self.on_finish is not None:
            self.on_finish(match_id)

    def _moved(self, live: LiveMatch) -> None:
        if self.live.get(live.id) is live:
            del self.live[live.id]

    def _forget(self, live: LiveMatch) -> None:
        """A finished match nobody watches leaves memory (the store has its record)."""
        if self.live.get(live.id) is live:
            del self.live[live.id]

    async def create(
        self,
        ruleset: str,
        options: Mapping[str, Any],
        seats: Mapping[str, str],
        seed: int | None,
        *,
        match_id: str | None = None,
        seat_hashes: Mapping[str, str] | None = None,
        abandonable: bool = True,
    ) -> CreatedMatch:
        """A new match: `seats` maps each seat to "human", "bot:NAME[@BUDGET]" or "level:LEVEL"
        (easy, normal, hard: stored as the level's bot and budget) (left out: human).
        ValueError (one line) for a bad ruleset, option, seat or bot. `match_id` names it (a
        campaign's fight: one id per fight, so it is never created twice); `seat_hashes` gives
        a human seat the hash of a token its player already holds (a lanista's link);
        `abandonable`: the abandonment clocks apply (if it has a human seat; AB1, AB5)."""
        rs = registry.get(ruleset)
        match = Match(rs, options, seed=seed)
        unknown = sorted(set(seats) - set(match.seats))
        if unknown:
            raise ValueError(
                f"no seat {unknown[0]!r} in {rs.name}; seats: {', '.join(match.seats)}"
            )
        tokens: dict[str, str] = {}
        stored_seats: list[StoredSeat] = []
        for seat in match.seats:
            spec = seats.get(seat, "human").strip().lower()
            label = rs.seat_label(match.state, seat)
            if spec == "human" and seat_hashes is not None and seat in seat_hashes:
                stored_seats.append(StoredSeat(seat, "human", None, seat_hashes[seat], label))
            elif spec == "human":
                tokens[seat] = new_token()
                stored_seats.append(
                    StoredSeat(seat, "human", None, hash_token(tokens[seat]), label)
                )
            elif spec.startswith("bot:"):
                bot = parse_spec(spec[4:])
                bot.make()  # a plugin that cannot load is refused now, not mid-match
                stored_seats.append(StoredSeat(seat, "bot", bot.text, None, label))
            elif spec.startswith("level:"):
                level = level_for(rs.name, spec[6:])
                level.spec.make()
                stored_seats.append(StoredSeat(seat, "bot", level.spec.text, None, label))
            else:
                raise ValueError(
                    f"seat {seat}: say 'human' or 'bot:NAME' (or 'level:LEVEL'), not {spec!r}"
                )
        spectator = new_token()
        match_id = match_id or new_match_id()
        abandonable = abandonable and any(s.kind == "human" for s in stored_seats)
        stored_at = _at(self.policy.clock())
        await asyncio.to_thread(
            functools.partial(
                self.store.create_match,
                match_id=match_id,
                ruleset=rs.name,
                options=match.options,
                seed=match.seed,
                nonce=match.nonce,
                commitment=match.commitment,
                seats=stored_seats,
                spectator_hash=hash_token(spectator),
                abandonable=abandonable,
                created_at=stored_at,
                owner=self.ownership.me,
            ),
        )
        stored = StoredMatch(
            id=match_id,
            ruleset=rs.name,
            options=match.options,
            seed=match.seed,
            nonce=match.nonce,
            commitment=match.commitment,
            status="running",
            created_at=stored_at,
            finished_at=None,
            outcome=None,
            spectator_hash=hash_token(spectator),
            seats=tuple(stored_seats),
            orders=(),
            abandonable=abandonable,
        )
        live = LiveMatch(
            self.store,
            stored,
            match,
            self._forget,
            self._finished,
            self.policy.clock,
            self.retry,
            self.ownership.me,
            self._moved,
        )
        self.live[match_id] = live
        async with live.lock:
            await live.changed()
        return CreatedMatch(live, tokens, spectator)

    def stop(self) -> None:
        self.abandoner.stop()
        if self._beating is not None:
            self._beating.cancel()
        for live in self.live.values():
            live.stop()
        self.ownership.retire()
