"""The one place the allocation solver asks what a Colosseum position is worth.

`position_value(state, seat)` is the value of a position to `seat`, in the units of the ruleset's
heuristic (-1 lost .. +1 won; one CF on a sheet is 1/40). The solver prices every result of an
attack by the position it leaves (`bots.allocation_payoff`), so a better value function (the
fitted `evaluation/value.py` another branch builds) is swapped in here alone: pass it as
`value=` to the payoff model, or change `DEFAULT_VALUE`.

RULING AS1 (docs/rulings.md): the heuristic alone is blind to a dropped weapon or shield and to a
lost helmet, which the rules make costly (§13.4: no attack until he picks it up; §10.5 H). The
default adds the tactician's own weights for them (colosseum_evaluation.py: WD 4 CF, SD 1.5 CF,
H 2 CF), so that the solver and the tactician value a disarm alike.
"""

from __future__ import annotations

from collections.abc import Callable

from gladiator.rules.colosseum.engine import ColosseumRules
from gladiator.rules.colosseum.state import ColosseumState, Gladiator

__all__ = ["CF_POINT", "DEFAULT_VALUE", "PositionValue", "heuristic_value", "zero_sum"]

PositionValue = Callable[[ColosseumState, str], float]

CF_POINT = 1.0 / 40.0  # ColosseumRules.heuristic: one CF of difference
_NO_WEAPON = 4.0  # colosseum_evaluation.py _CRIT_EXTRA["WD"], in CF
_NO_SHIELD = 1.5  # colosseum_evaluation.py _CRIT_EXTRA["SD"]
_NO_HELMET = 2.0  # colosseum_evaluation.py _CRIT_EXTRA["H"]
_RULES = ColosseumRules()


def _kit_cost(g: Gladiator) -> float:
    cost = 0.0 if g.has_weapon else _NO_WEAPON
    if not g.has_shield or g.sheet.shield_useless:
        cost += _NO_SHIELD
    if g.crits.helmet_lost:
        cost += _NO_HELMET
    return cost


def heuristic_value(state: ColosseumState, seat: str) -> float:
    """`ColosseumRules.heuristic` plus the kit terms of AS1; a finished match is -1, 0 or +1."""
    base = _RULES.heuristic(state, seat)
    if state.step == "over":
        return base
    me, other = state.figure(seat), state.opponent(seat)
    return base + (_kit_cost(other) - _kit_cost(me)) * CF_POINT


DEFAULT_VALUE: PositionValue = heuristic_value


def zero_sum(value: PositionValue, state: ColosseumState, seat: str, other: str) -> float:
    """The position to `seat` as a zero-sum number: half his value less half the other's (a
    value function need not be exactly antisymmetric; the matrix game must be)."""
    return 0.5 * (value(state, seat) - value(state, other))
