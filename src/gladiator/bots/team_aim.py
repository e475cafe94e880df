"""How the one-opponent bots (the tactician, the centurion) play a team match (§27, G6): each
phase they fight the nearest opponent they may attack, with the duel's allocation aimed at him.
"""

from __future__ import annotations

from collections.abc import Callable

from gladiator.core.hexgrid import distance
from gladiator.rules.colosseum.combat.orders import AllocationChoice
from gladiator.rules.colosseum.state import ColosseumState, Gladiator

__all__ = ["aimed_order", "nearest_target"]


def nearest_target(state: ColosseumState, seat: str, decision: AllocationChoice) -> Gladiator:
    """The opponent he aims at: the nearest he may attack (ties: table order), else the nearest."""
    me = state.gladiators[seat]
    pool = [state.gladiators[t] for t in decision.targets if t in state.gladiators]
    if not pool:
        return state.opponent(seat)
    return min(pool, key=lambda g: distance(g.hex, me.hex))


def aimed_order(
    state: ColosseumState,
    seat: str,
    decision: AllocationChoice,
    allocate: Callable[[Gladiator, AllocationChoice], str | None],
) -> str | None:
    """`allocate(foe, duel_decision)` run against the nearest target, as the team order."""
    foe = nearest_target(state, seat, decision)
    if foe.seat not in decision.targets:  # nobody to attack: the duel's decision, defence only
        defence = tuple(s for s in decision.slots if s.name.startswith("D-"))
        names = {s.name for s in defence}
        plain = AllocationChoice(
            prompt=decision.prompt,
            secret=True,
            budget=decision.budget,
            slots=defence,
            groups=tuple(g for g in decision.groups if set(g.slots) <= names),
        )
        order = allocate(foe, plain)
        return None if order is None else decision.validate(order)
    order = allocate(foe, decision.aimed(foe.seat))
    return None if order is None else decision.retarget(order, foe.seat)
