"""The skirmish balance study: the one-exchange equilibrium, and bots that always play the same
attack against a bot that mixes its written moves by that equilibrium.

Both bots are protocol-only (`gladiator.bots.fixed_mix`); the matches are Thracian against
Thracian, starting face to face (option `start = "engaged"`), seats alternating.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from gladiator.bots.fixed_mix import FixedBot, MixedBot
from gladiator.core.match import Match
from gladiator.registry import get
from gladiator.rules.skirmish import analysis
from gladiator.sim.report import wilson
from gladiator.sim.runner import derive_seed

__all__ = ["FALLBACKS", "equilibrium_weights", "fixed_vs_mixed", "study"]

# What an "always the same attack" player writes when his attack is barred (by its own
# prohibition or a stun turn): a fallback that does not bar the attack again next turn.
FALLBACKS: dict[str, list[str]] = {
    "SL": ["SH", "PA"],
    "CU": ["SH", "PA"],
    "LU": ["CU", "PA", "SH"],
    "SS": ["PA", "SH"],
    "KI": ["CU", "PA", "SH"],
}
OPTIONS = {"gladiators": ["thracian", "thracian"], "start": "engaged"}


def equilibrium_weights() -> dict[str, float]:
    """The equilibrium mix of written moves, with the guards as a tie-break for stun turns."""
    mix = {m: p for m, p in analysis.report()["mix"].items() if p >= 1e-3}
    mix.update({"PA": 1e-6, "SH": 1e-6})
    return mix


def _play(attack: str, weights: dict[str, float], seed: int, indices: Sequence[int]) -> list[str]:
    rules = get("skirmish")
    out = []
    for i in indices:
        s = derive_seed(seed, attack, i)
        m = Match(rules, OPTIONS, seed=s, nonce="")
        fixed_seat = m.seats[i % 2]
        fixed = FixedBot([attack, *FALLBACKS[attack], "ST", "FIRST", "KEEP"])
        mixed = MixedBot(weights, plans_only=True)
        rng = random.Random(derive_seed(s, "bots"))
        while not m.finished:
            pending = m.pending()
            m.apply_step(
                {
                    seat: (fixed if seat == fixed_seat else mixed).choose(
                        rules, m.state, seat, d, rng
                    )
                    for seat, d in pending.items()
                }
            )
        winners = m.outcome.winners if m.outcome else ()
        out.append("draw" if not winners else "fixed" if fixed_seat in winners else "mixed")
    return out


def fixed_vs_mixed(
    attack: str,
    matches: int,
    seed: int = 1,
    jobs: int = 1,
    on_progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """The mixing bot's record against a bot that always writes `attack`."""
    weights = equilibrium_weights()
    size = 250
    chunks = [list(range(a, min(a + size, matches))) for a in range(0, matches, size)]
    results: list[str] = []
    if jobs <= 1:
        for c in chunks:
            results += _play(attack, weights, seed, c)
            if on_progress:
                on_progress(len(c))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for part in pool.map(
                _play, [attack] * len(chunks), [weights] * len(chunks), [seed] * len(chunks), chunks
            ):
                results += part
                if on_progress:
                    on_progress(len(part))
    mixed = results.count("mixed")
    lo, hi = wilson(mixed, matches)
    return {
        "fixed_attack": attack,
        "matches": matches,
        "mixed_wins": mixed,
        "fixed_wins": results.count("fixed"),
        "draws": results.count("draw"),
        "mixed_win_rate": mixed / matches,
        "ci95": [lo, hi],
    }


def study(
    matches: int,
    seed: int = 1,
    jobs: int = 1,
    attacks: Sequence[str] = ("SL", "CU", "LU", "SS", "KI"),
    on_progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    report = analysis.report()
    return {
        "equilibrium": {m: round(p, 4) for m, p in report["mix"].items() if p >= 1e-3},
        "support": report["support"],
        "value": report["value"],
        "exploitability": report["exploitability"],
        "pure_vs_mix": report["against_mix"],
        "experiments": [fixed_vs_mixed(a, matches, seed, jobs, on_progress) for a in attacks],
    }
