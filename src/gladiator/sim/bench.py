"""The benchmark: matches and decisions per second on one core, engine microseconds per die.

Each bot plays the same seeded matches down two paths, labelled in the JSON:

- `unchecked`: what `gladiator sim` runs. Bots choose from `ruleset.pending`, and
  `ruleset.apply(..., quiet=True)` advances the state with no second check and no event text.
- `checked`: `Match.apply_step`, as the server and the terminal play: every order validated
  and canonicalised, every event built and kept.

Time spent in the bots' `choose` is measured apart, so `engine_us_per_die` is the engine (and,
on the checked path, `Match`) per individual die thrown (`Dice.thrown`: 5D6 is five dice).
`dice_floor_us_per_die` is the cost of throwing and logging those same dice alone (see
`sim.dicefloor`), and `engine_over_dice_floor` the ratio of the two.

Timed runs play under the tuned collector of `sim.gctune` (as `sim` does) unless asked for the
default one; `gc_seconds` and `gc_collections` (per generation) are measured inside the timed
runs through `gc.callbacks`, so the two settings can be compared however busy the machine is.

Memory is measured in a separate, untimed pass, because tracemalloc slows every allocation:
`peak_match_kib` is the peak of traced Python allocations during one match above what was
allocated before it started, the largest over the first few matches. `process_max_rss_kib` is
`resource.getrusage(RUSAGE_SELF).ru_maxrss` at the end: the whole process, imports included.
"""

from __future__ import annotations

import gc
import random
import sys
import time
import tracemalloc
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from gladiator.bots import make_bot
from gladiator.core.dice import Dice, Roll
from gladiator.core.match import Match
from gladiator.core.protocol import Ruleset
from gladiator.registry import get
from gladiator.sim.dicefloor import plan_of, time_floor
from gladiator.sim.gctune import tuned_gc
from gladiator.sim.machine import load_average, machine
from gladiator.sim.runner import default_bots, derive_seed

__all__ = ["PATHS", "SCHEMA_VERSION", "bench_bots", "machine", "run_bench"]

SCHEMA_VERSION = 2

PATHS = {
    "unchecked": "ruleset.apply(quiet=True) on orders the bots chose from ruleset.pending: "
    "the path `gladiator sim` plays",
    "checked": "Match.apply_step: each order validated, events built and kept, as served",
}

MEMORY_METHOD = (
    "tracemalloc, separate untimed pass: peak traced Python allocation during one match above "
    "what was allocated before it, the largest over the first matches"
)


@dataclass
class Tally:
    """What one timed run of matches did."""

    matches: int = 0
    decisions: int = 0
    dice_thrown: int = 0
    rolls_logged: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    bot_seconds: float = 0.0
    gc_seconds: float = 0.0
    collections: list[int] = field(default_factory=lambda: [0, 0, 0])
    logs: list[tuple[int, list[Roll]]] = field(default_factory=list)


# One match down one path: (ruleset, options, bot, seed, tally, keep_log) -> None.
Player = Callable[[Ruleset[Any], Mapping[str, Any], str, int, Tally, bool], None]


def _play_unchecked(
    ruleset: Ruleset[Any], options: Mapping[str, Any], bot: str, seed: int, t: Tally, keep: bool
) -> None:
    clock = time.perf_counter
    dice = Dice(seed)
    state, _ = ruleset.initial_state(options, dice)
    player = make_bot(bot)
    rng = random.Random(derive_seed(seed, "bots"))
    pending_of, apply, outcome_of, choose = (
        ruleset.pending,
        ruleset.apply,
        ruleset.outcome,
        player.choose,
    )
    in_bot = 0.0
    steps = 0
    while outcome_of(state) is None:
        pending = pending_of(state)
        b = clock()
        orders = {s: choose(ruleset, state, s, d, rng) for s, d in pending.items()}
        in_bot += clock() - b
        apply(state, orders, dice, quiet=True)
        steps += 1
    t.bot_seconds += in_bot
    t.decisions += steps
    t.dice_thrown += dice.thrown
    t.rolls_logged += dice.count
    if keep:
        t.logs.append((seed, dice.log))


def _play_checked(
    ruleset: Ruleset[Any], options: Mapping[str, Any], bot: str, seed: int, t: Tally, keep: bool
) -> None:
    clock = time.perf_counter
    m = Match(ruleset, options, seed=seed, nonce="")
    player = make_bot(bot)
    rng = random.Random(derive_seed(seed, "bots"))
    in_bot = 0.0
    while not m.finished:
        pending = m.pending()
        b = clock()
        orders = {s: player.choose(ruleset, m.state, s, d, rng) for s, d in pending.items()}
        in_bot += clock() - b
        m.apply_step(orders)
    t.bot_seconds += in_bot
    t.decisions += len(m.steps)
    t.dice_thrown += m.dice.thrown
    t.rolls_logged += m.dice.count
    if keep:
        t.logs.append((seed, m.dice.log))


_PLAYERS: dict[str, Player] = {"unchecked": _play_unchecked, "checked": _play_checked}


def _timed(
    paths: tuple[str, ...],
    ruleset: Ruleset[Any],
    options: Mapping[str, Any],
    bot: str,
    n: int,
    seed: int,
) -> dict[str, Tally]:
    """Play matches 0..n-1 down each path, in interleaved blocks (the order of the paths
    alternating from block to block), so that a machine growing busier or quieter halfway
    through weighs on every path alike, and so does a block's second visit finding the caches
    (the tactician's, the Colosseum's) warmed by its first."""
    tallies = {p: Tally(matches=n) for p in paths}
    current: list[Tally] = []
    gc_start = [0.0]

    def on_gc(phase: str, info: dict[str, int]) -> None:
        # The time inside collections, measured directly: what the collector settings change.
        if phase == "start":
            gc_start[0] = time.perf_counter()
        elif current:
            current[0].gc_seconds += time.perf_counter() - gc_start[0]
            current[0].collections[info["generation"]] += 1

    for p in paths:  # warm up: caches, lazy imports
        _PLAYERS[p](ruleset, options, bot, derive_seed(seed, "warm-up"), Tally(), False)
    # The dice floor re-throws the first matches' dice: a sample, because keeping every log
    # alive would give the collector more to walk in the very run being timed.
    keep = {p: _FLOOR_MATCHES if p == paths[0] else 0 for p in paths}
    size = max(1, -(-n // _BLOCKS))
    gc.callbacks.append(on_gc)
    try:
        for b, start in enumerate(range(0, n, size)):
            for p in paths if b % 2 == 0 else paths[::-1]:
                play, t = _PLAYERS[p], tallies[p]
                current[:] = [t]
                wall, cpu = time.perf_counter(), time.process_time()
                for i in range(start, min(start + size, n)):
                    play(ruleset, options, bot, derive_seed(seed, i), t, i < keep[p])
                t.seconds += time.perf_counter() - wall
                t.cpu_seconds += time.process_time() - cpu
                current.clear()
    finally:
        gc.callbacks.remove(on_gc)
    return tallies


_BLOCKS = 10
_FLOOR_MATCHES = 100


def _peak_kib(
    path: str, ruleset: Ruleset[Any], options: Mapping[str, Any], bot: str, n: int, seed: int
) -> float:
    play = _PLAYERS[path]
    peak = 0
    tracemalloc.start()
    try:
        for i in range(n):
            before = tracemalloc.get_traced_memory()[0]
            tracemalloc.reset_peak()
            play(ruleset, options, bot, derive_seed(seed, i), Tally(), False)
            peak = max(peak, tracemalloc.get_traced_memory()[1] - before)
    finally:
        tracemalloc.stop()
    return round(peak / 1024, 1)


def _max_rss_kib() -> int | None:
    try:
        import resource
    except ImportError:  # not on Windows
        return None
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss // 1024 if sys.platform == "darwin" else rss  # bytes on macOS, KiB elsewhere


def _rate(x: float, seconds: float, digits: int) -> float | None:
    return round(x / seconds, digits) if seconds > 0 else None


def _us_per(seconds: float, count: int) -> float | None:
    return round(seconds / count * 1e6, 3) if count else None


def _run_entry(bot: str, path: str, t: Tally, floor_us: float, peak_kib: float) -> dict[str, Any]:
    engine = t.seconds - t.bot_seconds
    engine_us = _us_per(engine, t.dice_thrown)
    return {
        "bot": bot,
        "path": path,
        "matches": t.matches,
        "decisions": t.decisions,
        "dice_thrown": t.dice_thrown,
        "rolls_logged": t.rolls_logged,
        "seconds": round(t.seconds, 4),
        "cpu_seconds": round(t.cpu_seconds, 4),
        "bot_seconds": round(t.bot_seconds, 4),
        "engine_seconds": round(engine, 4),
        "gc_seconds": round(t.gc_seconds, 4),
        "gc_collections": list(t.collections),
        "matches_per_second_per_core": _rate(t.matches, t.seconds, 2),
        "decisions_per_second": _rate(t.decisions, t.seconds, 1),
        "engine_us_per_die": engine_us,
        "total_us_per_die": _us_per(t.seconds, t.dice_thrown),
        "dice_floor_us_per_die": round(floor_us, 4),
        "engine_over_dice_floor": round(engine_us / floor_us, 1)
        if engine_us and floor_us > 0
        else None,
        "peak_match_kib": peak_kib,
    }


# Bots fast enough to bench over the full count; the look-ahead ones get a fifth of it.
_FAST = frozenset({"random", "tactician"})


def bench_bots(ruleset_name: str) -> tuple[str, ...]:
    """The generic bots, and the ruleset's own default bot where it has one (sim.runner)."""
    own = tuple(b for b in default_bots(ruleset_name) if b not in ("random", "greedy"))
    return ("random", "greedy", *own)


def run_bench(
    ruleset_name: str = "quick",
    matches: int = 500,
    seed: int = 1,
    bots: tuple[str, ...] | None = None,
    options: Mapping[str, Any] | None = None,
    *,
    tune_gc: bool = True,
    paths: tuple[str, ...] = ("unchecked", "checked"),
    floor_window: float = 1.0,
    memory_matches: int = 10,
) -> dict[str, Any]:
    if not paths:
        raise ValueError("no path to bench")
    for p in paths:
        if p not in PATHS:
            raise ValueError(f"unknown path {p!r}; known: {', '.join(PATHS)}")
    ruleset = get(ruleset_name)
    opts = ruleset.normalise_options(options or {})
    load_before = load_average()
    runs = []
    floors: dict[str, dict[str, Any]] = {}
    for bot in bots if bots is not None else bench_bots(ruleset_name):
        n = matches if bot in _FAST else max(1, matches // 5)
        with tuned_gc(enabled=tune_gc) as gc_used:  # the same settings for every bot
            tallies = _timed(paths, ruleset, opts, bot, n, seed)
        logs = tallies[paths[0]].logs
        floor = time_floor(plan_of(logs), window=floor_window)
        floors[bot] = {
            "us_per_die": round(floor.us_per_die, 4),
            "dice_per_pass": floor.dice_per_pass,
            "passes": floor.passes,
            "window_seconds": round(floor.window_seconds, 3),
        }
        for path, t in tallies.items():
            t.logs.clear()
            peak = _peak_kib(path, ruleset, opts, bot, min(n, memory_matches), seed)
            runs.append(_run_entry(bot, path, t, floor.us_per_die, peak))
    return {
        "schema": "gladiator.bench",
        "schema_version": SCHEMA_VERSION,
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "ruleset": ruleset_name,
        "options": dict(opts),
        "seed": seed,
        "machine": machine(),
        "load_average": {"before": load_before, "after": load_average()},
        "argv": sys.argv[1:],
        "paths": {p: PATHS[p] for p in paths},
        "gc": {"tuned": tune_gc, **gc_used},
        "dice_floor": {
            "method": "each match's logged rolls re-thrown through a fresh recording Dice, "
            "collector off, median pass of a long window (sim.dicefloor)",
            "by_bot": floors,
        },
        "memory": {"method": MEMORY_METHOD, "process_max_rss_kib": _max_rss_kib()},
        "runs": runs,
        "summary": _summary(runs),
    }


def _summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Checked over unchecked time per bot: what the checking and the events cost."""
    by = {(r["bot"], r["path"]): r for r in runs}
    out: dict[str, Any] = {}
    for bot in dict.fromkeys(r["bot"] for r in runs):
        u, c = by.get((bot, "unchecked")), by.get((bot, "checked"))
        if u and c and u["seconds"] > 0:
            out[bot] = {"checked_over_unchecked_seconds": round(c["seconds"] / u["seconds"], 3)}
    return out
