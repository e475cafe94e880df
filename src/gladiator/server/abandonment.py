"""The abandonment clocks (docs/web.md, Abandoned matches; rulings AB1-AB6).

Every lobby match with a human seat has a clock: the last time a human seat did anything (gave
an order or attached a connection), or its creation. A match whose humans have been silent for
`abandon_after` seconds, with at least one human who did something, ends: the human seats it is
waiting for forfeit (AB2). A match in which no human ever did anything ends after `void_after`
seconds as `void`, without a winner (AB2). Bot-only matches and campaign fights have no clock
(AB1, AB5). An ended match leaves memory like any finished one.

At startup, the matches already past `void_after` with no human activity are voided by one
statement before anything is rebuilt (AB4), so a store full of never-visited matches costs no
replay at all; the rest are swept at once after the resume.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal, Protocol

from gladiator.core.match import Match
from gladiator.store import NotOwner, Store, StoredMatch, StoreError

__all__ = [
    "AbandonPolicy",
    "Abandoner",
    "Silence",
    "abandon_policy",
    "forfeit_ending",
    "store_forfeit",
    "void_outcome",
]

log = logging.getLogger("gladiator.server")

ABANDON_AFTER = 600.0  # seconds
VOID_AFTER = 3600.0  # seconds
Ending = Literal["forfeit", "void"]


@dataclass(frozen=True)
class AbandonPolicy:
    """The two limits in seconds (0: that clock is off) and the wall clock they are read on
    (the store's timestamps are wall-clock time, so a restart goes on counting)."""

    abandon_after: float = ABANDON_AFTER
    void_after: float = VOID_AFTER
    clock: Callable[[], float] = time.time

    @property
    def on(self) -> bool:
        return self.abandon_after > 0 or self.void_after > 0

    def interval(self) -> float:
        """Seconds between sweeps: a tenth of the shorter limit, 1 to 30 s, so a match ends at
        most a tenth late."""
        limits = [t for t in (self.abandon_after, self.void_after) if t > 0]
        return min(30.0, max(1.0, min(limits) / 10)) if limits else 30.0

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.clock(), UTC)


def abandon_policy(
    abandon_after: float, void_after: float, clock: Callable[[], float] = time.time
) -> AbandonPolicy:
    """The policy for `serve --abandon-after --void-after`; ValueError with one line."""
    for flag, value in (("--abandon-after", abandon_after), ("--void-after", void_after)):
        if not math.isfinite(value) or value < 0:
            raise ValueError(f"{flag} must be a number of seconds, 0 or more (0: off), not {value}")
        if 0 < value < 1:
            raise ValueError(f"{flag} must be 0 (off) or at least 1 second, not {value}")
    return AbandonPolicy(float(abandon_after), float(void_after), clock)


class Forfeitable(Protocol):
    """What a forfeit needs of a hub's live match (server.hub.LiveMatch)."""

    id: str
    match: Match
    owner: str | None  # this process, which the store checks still holds the match (OW1)

    def end_early(self, outcome: dict[str, Any], *, finished: bool) -> None: ...

    def let_go(self) -> None: ...


class LiveMatch(Forfeitable, Protocol):
    """What the clocks need of a hub's live match."""

    lock: asyncio.Lock
    silence: Silence

    @property
    def over(self) -> bool: ...


@dataclass
class Silence:
    """One match's clock: whether it has one, its human seats, and the last human activity
    (wall seconds; the creation while no human has done anything)."""

    abandonable: bool
    humans: frozenset[str]
    last: float
    acted: bool

    @classmethod
    def of(cls, stored: StoredMatch) -> Silence:
        humans = frozenset(s.seat for s in stored.seats if s.kind == "human")
        since = stored.active_at or stored.created_at
        return cls(
            stored.abandonable and bool(humans),
            humans,
            since.timestamp(),
            stored.active_at is not None,
        )

    def touch(self, now: float) -> None:
        self.last = max(self.last, now)
        self.acted = True


def void_outcome(void_after: float) -> dict[str, Any]:
    return {
        "winners": [],
        "method": "void",
        "summary": f"void: no player did anything for {void_after:g} s",
    }


def forfeit_ending(
    match: Match, seats: list[str], reason: dict[str, Any], why: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The outcome and the record of a forfeit (AB2, AB3, CP3): the seats named lose, every
    other seat wins; the record's own `outcome` stays the rules' (none), so `Match.replay` still
    checks it, and `forfeit` says who forfeited and why (`reason`, plain data; `why`, the end
    of the summary's sentence)."""
    winners = [s for s in match.seats if s not in seats]
    forfeit = {"seats": seats, **reason, "winners": winners}
    who = ", ".join(match.ruleset.seat_label(match.state, s) or s for s in seats)
    outcome = {
        "winners": winners,
        "method": "forfeit",
        "summary": f"{who} forfeit{'s' if len(seats) == 1 else ''}: {why}",
        "forfeit": forfeit,
    }
    record = match.record(reveal=True).to_dict()
    record["forfeit"] = forfeit
    return outcome, record


def silent_forfeit(
    live: LiveMatch, seats: list[str], silent_for: float, abandon_after: float
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The forfeit of the abandonment clock (AB2): the human seats silent too long."""
    reason = {
        "reason": "silent",
        "silent_seconds": round(silent_for, 1),
        "abandon_after": abandon_after,
    }
    return forfeit_ending(live.match, seats, reason, f"no move for {abandon_after:g} s")


async def store_forfeit(
    store: Store, live: Forfeitable, outcome: dict[str, Any], record: dict[str, Any]
) -> bool:
    """Store a forfeit and end the live match with it; False (logged) if the store refused,
    for the next sweep to try again. Caller holds the match's lock."""
    try:
        await asyncio.to_thread(store.finish, live.id, outcome, record, live.owner)
    except NotOwner as exc:  # another process took it over: its clocks are the match's now
        log.warning("match %s: %s", live.id, exc)
        live.let_go()
        return False
    except StoreError as exc:
        log.error("match %s: the forfeit was not stored: %s", live.id, exc)
        return False
    log.info("match %s: %s", live.id, outcome["summary"])
    live.end_early(outcome, finished=True)
    return True


@dataclass
class Abandoner:
    """The clocks of one hub: a sweep every `policy.interval()` seconds over its live matches
    (`matches` lists them)."""

    store: Store
    policy: AbandonPolicy
    matches: Callable[[], Iterable[LiveMatch]]
    _task: asyncio.Task[None] | None = field(default=None, init=False)

    def due(self, live: LiveMatch) -> Ending | None:
        """How this match ends now, if it does."""
        silence, policy = live.silence, self.policy
        if not silence.abandonable or live.over:
            return None
        quiet = policy.clock() - silence.last
        if silence.acted:
            if 0 < policy.abandon_after <= quiet and self._silent_seats(live):
                return "forfeit"
            return None
        if 0 < policy.void_after <= quiet:
            return "void"
        return None

    @staticmethod
    def _silent_seats(live: LiveMatch) -> list[str]:
        # The human seats holding the match up (AB2); a match waiting only on bots goes on.
        return [s for s in live.match.waiting_for() if s in live.silence.humans]

    async def before_resume(self) -> int:
        """Void the never-visited matches past `void_after` without rebuilding them (AB4)."""
        if self.policy.void_after <= 0:
            return 0
        cutoff = datetime.fromtimestamp(self.policy.clock() - self.policy.void_after, UTC)
        try:
            count = await asyncio.to_thread(
                self.store.void_silent, cutoff, void_outcome(self.policy.void_after)
            )
        except StoreError as exc:
            log.error("the silent matches were not voided: %s", exc)
            return 0
        if count:
            log.info("voided %d matches nobody played (not resumed)", count)
        return count

    async def sweep(self) -> dict[str, int]:
        """End every live match that is due; how many of each ending."""
        ended = {"forfeit": 0, "void": 0}
        for live in list(self.matches()):
            if self.due(live) is not None:
                kind = await self._end(live)
                if kind is not None:
                    ended[kind] += 1
        return ended

    async def _end(self, live: LiveMatch) -> Ending | None:
        async with live.lock:
            kind = self.due(live)  # again: an order may have come while waiting for the lock
            if kind == "forfeit":
                seats = self._silent_seats(live)
                quiet = self.policy.clock() - live.silence.last
                ending = silent_forfeit(live, seats, quiet, self.policy.abandon_after)
                return kind if await store_forfeit(self.store, live, *ending) else None
            if kind != "void":
                return None
            outcome = void_outcome(self.policy.void_after)
            try:
                await asyncio.to_thread(self.store.void, live.id, outcome)
            except StoreError as exc:  # the next sweep tries again
                log.error("match %s: the void was not stored: %s", live.id, exc)
                return None
            log.info("match %s: %s", live.id, outcome["summary"])
            live.end_early(outcome, finished=False)
            return kind

    def start(self) -> None:
        if self.policy.on and self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            try:
                await self.sweep()
            except Exception:  # a sweep's bug must not stop the clocks
                log.exception("the abandonment sweep failed")
            await asyncio.sleep(self.policy.interval())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None
