"""The greedy bot: one step of look-ahead through the protocol, scored by the ruleset's heuristic.

For each legal order it applies the order to a copy of the state with dice of its own (a few
samples, since the order may call for rolls), plays on at random for as many decisions as the
ruleset's `lookahead()` asks (to the end of the turn at most), and keeps the order with the best
mean score. Other seats of a simultaneous decision are assumed to choose at random.
"""

from __future__ import annotations

import random
from typing import Any

from gladiator.bots.base import Bot
from gladiator.core.decisions import Decision
from gladiator.core.dice import Dice
from gladiator.core.protocol import Ruleset

__all__ = ["GreedyBot"]


class GreedyBot(Bot):
    name = "greedy"

    def __init__(self, samples: int = 3, max_options: int = 64) -> None:
        self.samples = samples
        self.max_options = max_options

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
        options = decision.legal(self.max_options)
        if options is None:
            options = [decision.sample(rng) for _ in range(self.max_options)]
        if len(options) == 1:
            return options[0]
        pending = ruleset.pending(state)
        horizon = ruleset.lookahead()
        best, best_score = options[0], float("-inf")
        for order in options:
            total = 0.0
            for _ in range(self.samples):
                # Never the true state: another seat's secrets are drawn afresh.
                trial = ruleset.determinize(state, seat, rng)
                dice = Dice(rng.getrandbits(63), recording=False)
                orders = {s: d.sample(rng) for s, d in pending.items() if s != seat}
                orders[seat] = order
                ruleset.apply(trial, orders, dice, quiet=True)
                self._play_out(ruleset, trial, horizon, rng, dice)
                total += ruleset.heuristic(trial, seat)
            score = total / self.samples
            if score > best_score:
                best, best_score = order, score
        return best

    @staticmethod
    def _play_out(
        ruleset: Ruleset[Any], state: Any, horizon: int, rng: random.Random, dice: Dice
    ) -> None:
        """Random orders for up to `horizon` decisions, stopping when the turn or round ends."""
        start = ruleset.rounds(state)
        for _ in range(horizon):
            pending = ruleset.pending(state)
            if not pending or ruleset.rounds(state) != start:
                return
            ruleset.apply(state, {s: d.sample(rng) for s, d in pending.items()}, dice, quiet=True)
