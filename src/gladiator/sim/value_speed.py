"""How long `value(state, seat)` takes (rules/colosseum/evaluation/value.py), for the fit report.

Positions come from seeded random-legal Colosseum matches (Basic and Advanced), cloned at each
decision; every one is valued for both seats, the whole set several times over, and the best
repetition's mean CPU time per call is reported with the median (CPU time, not wall time:
the machines these run on are shared, and a busy one inflates wall time many times over).
The first pass over a position fills the log-sheet cache as a search's first visit would, so
`first_pass_us` is reported too.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from gladiator.core.dice import Dice
from gladiator.registry import get
from gladiator.rules.colosseum.evaluation.value import ValueWeights, value
from gladiator.rules.colosseum.evaluation.value_features import _SHEET_CACHE
from gladiator.rules.colosseum.state import ColosseumState
from gladiator.sim.machine import load_average
from gladiator.sim.runner import derive_seed

__all__ = ["sample_states", "time_value"]


def sample_states(seed: int, matches: int) -> list[ColosseumState]:
    """Every decision point of `matches` random-legal matches, half of them Advanced."""
    rules = get("colosseum")
    out: list[ColosseumState] = []
    for i in range(matches):
        s = derive_seed(seed, "value-speed", i)
        dice = Dice(s, recording=False)
        options = rules.normalise_options({"advanced": bool(i % 2)})
        state, _ = rules.initial_state(options, dice)
        rng = random.Random(s)
        while rules.outcome(state) is None:
            out.append(state.clone())
            pending = rules.pending(state)
            rules.apply(state, {k: d.sample(rng) for k, d in pending.items()}, dice, quiet=True)
    return out


def time_value(
    weights: ValueWeights | None = None, seed: int = 1, matches: int = 20, reps: int = 5
) -> dict[str, Any]:
    """Microseconds per `value` call (`weights`: the packaged ones if None)."""
    states = sample_states(seed, matches)
    calls = 2 * len(states)
    _SHEET_CACHE.clear()
    t0 = time.process_time()
    for st in states:
        value(st, "red", weights)
        value(st, "blue", weights)
    first = (time.process_time() - t0) / calls * 1e6
    per_call: list[float] = []
    for _ in range(reps):
        t0 = time.process_time()
        for st in states:
            value(st, "red", weights)
            value(st, "blue", weights)
        per_call.append((time.process_time() - t0) / calls * 1e6)
    return {
        "positions": len(states),
        "calls_per_rep": calls,
        "reps": reps,
        "first_pass_us": round(first, 2),
        "best_us": round(min(per_call), 2),
        "median_us": round(statistics.median(per_call), 2),
        "clock": "process_time",
        "load_average": load_average(),
    }
