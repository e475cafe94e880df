"""How strong the search bot is: paired matches against another bot, seats swapped.

Each seed is played twice, the search bot on each seat in turn (the same dice stream and
characteristics), one match at a time in this process so that the CPU seconds each decision
takes (time.process_time) are honest. The result, with the machine's details, is written as
JSON: win rate with its Wilson 95% interval, the rate of decisive matches, and the mean and
largest CPU seconds of the search bot's decisions.

    uv run python -P src/gladiator/sim/search_eval.py --ruleset colosseum --against tactician \
        --seeds 20 --budget 1.0 --out docs/ai/search-colosseum.json
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gladiator.bots import make_bot
from gladiator.bots.base import Bot
from gladiator.bots.smmcts import SearchBot
from gladiator.core.dice import Dice
from gladiator.registry import get
from gladiator.sim.machine import load_average, machine
from gladiator.sim.report import wilson
from gladiator.sim.runner import derive_seed

__all__ = ["evaluate", "main", "play_timed"]


def play_timed(
    ruleset_name: str,
    options: Mapping[str, Any],
    seed: int,
    players: Mapping[str, Bot],
    timed: str,
    budget: float | None,
) -> tuple[tuple[str, ...], list[float], int]:
    """One match; the winners, the CPU seconds of each decision of seat `timed`, and the steps."""
    ruleset = get(ruleset_name)
    opts = ruleset.normalise_options(options)
    dice = Dice(seed, recording=False)
    state, _ = ruleset.initial_state(opts, dice)
    rng = random.Random(derive_seed(seed, "bots"))
    times: list[float] = []
    steps = 0
    while (outcome := ruleset.outcome(state)) is None:
        orders = {}
        for s, d in ruleset.pending(state).items():
            t0 = time.process_time()
            orders[s] = players[s].choose(ruleset, state, s, d, rng, budget=budget)
            if s == timed:
                times.append(time.process_time() - t0)
        ruleset.apply(state, orders, dice, quiet=True)
        steps += 1
    return outcome.winners, times, steps


def evaluate(
    ruleset_name: str,
    against: str,
    seeds: int,
    budget: float | None,
    options: Mapping[str, Any] | None = None,
    seed: int = 1,
    search_options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    ruleset = get(ruleset_name)
    opts = ruleset.normalise_options(options or {})
    seats = ruleset.seats(opts)
    if len(seats) != 2:
        raise ValueError("the evaluation plays two-seat matches")
    wins = losses = draws = 0
    times: list[float] = []
    matches = []
    started = time.process_time()
    for i in range(seeds):
        match_seed = derive_seed(seed, i)
        for mine in seats:
            other = next(s for s in seats if s != mine)
            players: dict[str, Bot] = {
                mine: SearchBot(budget, **dict(search_options or {})),
                other: make_bot(against),
            }
            winners, t, steps = play_timed(ruleset_name, opts, match_seed, players, mine, budget)
            times.extend(t)
            result = "win" if mine in winners else "draw" if not winners else "loss"
            wins += result == "win"
            losses += result == "loss"
            draws += result == "draw"
            matches.append(
                {"seed": match_seed, "search_seat": mine, "result": result, "steps": steps}
            )
    n = wins + losses + draws
    lo, hi = wilson(wins, n)
    decisive = wins + losses
    dlo, dhi = wilson(wins, decisive)
    return {
        "ruleset": ruleset_name,
        "options": opts,
        "against": against,
        "budget": budget,
        "search_options": dict(search_options or {}),
        "seed": seed,
        "matches": n,
        "wins": wins,
        "losses": losses,
        "draws": draws,
        "win_rate": wins / n if n else 0.0,
        "win_rate_ci95": [lo, hi],
        "decisive_rate": decisive / n if n else 0.0,
        "win_rate_of_decisive": wins / decisive if decisive else 0.0,
        "win_rate_of_decisive_ci95": [dlo, dhi],
        "decisions": len(times),
        "cpu_per_decision_mean": sum(times) / len(times) if times else 0.0,
        "cpu_per_decision_max": max(times) if times else 0.0,
        "cpu_seconds_total": time.process_time() - started,
        "per_match": matches,
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ruleset", default="colosseum")
    ap.add_argument("--against", action="append", required=True)
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--budget", type=float, default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--set", action="append", default=[], help="a search option, name=value")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    search_options: dict[str, Any] = {}
    for item in args.set:
        name, _, value = item.partition("=")
        search_options[name] = json.loads(value)
    runs = [
        evaluate(args.ruleset, a, args.seeds, args.budget, None, args.seed, search_options)
        for a in args.against
    ]
    report = {
        "schema": "gladiator.search-eval",
        "version": 1,
        "machine": machine(),
        "load_average": load_average(),
        "runs": runs,
    }
    for r in runs:
        print(
            f"{r['ruleset']} vs {r['against']}: {r['wins']}-{r['losses']}-{r['draws']} "
            f"win {r['win_rate']:.3f} "
            f"ci [{r['win_rate_ci95'][0]:.3f}, {r['win_rate_ci95'][1]:.3f}] "
            f"decisive {r['decisive_rate']:.2f} cpu mean {r['cpu_per_decision_mean']:.3f} "
            f"max {r['cpu_per_decision_max']:.3f} total {r['cpu_seconds_total']:.0f}s"
        )
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
