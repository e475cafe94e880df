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
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gladiator.bots import make_bot
from gladiator.bots.base import Bot
from gladiator.bots.search_config import config_for
from gladiator.bots.smmcts import SearchBot
from gladiator.core.dice import Dice
from gladiator.registry import get
from gladiator.sim.gctune import tuned_gc
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
    kinds: list[str] | None = None,
) -> tuple[tuple[str, ...], list[float], int]:
    """One match; the winners, the CPU seconds of each decision of seat `timed`, and the steps
    (and, into `kinds`, the kind of each of those decisions)."""
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
                if kinds is not None:
                    kinds.append(type(d).__name__)
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
    solitaire: bool | None = None,
    bot: str = "search",
) -> dict[str, Any]:
    """`solitaire`: seat the opponent as a §29.3 solitaire seat (the Colosseum option
    `solitaire`: he plots after the other's plot is revealed); None: when he is the centurion,
    the §29 bot that is written for it. `bot`: the bot measured (`search`, or another for a
    baseline on the same seeds)."""
    ruleset = get(ruleset_name)
    opts = ruleset.normalise_options(options or {})
    seats = ruleset.seats(opts)
    if solitaire is None:
        solitaire = ruleset_name == "colosseum" and against == "centurion"
    if len(seats) != 2:
        raise ValueError("the evaluation plays two-seat matches")
    wins = losses = draws = 0
    times: list[float] = []
    kinds: list[str] = []
    matches = []
    started = time.process_time()
    for i in range(seeds):
        match_seed = derive_seed(seed, i)
        for mine in seats:
            other = next(s for s in seats if s != mine)
            me = (
                SearchBot(budget, **dict(search_options or {}))
                if bot == "search"
                else make_bot(bot)
            )
            players: dict[str, Bot] = {mine: me, other: make_bot(against)}
            match_opts = {**opts, "solitaire": [other]} if solitaire else opts
            winners, t, steps = play_timed(
                ruleset_name, match_opts, match_seed, players, mine, budget, kinds
            )
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
        "bot": bot,
        "against": against,
        "solitaire_opponent": bool(solitaire),
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
        "cpu_per_decision_p95": sorted(times)[int(0.95 * (len(times) - 1))] if times else 0.0,
        "cpu_per_decision_by_kind": {
            k: {
                "decisions": len(ts),
                "mean": sum(ts) / len(ts),
                "max": max(ts),
            }
            for k in sorted(set(kinds))
            if (ts := [t for t, kk in zip(times, kinds, strict=True) if kk == k])
        },
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
    ap.add_argument("--bot", default="search", help="the bot measured (a baseline: tactician)")
    ap.add_argument(
        "--no-solitaire",
        action="store_true",
        help="seat the centurion as a plain simultaneous player, not under §29.3",
    )
    ap.add_argument("--set", action="append", default=[], help="a search option, name=value")
    ap.add_argument(
        "--gc",
        choices=("tuned", "default"),
        default="tuned",
        help="the garbage collector: tuned as the ladder runs it (sim/gctune.py), or default",
    )
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    search_options: dict[str, Any] = {}
    for item in args.set:
        name, _, value = item.partition("=")
        try:
            search_options[name] = json.loads(value)
        except json.JSONDecodeError:
            ap.error(f"--set {item}: the value is not JSON (a string needs quotes: name='\"x\"')")
    try:
        config_for(args.ruleset).with_options(**search_options)
    except (TypeError, ValueError) as exc:
        ap.error(f"--set: {exc}")
    # Tuned as in the ladder: a default full collection (~0.1 s here) landing in a decision
    # pushed the slowest past the 1 s budget (MC13).
    with tuned_gc(enabled=args.gc == "tuned") as gc_info:
        runs = [
            evaluate(
                args.ruleset,
                a,
                args.seeds,
                args.budget,
                None,
                args.seed,
                search_options,
                solitaire=False if args.no_solitaire else None,
                bot=args.bot,
            )
            for a in args.against
        ]
    report = {
        "schema": "gladiator.search-eval",
        "version": 1,
        "command": " ".join(
            ["python -P src/gladiator/sim/search_eval.py", *(argv or sys.argv[1:])]
        ),
        "machine": machine(),
        "load_average": load_average(),
        "gc": {"mode": args.gc, **gc_info},
        "runs": runs,
    }
    for r in runs:
        print(
            f"{r['ruleset']} {r['bot']} vs {r['against']}: {r['wins']}-{r['losses']}-{r['draws']} "
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
