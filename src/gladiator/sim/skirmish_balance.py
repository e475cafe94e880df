"""The skirmish balance study: the one-exchange equilibrium, and bots that always play the same
attack against a bot that mixes its written moves by that equilibrium.

Both bots are protocol-only (`gladiator.bots.fixed_mix`); the matches are Thracian against
Thracian, starting face to face (option `start = "engaged"`), seats alternating.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from typing import Any

from gladiator.bots.base import Bot
from gladiator.bots.fixed_mix import FixedBot, MixedBot
from gladiator.core.decisions import Decision
from gladiator.core.match import Match
from gladiator.core.protocol import Ruleset
from gladiator.registry import get
from gladiator.rules.skirmish import analysis
from gladiator.sim.report import wilson
from gladiator.sim.runner import derive_seed

__all__ = ["FALLBACKS", "LearningBot", "equilibrium_weights", "fixed_vs_mixed", "study"]

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
STAY_AWAY = frozenset({"RU", "RE", "SP"})


@cache
def _report() -> dict[str, Any]:
    """The one-exchange analysis (regret matching: worth computing once per process)."""
    return analysis.report()


def equilibrium_weights() -> dict[str, float]:
    """The equilibrium mix of written moves, with the guards as a tie-break for stun turns."""
    mix = {m: p for m, p in _report()["mix"].items() if p >= 1e-3}
    mix.update({"PA": 1e-6, "SH": 1e-6})
    return mix


class LearningBot(Bot):
    """A mixing player who learns: it counts the moves its opponent was seen to perform (public,
    turn by turn, through the view), starting from the equilibrium as a prior, and writes moves
    with probability rising with their expected payoff against that estimate (a smoothed
    fictitious play). Open decisions take the first legal order, as written."""

    name = "learning"

    def __init__(self, temperature: float = 0.25, prior: float = 3.0) -> None:
        report = _report()
        self.moves: list[str] = list(report["moves"])
        self.payoff: list[list[float]] = report["payoff"]
        self.counts = {m: prior * p for m, p in report["mix"].items()}
        self.temperature = temperature
        self.seen_turn = 0

    def choose(
        self,
        ruleset: Ruleset[Any],
        state: Any,
        seat: str,
        decision: Decision,
        rng: random.Random,
        *,
        budget: float | None = None,
    ) -> str:
        legal = decision.legal() or [decision.sample(rng)]
        if not decision.secret:
            return legal[0]
        view = ruleset.view(state, seat)
        if view["turn"] != self.seen_turn:
            self.seen_turn = view["turn"]
            for f in view["fighters"]:
                if f["seat"] != seat and f["last_performed"] in self.counts:
                    self.counts[f["last_performed"]] += 1.0
        total = sum(self.counts.values())
        q = [self.counts.get(m, 0.0) / total for m in self.moves]
        scores = {}
        for order in legal:
            # It holds its ground: nobody in this study closes again once he steps away.
            if order in self.moves and order not in STAY_AWAY:
                row = self.payoff[self.moves.index(order)]
                scores[order] = sum(p * x for p, x in zip(row, q, strict=True))
        if not scores:
            return legal[0]
        top = max(scores.values())
        weights = {o: math.exp((v - top) / self.temperature) for o, v in scores.items()}
        x = rng.random() * sum(weights.values())
        for order, w in weights.items():
            x -= w
            if x <= 0:
                return order
        return max(weights, key=weights.__getitem__)


def _play(
    attack: str, weights: dict[str, float], seed: int, indices: Sequence[int], learner: bool
) -> list[str]:
    rules = get("skirmish")
    out = []
    for i in indices:
        s = derive_seed(seed, attack, i)
        m = Match(rules, OPTIONS, seed=s, nonce="")
        fixed_seat = m.seats[i % 2]
        fixed = FixedBot([attack, *FALLBACKS[attack], "ST", "FIRST", "KEEP"])
        mixed: Bot = LearningBot() if learner else MixedBot(weights, plans_only=True)
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
    *,
    learner: bool = False,
) -> dict[str, Any]:
    """The mixing bot's record (the equilibrium mixer, or with `learner` the learning mixer)
    against a bot that always writes `attack`."""
    weights = equilibrium_weights()
    size = 250
    chunks = [list(range(a, min(a + size, matches))) for a in range(0, matches, size)]
    results: list[str] = []
    if jobs <= 1:
        for c in chunks:
            results += _play(attack, weights, seed, c, learner)
            if on_progress:
                on_progress(len(c))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            n = len(chunks)
            for part in pool.map(
                _play, [attack] * n, [weights] * n, [seed] * n, chunks, [learner] * n
            ):
                results += part
                if on_progress:
                    on_progress(len(part))
    mixed = results.count("mixed")
    lo, hi = wilson(mixed, matches)
    return {
        "mixer": "learning" if learner else "equilibrium",
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
    report = _report()
    return {
        "equilibrium": {m: round(p, 4) for m, p in report["mix"].items() if p >= 1e-3},
        "support": report["support"],
        "value": report["value"],
        "exploitability": report["exploitability"],
        "pure_vs_mix": report["against_mix"],
        "experiments": [
            fixed_vs_mixed(a, matches, seed, jobs, on_progress, learner=learner)
            for learner in (False, True)
            for a in attacks
        ],
    }
