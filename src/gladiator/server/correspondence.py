"""Correspondence play (docs/web.md, Correspondence; rulings CP1-CP8): a deadline for every
decision, chosen when the match is created, and what happens when it passes.

Each human seat a decision waits for has `seconds` from the moment the decision was first asked
(`LiveMatch.turn_since`, stored with the order that began it, so a restart or another process
counts on from the same instant). When they run out the keeper of the process that holds the
match applies the match's choice (CP2, CP3):

- "bot": a stand-in bot plays that one decision in the seat's name; the seat is the player's
  again for the next one. The order is stored with the deadline it answered (`due_at`).
- "forfeit": the late seats forfeit, as the abandonment clock's forfeit (AB3), the reason
  "deadline".

A correspondence match has no abandonment clock (its deadline is its clock) and no §7.5
reaction time (a clock of seconds cannot run while its player is away for a day, CP4).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from gladiator.bots.levels import level_for
from gladiator.bots.spec import parse_spec
from gladiator.server.abandonment import Forfeitable, forfeit_ending, store_forfeit
from gladiator.store import Store
from gladiator.store.stored import StoredDeadline

__all__ = [
    "DeadlineKeeper",
    "DeadlinePolicy",
    "campaign_deadline",
    "deadline_for",
    "duration_text",
]

log = logging.getLogger("gladiator.server")

MIN_SECONDS = 60  # "minutes to days" (issue #30); a server may allow less (tests, load runs)
MAX_SECONDS = 30 * 86400
THEN = ("bot", "forfeit")


@dataclass(frozen=True)
class DeadlinePolicy:
    """The deadlines this server accepts and how often it looks for those that passed."""

    min_seconds: int = MIN_SECONDS
    max_seconds: int = MAX_SECONDS
    interval: float = 1.0  # a deadline is applied at most this late (plus the work)

    def __post_init__(self) -> None:
        if not 1 <= self.min_seconds <= self.max_seconds:
            raise ValueError(
                f"the shortest deadline must be 1 to {self.max_seconds} seconds, "
                f"not {self.min_seconds}"
            )


def duration_text(seconds: float) -> str:
    """`seconds` as a player reads it, in its largest unit and the next where that is not zero,
    as the pages say it (deadline.js): "45 s", "1 min 30 s", "1 h", "2 d 4 h", "1 d"."""
    left = max(0, round(seconds))
    counts = []
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60), ("s", 1)):
        count, left = divmod(left, size)
        counts.append((count, unit))
    first = next((i for i, (count, _) in enumerate(counts) if count), None)
    if first is None:
        return "0 s"
    return " ".join(f"{n} {unit}" for n, unit in counts[first : first + 2] if n)


def deadline_for(
    ruleset: str,
    options: dict[str, Any],
    seconds: int,
    then: str,
    bot: str | None,
    policy: DeadlinePolicy,
) -> StoredDeadline:
    """A correspondence match's deadline as stored, its stand-in bot resolved to a spec (a
    level plays as the level's bot); ValueError (one line) for what this server refuses."""
    if not policy.min_seconds <= seconds <= policy.max_seconds:
        raise ValueError(
            f"the deadline must be {duration_text(policy.min_seconds)} to "
            f"{duration_text(policy.max_seconds)} a decision, not {seconds} s"
        )
    if then not in THEN:
        raise ValueError(
            f"when a deadline passes the seat's bot plays or it forfeits, not {then!r}"
        )
    if options.get("reaction_time"):  # CP4
        raise ValueError(
            "a correspondence match cannot have §7.5 reaction time: its seconds would run "
            "while the player is away"
        )
    if then == "forfeit":
        return StoredDeadline(seconds, then, None)
    spec = (bot or "level:normal").strip().lower()
    if spec.startswith("level:"):
        text = level_for(ruleset, spec[6:]).spec.text
    elif spec.startswith("bot:"):
        text = parse_spec(spec[4:]).text
    else:
        raise ValueError(f"the stand-in bot is 'level:LEVEL' or 'bot:NAME', not {spec!r}")
    parse_spec(text).make()  # a bot this program cannot load is refused now, not at a deadline
    return StoredDeadline(seconds, then, text)


def campaign_deadline(
    ruleset: str, seconds: int, then: str, bot: str | None, policy: DeadlinePolicy
) -> StoredDeadline:
    """A campaign's deadline (CP8): its fights' stand-in only, never a forfeit; ValueError
    (one line) for what this server refuses."""
    if then == "forfeit":
        raise ValueError(
            "a campaign's fight cannot be forfeited (its bout is settled by the rules' end, "
            "AB5): when a deadline passes, the stand-in bot plays"
        )
    return deadline_for(ruleset, {}, seconds, then, bot, policy)


class Correspondent(Forfeitable, Protocol):
    """What the keeper needs of a hub's live match (server/live_match.py)."""

    lock: asyncio.Lock
    deadline: StoredDeadline | None
    turn_since: float

    @property
    def over(self) -> bool: ...

    @property
    def late_seats(self) -> list[str]: ...

    def stand_in(self, seat: str, spec: str, due: datetime) -> None: ...


@dataclass
class DeadlineKeeper:
    """The deadlines of one hub's live matches (`matches` lists them), looked at every
    `policy.interval` seconds on `clock` (wall time: the stored decision starts are)."""

    store: Store
    policy: DeadlinePolicy
    matches: Callable[[], Iterable[Correspondent]]
    clock: Callable[[], float]
    _task: asyncio.Task[None] | None = field(default=None, init=False)

    @staticmethod
    def due(live: Correspondent) -> float | None:
        """When the current decision's deadline passes (wall seconds); None without one."""
        if live.deadline is None or live.over:
            return None
        return live.turn_since + live.deadline.seconds

    async def sweep(self) -> int:
        """Apply every deadline that has passed; how many matches had one."""
        now = self.clock()
        applied = 0
        for live in list(self.matches()):
            due = self.due(live)
            if due is not None and due <= now and live.late_seats:
                applied += await self._apply(live)
        return applied

    async def _apply(self, live: Correspondent) -> int:
        async with live.lock:
            due = self.due(live)  # again: an order may have come while waiting for the lock
            late = live.late_seats
            if due is None or due > self.clock() or not late or live.deadline is None:
                return 0
            when = datetime.fromtimestamp(due, UTC)
            if live.deadline.then == "bot":
                # A row without its bot (written by hand) still never forfeits (CP2, CP8).
                name = live.match.ruleset.name
                spec = live.deadline.bot or level_for(name, "normal").spec.text
                for seat in late:
                    live.stand_in(seat, spec, when)
                return 1
            reason = {
                "reason": "deadline",
                "deadline_seconds": live.deadline.seconds,
                "due_at": when.isoformat(),
            }
            why = f"no order within the deadline of {duration_text(live.deadline.seconds)}"
            ending = forfeit_ending(live.match, late, reason, why)
            return int(await store_forfeit(self.store, live, *ending))

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            try:
                await self.sweep()
            except Exception:  # a sweep's bug must not stop the deadlines
                log.exception("the deadline sweep failed")
            await asyncio.sleep(self.policy.interval)

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None
