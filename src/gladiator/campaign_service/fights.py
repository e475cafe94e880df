"""Playing one campaign fight with bots, in this process, to its campaign report.

A fight's seed is derived from the campaign's seed, the bout and the fight's number, and the bots'
own dice from the fight's seed (as `sim` does), so the same campaign plays the same fights again:
a campaign resumed after a crash replays an interrupted fight exactly.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gladiator.bots import make_bot
from gladiator.core.dice import Dice
from gladiator.registry import get
from gladiator.sim.runner import derive_seed

__all__ = ["FightResult", "fight_seed", "play_fight"]

RULESET = "colosseum"


@dataclass(frozen=True)
class FightResult:
    seed: int
    report: dict[str, Any]
    winners: tuple[str, ...]
    method: str
    steps: int


def fight_seed(campaign_seed: int, bout: str, index: int) -> int:
    return derive_seed(campaign_seed, "fight", bout, index)


def play_fight(options: Mapping[str, Any], seed: int, bot: str = "tactician") -> FightResult:
    """Every seat that decides is played by `bot` (a beast seat has no decisions: the engine
    plays it, §28)."""
    ruleset: Any = get(RULESET)
    opts = ruleset.normalise_options(options)
    dice = Dice(seed)
    state, _ = ruleset.initial_state(opts, dice)
    players = {s: make_bot(bot) for s in ruleset.seats(opts)}
    rng = random.Random(derive_seed(seed, "bots"))
    steps = 0
    while (outcome := ruleset.outcome(state)) is None:
        pending = ruleset.pending(state)
        if not pending:
            raise RuntimeError("a campaign fight has no seat to decide, yet no outcome")
        orders = {s: players[s].choose(ruleset, state, s, d, rng) for s, d in pending.items()}
        ruleset.apply(state, orders, dice, quiet=True)
        steps += 1
    return FightResult(
        seed=seed,
        report=ruleset.campaign_report(state),
        winners=tuple(outcome.winners),
        method=outcome.method,
        steps=steps,
    )
