"""Win rates of one bot against another over fixed seeds, the seats alternating so that neither
side keeps the first move (PP2)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from gladiator.bots.base import Bot
from gladiator.core.dice import Dice
from gladiator.registry import get
from gladiator.sim.report import wilson
from gladiator.sim.runner import derive_seed

__all__ = ["Score", "evaluate"]


@dataclass(frozen=True)
class Score:
    matches: int
    wins: int
    draws: int
    losses: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.matches if self.matches else 0.0

    def to_dict(self) -> dict[str, Any]:
        lo, hi = wilson(self.wins, self.matches)
        return {
            "matches": self.matches,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "win_rate": self.win_rate,
            "ci95": [lo, hi],
        }


def evaluate(
    ruleset_name: str,
    options: Mapping[str, Any],
    agent: Callable[[], Bot],
    opponent: Callable[[], Bot],
    matches: int,
    seed: int,
) -> Score:
    """`matches` two-seat matches; match i is played from seed derive_seed(seed, i), with the
    agent in the first seat when i is even and in the second when odd."""
    ruleset = get(ruleset_name)
    opts = ruleset.normalise_options(dict(options))
    seats = ruleset.seats(opts)
    if len(seats) != 2:
        raise ValueError(f"evaluation is for two seats, not {len(seats)}")
    wins = draws = 0
    me_bot, other_bot = agent(), opponent()
    for i in range(matches):
        match_seed = derive_seed(seed, i)
        me = seats[i % 2]
        players = {s: me_bot if s == me else other_bot for s in seats}
        dice = Dice(match_seed, recording=False)
        state, _ = ruleset.initial_state(opts, dice)
        rng = random.Random(derive_seed(match_seed, "bots"))
        while (outcome := ruleset.outcome(state)) is None:
            pending = ruleset.pending(state)
            orders = {s: players[s].choose(ruleset, state, s, d, rng) for s, d in pending.items()}
            ruleset.apply(state, orders, dice, quiet=True)
        if me in outcome.winners:
            wins += 1
        elif not outcome.winners:
            draws += 1
    return Score(matches, wins, draws, matches - wins - draws)
