"""The dice floor: what it costs just to throw and log a match's dice, and nothing else.

The floor re-throws the rolls that benchmarked matches logged, match by match, each match through
a fresh recording `Dice` (so the log grows as it did in the match), by the cheapest call that
throws the same dice: `d` for one die, `pair` for 2D6, `coloured` for coloured dice, else
`roll_detail` with the expression parsed beforehand. The loop making the calls is counted in, so
the floor errs high and the engine's ratio over it errs low. It is timed with the collector off
over a long window, in passes of at least 50 ms; the median pass gives microseconds per die.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gladiator.core.dice import Dice, DiceExpr, Roll, parse_dice

__all__ = ["DicePlan", "FloorTiming", "plan_of", "time_floor"]

# One call of a recorded throw: (method, sides for `d`, colours for `coloured`, the expression
# for `roll_detail`, purpose, rule). A plain tuple: unpacking it is the cheapest thing in the loop.
Call = tuple[str, int, tuple[str, ...], DiceExpr, str, str]
_UNUSED = DiceExpr(1, 6)


@dataclass(frozen=True, slots=True)
class DicePlan:
    """The throws of some matches, as calls per match. Calls are shared between matches (they
    repeat), so a plan of a thousand matches stays small and adds little for the collector."""

    matches: tuple[tuple[int, tuple[Call, ...]], ...]  # (seed, calls) per match
    dice: int  # individual dice thrown by one pass over all the matches

    def __len__(self) -> int:
        return len(self.matches)


@dataclass(frozen=True, slots=True)
class FloorTiming:
    us_per_die: float
    dice_per_pass: int
    passes: int
    window_seconds: float


def _call(roll: Roll, memo: dict[tuple[str, tuple[str, ...], str, str], Call]) -> Call:
    key = (roll.notation, roll.colours, roll.purpose, roll.rule)
    call = memo.get(key)
    if call is None:
        call = _make_call(roll)
        memo[key] = call
    return call


def _make_call(roll: Roll) -> Call:
    if roll.colours:
        return ("coloured", 0, roll.colours, _UNUSED, roll.purpose, roll.rule)
    expr = parse_dice(roll.notation)
    if expr.sides != 66 and expr.count == 1 and expr.modifier == 0:
        return ("d", expr.sides, (), _UNUSED, roll.purpose, roll.rule)
    if expr.sides == 6 and expr.count == 2 and expr.modifier == 0:
        return ("pair", 0, (), _UNUSED, roll.purpose, roll.rule)
    return ("roll_detail", 0, (), expr, roll.purpose, roll.rule)


def plan_of(logs: Iterable[tuple[int, Sequence[Roll]]]) -> DicePlan:
    """The plan that re-throws each (seed, log) given."""
    memo: dict[tuple[str, tuple[str, ...], str, str], Call] = {}
    matches = []
    dice = 0
    for seed, log in logs:
        matches.append((seed, tuple(_call(r, memo) for r in log)))
        dice += sum(len(r.faces) for r in log)
    return DicePlan(tuple(matches), dice)


def throw(plan: DicePlan) -> int:
    """One pass: every match's dice through a fresh recording `Dice`. Returns the dice thrown."""
    thrown = 0
    for seed, calls in plan.matches:
        dice = Dice(seed)
        d, pair, coloured, roll_detail = dice.d, dice.pair, dice.coloured, dice.roll_detail
        for kind, sides, colours, expr, purpose, rule in calls:
            if kind == "d":
                d(sides, purpose, rule)
            elif kind == "pair":
                pair(purpose, rule)
            elif kind == "coloured":
                coloured(colours, purpose, rule)
            else:
                roll_detail(expr, purpose, rule)
        thrown += dice.thrown
    return thrown


def time_floor(plan: DicePlan, window: float = 1.0, min_pass: float = 0.05) -> FloorTiming:
    """Microseconds per die of re-throwing `plan`, the median of passes over about `window`
    seconds, with the collector off so that no collection lands in one pass and not another."""
    if plan.dice == 0:
        return FloorTiming(0.0, 0, 0, 0.0)
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        start = time.perf_counter()
        throw(plan)  # warm up, and find how many times over the plan make one pass
        once = max(time.perf_counter() - start, 1e-9)
        repeat = max(1, round(min_pass / once))
        per_die: list[float] = []
        window_start = time.perf_counter()
        while not per_die or time.perf_counter() - window_start < window or len(per_die) < 3:
            t0 = time.perf_counter()
            for _ in range(repeat):
                throw(plan)
            per_die.append((time.perf_counter() - t0) / (repeat * plan.dice))
        elapsed = time.perf_counter() - window_start
    finally:
        if was_enabled:
            gc.enable()
    return FloorTiming(
        us_per_die=statistics.median(per_die) * 1e6,
        dice_per_pass=plan.dice * repeat,
        passes=len(per_die),
        window_seconds=elapsed,
    )
