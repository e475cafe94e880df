"""A team match's setup and combat hooks (§27): what the engine calls for 3 to 12 seats.

The match's end is team_end.py (G7, G8).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gladiator.core.decisions import Decision
from gladiator.core.dice import Dice
from gladiator.core.hexgrid import HexMap
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.events import event
from gladiator.rules.colosseum.outfit import styled_gladiators
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.team_combat import (
    team_allocation_choice,
    team_prepare,
    team_resolve,
)
from gladiator.rules.colosseum.teams import seats_of, sides_of, team_starting_positions
from gladiator.rules.colosseum.walls import setup_arena

__all__ = [
    "team_allocations",
    "team_pending_allocation",
    "team_prepare",
    "team_setup",
]


def team_setup(
    options: Mapping[str, Any],
    dice: Dice,
    arena: HexMap,
    counter: Callable[[str, Mapping[str, Gladiator]], int],
    events: list[Event],
) -> ColosseumState:
    """§4.3, §19 and §4.5 extended (G2, G15) for a team match's 3 to 12 seats; the caller
    starts the first phase."""
    seats = seats_of(options)
    sides = sides_of(options)
    starts = team_starting_positions(arena, sides)
    side_of = {s: k for k, side in enumerate(sides) for s in side}

    def foes(i: int) -> list[int]:
        return [j for j, s in enumerate(seats) if side_of[s] != side_of[seats[i]]]

    gladiators = styled_gladiators(
        options, seats, [starts[s] for s in seats], dice, counter, events, foes=foes
    )
    size, walls, arena_events = setup_arena(options, dice)
    events.extend(arena_events)
    where = "; ".join(
        " and ".join(f"{s} at {starts[s].hex.q},{starts[s].hex.r}" for s in side) for side in sides
    )
    events.append(
        event(
            "placed",
            "§4.5",
            f"{where}: the sides in two lines facing each other, four empty hexes between "
            "them (§27, G2)",
        )
    )
    return ColosseumState(
        options=dict(options), gladiators=gladiators, arena_size=size, walls=walls
    )


def team_pending_allocation(state: ColosseumState) -> dict[str, Decision]:
    return {seat: team_allocation_choice(g) for seat, g in state.gladiators.items()}


def team_allocations(
    state: ColosseumState, orders: Mapping[str, str], dice: Dice, events: list[Event]
) -> None:
    team_resolve(state, orders, dice, events)
