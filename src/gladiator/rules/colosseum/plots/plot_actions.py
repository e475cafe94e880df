"""T39 as the phase plot reads it (§7.3, §7.4): every action code a plot may hold (a Roll's four
directions as RO-FL, RO-FR, RO-BL, RO-BR), the hexes it moves and toward which side, its
rotation allowance, whether it is free without a rotation and whether only a Prone man may write
it; how many movement and special actions one plot may hold (§7.2); and the Sprinting talent's
three-action plot. The data is data/actions.toml via `tables()`; plots.py builds the notation on
it, plot_legality.py the lists of legal plots.

RULINGS (shared/rules/colosseum.md; numbered with plots.py's R series)

R15 Q24: RO moves one hex to his left-front (RO-FL), right-front (RO-FR), left-rear (RO-BL) or
    right-rear (RO-BR) hex and leaves his facing as it was. §7.4: C moves three hexes forward,
    one at a time.
R20 §36.3 SP, Q48 (Campaign Game, TL7): three movement actions, each F, SFL or SFR, are a
    sprint: well formed (each with its own allowance, R1), but offered by `legal_plots` only
    with `PlotStatus.sprint` (the Sprinting talent), after every ordinary plot. Any other three
    actions, or four, break §7.2 as before.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from gladiator.core.hexgrid import Relation
from gladiator.rules.colosseum.tables.tables import tables

__all__ = [
    "SPRINT_ACTIONS",
    "SPRINT_LENGTH",
    "ActionSpec",
    "action_codes",
    "action_limits",
    "action_specs",
    "is_sprint",
]

# A Roll names the hex it rolls into by its relation to his facing (§7.4); T39 gives the relations
# in core.hexgrid's codes, the notation uses the rulebook's (RO-BL, not RO-RL).
_DIRECTION_SUFFIX = {"FL": "FL", "FR": "FR", "RL": "BL", "RR": "BR"}
# §36.3 SP, Q48 (R20): the Sprinting talent's plot, three of these movement actions.
SPRINT_ACTIONS = ("F", "SFL", "SFR")
SPRINT_LENGTH = 3


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """One action of T39 as the plot needs it; RO is split into its four directions."""

    code: str
    movement: bool
    hexes: int
    relation: int | None
    rotation: int
    free_without_rotation: bool
    prone_only: bool


@cache
def action_specs() -> dict[str, ActionSpec]:
    """T39 by plot code, in the table's order."""
    out: dict[str, ActionSpec] = {}
    for code, action in tables().actions.t39.actions.items():
        movement = action.kind == "movement"
        variants: list[tuple[str, str | None]]
        if len(action.directions) > 1:  # RO: the plot names the direction (RO-FL ...)
            variants = [(f"{code}-{_DIRECTION_SUFFIX[d]}", d) for d in action.directions]
        else:
            variants = [(code, action.directions[0] if action.directions else None)]
        for name, direction in variants:
            out[name] = ActionSpec(
                code=name,
                movement=movement,
                hexes=action.hexes,
                relation=None if direction is None else int(Relation.from_code(direction)),
                rotation=action.rotation,
                free_without_rotation=action.free_without_rotation,
                prone_only=action.prone_only,
            )
    return out


@cache
def action_limits() -> tuple[int, int]:
    t39 = tables().actions.t39
    return t39.max_movement_actions, t39.max_special_actions


def action_codes() -> tuple[str, ...]:
    """Every action code a plot may hold, in T39's order (RO as RO-FL, RO-FR, RO-BL, RO-BR)."""
    return tuple(action_specs())


def is_sprint(actions: tuple[str, ...]) -> bool:
    """§36.3 SP, Q48 (R20): three movement actions, each F, SFL or SFR: a sprint."""
    return len(actions) == SPRINT_LENGTH and all(a in SPRINT_ACTIONS for a in actions)
