"""A team match's setup (§27, G2, G15): 3 to 12 seats in two sides. Its combat is every
match's (combat/), its end team_end.py's (G7, G8)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gladiator.core.dice import Dice
from gladiator.core.hexgrid import HexMap
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.events import event
from gladiator.rules.colosseum.outfit import styled_gladiators
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.teams import seats_of, sides_of, team_starting_positions
from gladiator.rules.colosseum.walls import setup_arena

__all__ = ["team_setup"]


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
