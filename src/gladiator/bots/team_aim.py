"""How the one-opponent bots (the tactician, the centurion) play a team match (§27, G6): each
phase they fight one opponent, with the duel's allocation aimed at him: the nearest they may
attack (the centurion), or for the tactician (issue 38) the one worth most (`focus`): near, with
team-mates already on him (two on one: §27.3's and §27.4's edge, ganging up), worn down, and
where it has positional advantage (§9.2, §27.5).
"""

from __future__ import annotations

from collections.abc import Callable

from gladiator.core.hexgrid import distance
from gladiator.rules.colosseum.combat.orders import AllocationChoice
from gladiator.rules.colosseum.state import ColosseumState, Gladiator

__all__ = ["aimed_order", "focus", "focus_target", "nearest_target"]


def nearest_target(state: ColosseumState, seat: str, decision: AllocationChoice) -> Gladiator:
    """The opponent he aims at: the nearest he may attack (ties: table order), else the nearest."""
    me = state.gladiators[seat]
    pool = [state.gladiators[t] for t in decision.targets if t in state.gladiators]
    if not pool:
        return state.opponent(seat)
    return min(pool, key=lambda g: distance(g.hex, me.hex))


GANG = 1.5  # each team-mate of mine within a hex of him
WORN = 4.0  # the share of his CF he has lost
PA = 0.5  # each point of PA I have on him this phase


def focus(state: ColosseumState, seat: str, pool: list[Gladiator] | None = None) -> Gladiator:
    """The opponent worth fighting (the module's docstring): near, ganged up on, worn down."""
    me = state.gladiators[seat]
    pool = pool or state.opponents(seat) or [state.opponent(seat)]
    friends = [g for g in state.gladiators.values() if g.seat != seat and g not in pool]
    pa = {t: p for t, p, _ in me.targets}

    def worth(o: Gladiator) -> float:
        gang = sum(1 for f in friends if f.alive and distance(f.hex, o.hex) <= 1)
        worn = 1 - max(o.sheet.current_cf, 0) / max(o.sheet.cf, 1)
        return -distance(o.hex, me.hex) + GANG * gang + WORN * worn + PA * pa.get(o.seat, 0)

    return max(pool, key=lambda o: (worth(o), -distance(o.hex, me.hex)))


def focus_target(state: ColosseumState, seat: str, decision: AllocationChoice) -> Gladiator:
    """`focus` among the men he may attack (else the nearest opponent)."""
    pool = [state.gladiators[t] for t in decision.targets if t in state.gladiators]
    return focus(state, seat, pool) if pool else state.opponent(seat)


def aimed_order(
    state: ColosseumState,
    seat: str,
    decision: AllocationChoice,
    allocate: Callable[[Gladiator, AllocationChoice], str | None],
    choose: Callable[[ColosseumState, str, AllocationChoice], Gladiator] | None = None,
) -> str | None:
    """`allocate(foe, duel_decision)` run against the target `choose` picks (the nearest by
    default), as the team order."""
    foe = (choose or nearest_target)(state, seat, decision)
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
