"""The benchmark: matches per second on one core, and engine time over the dice floor.

The dice floor is the time to draw, through the same `Dice` object and with the same logging, as
many dice as the matches drew. The ratio says how much work the engine does per die thrown.
"""

from __future__ import annotations

import os
import platform
import random
import sys
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from gladiator.bots import make_bot
from gladiator.core.dice import Dice
from gladiator.core.match import Match
from gladiator.registry import get
from gladiator.sim.runner import default_bots, derive_seed

__all__ = ["bench_bots", "machine", "run_bench"]


def machine() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "system": platform.system(),
        "release": platform.release(),
        "machine": platform.machine(),
        "processor": _cpu_model(),
        "cpus": os.cpu_count(),
    }


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _time_matches(
    ruleset_name: str, options: Mapping[str, Any], bot: str, matches: int, seed: int
) -> tuple[float, int, int]:
    ruleset = get(ruleset_name)
    dice_total = 0
    steps = 0
    start = time.perf_counter()
    for i in range(matches):
        s = derive_seed(seed, i)
        m = Match(ruleset, options, seed=s, nonce="")
        player = make_bot(bot)
        rng = random.Random(derive_seed(s, "bots"))
        while not m.finished:
            pending = m.pending()
            m.apply_step(
                {seat: player.choose(ruleset, m.state, seat, d, rng) for seat, d in pending.items()}
            )
        dice_total += m.dice.count
        steps += len(m.steps)
    return time.perf_counter() - start, dice_total, steps


def _dice_floor(count: int, seed: int) -> float:
    dice = Dice(seed)
    d = dice.d
    start = time.perf_counter()
    for _ in range(count):
        d(6, "bench", "bench")
    return time.perf_counter() - start


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
) -> dict[str, Any]:
    opts = get(ruleset_name).normalise_options(options or {})
    runs = []
    for bot in bots if bots is not None else bench_bots(ruleset_name):
        n = matches if bot in _FAST else max(1, matches // 5)
        elapsed, dice_count, steps = _time_matches(ruleset_name, opts, bot, n, seed)
        floor = _dice_floor(dice_count, seed)
        runs.append(
            {
                "bot": bot,
                "matches": n,
                "seconds": round(elapsed, 4),
                "matches_per_second_per_core": round(n / elapsed, 2),
                "decisions_per_second": round(steps / elapsed, 1),
                "dice_drawn": dice_count,
                "dice_floor_seconds": round(floor, 5),
                "engine_over_dice_floor": round(elapsed / floor, 1) if floor > 0 else None,
            }
        )
    return {
        "schema": "gladiator.bench",
        "schema_version": 1,
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "ruleset": ruleset_name,
        "options": dict(opts),
        "seed": seed,
        "machine": machine(),
        "argv": sys.argv[1:],
        "runs": runs,
    }
