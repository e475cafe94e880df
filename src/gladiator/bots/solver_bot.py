"""The solver bot: the tactician everywhere, except the Colosseum Basic Game allocation (§9.3),
where it draws its order from the equilibrium mix of the allocation matrix game
(`allocation_solver`), with the rng it is given (one draw a decision), so a seeded match
repeats.

What it hands to the tactician (RULING AS3): every plot (§7.2) and other decision; an allocation
with any slot beyond the ten of §9.3 (§22 specials, §20 net escape/drag, §36.3 Find Weakness), in
a team fight (§27), against or as a beast (§28), with a style (§19) or a talent (§36).
"""

from __future__ import annotations

import random
from typing import Any

from gladiator.bots.allocation_solver import modelled, solve_allocation
from gladiator.bots.base import Bot
from gladiator.bots.tactician.bot import TacticianBot
from gladiator.core.decisions import Decision, Distribute
from gladiator.core.protocol import Ruleset

__all__ = ["SolverBot", "draw"]


def draw(orders: list[str], probabilities: list[float], rng: random.Random) -> str:
    """One order from the mix, by a single `rng.random()` draw."""
    u = rng.random()
    acc = 0.0
    for order, p in zip(orders, probabilities, strict=True):
        acc += p
        if u < acc:
            return order
    return orders[-1]


class SolverBot(Bot):
    name = "solver"
    rulesets = frozenset({"colosseum"})  # the tactician's elsewhere: random legal orders

    def __init__(self) -> None:
        self.tactician = TacticianBot()

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
        if isinstance(decision, Distribute) and modelled(ruleset, state, seat, decision):
            orders, probabilities = solve_allocation(ruleset, state, seat, decision)
            return decision.validate(draw(orders, probabilities, rng))
        return self.tactician.choose(ruleset, state, seat, decision, rng, budget=budget)
