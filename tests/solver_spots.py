"""Allocation spots for the solver's tests: the modelled §9.3 allocations that a seeded
tactician-vs-tactician Colosseum Basic Game match reaches."""

from __future__ import annotations

import random

from gladiator.bots.allocation_solver import modelled
from gladiator.bots.tactician.bot import TacticianBot
from gladiator.core.decisions import Distribute
from gladiator.core.dice import Dice
from gladiator.registry import get
from gladiator.rules.colosseum.state import ColosseumState

Spot = tuple[ColosseumState, str, Distribute]


def spots(seed: int, limit: int) -> list[Spot]:
    """Up to `limit` spots (a copy of the state, the seat deciding, his decision)."""
    rules = get("colosseum")
    opts = rules.normalise_options({})
    dice = Dice(seed)
    state, _ = rules.initial_state(opts, dice)
    bot = TacticianBot()
    rng = random.Random(seed)
    out: list[Spot] = []
    while rules.outcome(state) is None and len(out) < limit:
        pending = rules.pending(state)
        for s, d in pending.items():
            if isinstance(d, Distribute) and modelled(rules, state, s, d):
                out.append((rules.clone(state), s, d))
        orders = {s: bot.choose(rules, state, s, d, rng) for s, d in pending.items()}
        rules.apply(state, orders, dice, quiet=True)
    return out[:limit]
