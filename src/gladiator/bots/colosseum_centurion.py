"""The centurion (§29): the rulebook's own solitaire opponent, run by its charts, as a bot: the
non-player gladiator of solo or cooperative play (§29.1).

Its plots follow §29.3-§29.5.1 (`centurion_movement`), its allocations §29.6
(`centurion_combat`), its Fighting Spirit §29.2 (`centurion_setup`). Every die a chart rolls
(the Movement roll, the allocation dice, the tie-breaks of §29.4 "at random") is thrown with
the `rng` the caller gives the bot, never the match's dice: they choose orders, and the orders
are what the record keeps. It reads only public facts: the state's gladiators and the floor, and,
with the Colosseum option `solitaire` naming its seat, the gladiator's plot revealed before it
plots (§29.3 "gladiators always move first"). Without that option it takes the opponent to stand
where he is.

Outside the Colosseum, or for a decision the charts do not cover, it plays a random legal order.
"""

from __future__ import annotations

import random
from typing import Any

from gladiator.bots.base import Bot
from gladiator.bots.centurion_combat import allocation_order
from gladiator.bots.centurion_movement import plot_order
from gladiator.bots.centurion_setup import fighting_spirit
from gladiator.bots.team_aim import aimed_order
from gladiator.core.decisions import ChooseOne, Decision, Distribute, IllegalOrder
from gladiator.core.protocol import Ruleset
from gladiator.rules.colosseum.combat.orders import AllocationChoice
from gladiator.rules.colosseum.plots.plots import PlotError
from gladiator.rules.colosseum.state import ColosseumState

__all__ = ["CenturionBot"]


class CenturionBot(Bot):
    name = "centurion"
    rulesets = frozenset({"colosseum"})

    def __init__(self, *, strict: bool = False) -> None:
        # strict: a chart that yields no legal order raises (for tests) instead of falling back
        # to a random legal order (for play, where a bot must never stall a match).
        self.strict = strict

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
        if not (isinstance(state, ColosseumState) and seat in state.gladiators):
            return decision.sample(rng)
        try:
            fs = fighting_spirit(state, seat)
            if isinstance(decision, ChooseOne):
                return decision.validate(plot_order(state, seat, decision, fs, rng))
            g = state.gladiators[seat]
            if (
                isinstance(decision, AllocationChoice) and decision.named
            ):  # §27 (G6): the nearest opponent
                order = aimed_order(
                    state, seat, decision, lambda foe, plain: allocation_order(g, plain, fs, rng)
                )
                if order is not None:
                    return order
            elif isinstance(decision, Distribute):
                return decision.validate(allocation_order(g, decision, fs, rng))
        except (IllegalOrder, PlotError, ValueError, KeyError):
            if self.strict:
                raise
        return decision.sample(rng)
