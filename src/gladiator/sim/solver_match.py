"""The solver bot against the tactician in Colosseum Basic Game matches (issue #12): paired
seeds, each seed played twice with the seats swapped, so seat and dice luck fall on both alike;
the solver's win rate with its Wilson interval, the decisive-game rate, and the CPU time of each
allocation decision the solver made."""

from __future__ import annotations

import random
import statistics
import time
from datetime import UTC, datetime
from typing import Any

from gladiator.bots.solver_bot import SolverBot
from gladiator.bots.tactician.bot import TacticianBot
from gladiator.core.dice import Dice
from gladiator.registry import get
from gladiator.sim.machine import load_average, machine
from gladiator.sim.report import wilson
from gladiator.sim.runner import derive_seed

__all__ = ["SCHEMA_VERSION", "play", "run"]

SCHEMA_VERSION = 1


class _Timed(SolverBot):
    """The solver bot, timing the decisions it solves."""

    def __init__(self) -> None:
        super().__init__()
        self.times: list[float] = []

    def choose(
        self, ruleset: Any, state: Any, seat: str, decision: Any, rng: Any, **kw: Any
    ) -> str:
        from gladiator.bots.allocation_solver import modelled

        if not modelled(ruleset, state, seat, decision):
            return super().choose(ruleset, state, seat, decision, rng, **kw)
        t = time.process_time()
        order = super().choose(ruleset, state, seat, decision, rng, **kw)
        self.times.append(time.process_time() - t)
        return order


def play(seed: int, solver_seat: int, timed: _Timed) -> tuple[str | None, str]:
    """One match; (the winner's bot name or None for no winner, how it ended)."""
    rules = get("colosseum")
    opts = rules.normalise_options({})
    seats = rules.seats(opts)
    dice = Dice(seed)
    state, _ = rules.initial_state(opts, dice)
    bots = {s: (timed if i == solver_seat else TacticianBot()) for i, s in enumerate(seats)}
    rng = random.Random(derive_seed(seed, "bots"))
    while (outcome := rules.outcome(state)) is None:
        pending = rules.pending(state)
        orders = {s: bots[s].choose(rules, state, s, d, rng) for s, d in pending.items()}
        rules.apply(state, orders, dice, quiet=True)
    if not outcome.winners:
        return None, outcome.method
    return ("solver" if outcome.winners[0] == seats[solver_seat] else "tactician"), outcome.method


def run(pairs: int, seed: int) -> dict[str, Any]:
    load_before = load_average()
    t0 = time.process_time()
    timed = _Timed()
    wins = losses = draws = 0
    methods: dict[str, int] = {}
    for i in range(pairs):
        s = derive_seed(seed, "solver-match", i)
        for seat in (0, 1):
            winner, method = play(s, seat, timed)
            methods[method] = methods.get(method, 0) + 1
            if winner == "solver":
                wins += 1
            elif winner == "tactician":
                losses += 1
            else:
                draws += 1
    n = wins + losses + draws
    decisive = wins + losses
    times = sorted(timed.times)
    return {
        "schema": SCHEMA_VERSION,
        "what": "solver vs tactician, Colosseum Basic Game, paired seeds, seats swapped",
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "seed": seed,
        "pairs": pairs,
        "matches": n,
        "solver_wins": wins,
        "tactician_wins": losses,
        "no_winner": draws,
        "solver_win_rate": wins / n if n else 0.0,
        "solver_win_rate_wilson95": list(wilson(wins, n)),
        "decisive_rate": decisive / n if n else 0.0,
        "solver_win_rate_decisive": wins / decisive if decisive else 0.0,
        "solver_win_rate_decisive_wilson95": list(wilson(wins, decisive)),
        "methods": methods,
        "solver_decisions": len(times),
        "decision_cpu_s": {
            "mean": statistics.fmean(times) if times else 0.0,
            "median": statistics.median(times) if times else 0.0,
            "p95": times[int(0.95 * (len(times) - 1))] if times else 0.0,
            "max": times[-1] if times else 0.0,
        },
        "cpu_s": time.process_time() - t0,
        "machine": machine(),
        "load_average": {"before": load_before, "after": load_average()},
    }
