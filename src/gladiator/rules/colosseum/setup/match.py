"""A match laid out (§4): the roster's figures made and placed (§4.3, §4.5), the arena's size
and walls (§25.2), the Campaign Game's intimidation (§35.4) and the first phase begun."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gladiator.core.dice import Dice
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.arena.board import board
from gladiator.rules.colosseum.arena.positions import Position, hex_text
from gladiator.rules.colosseum.arena.walls import setup_arena
from gladiator.rules.colosseum.campaign.campaign_prestige import intimidation
from gladiator.rules.colosseum.end.phase import start_phase
from gladiator.rules.colosseum.events import event
from gladiator.rules.colosseum.setup.figures import figures
from gladiator.rules.colosseum.setup.roster import Roster, roster_of
from gladiator.rules.colosseum.state import ColosseumState

__all__ = ["setup_match"]


def setup_match(options: Mapping[str, Any], dice: Dice, events: list[Event]) -> ColosseumState:
    """§4.1-§4.5 for any roster; then §35.4 and the first phase (§5.1)."""
    arena = board(int(options["board_width"]), int(options["board_height"]))
    roster = roster_of(options)
    starts = roster.starts(arena)
    gladiators = figures(options, roster, starts, dice, events)
    size, walls, arena_events = setup_arena(options, dice)  # §4.4, §25.2 (Advanced Game)
    events.extend(arena_events)
    events.append(event("placed", "§4.5", _placed(roster, starts)))
    state = ColosseumState(
        options=dict(options), gladiators=gladiators, arena_size=size, walls=walls
    )
    intimidation(state, dice, events)  # §35.4 (Campaign Game, X4)
    start_phase(state, dice, events)
    return state


def _placed(roster: Roster, starts: Mapping[str, Position]) -> str:
    """Where they stand, in the words of the shape's rule (§4.5, G2, B12)."""
    if roster.pack:
        man, beasts = (side for side in sorted(roster.sides, key=len))
        heads = " and ".join(f"{s} at {hex_text(starts[s].hex)}" for s in beasts)
        return (
            f"{man[0]} at {hex_text(starts[man[0]].hex)}; the beasts in a line facing him, "
            f"{heads} (B12)"
        )
    if all(len(side) == 1 for side in roster.sides):
        a, b = (starts[s].hex for s in roster.seats)
        return (
            f"{roster.seats[0]} at {a.q},{a.r} and {roster.seats[1]} at {b.q},{b.r}, facing "
            "each other with four empty hexes between them"
        )
    where = "; ".join(
        " and ".join(f"{s} at {starts[s].hex.q},{starts[s].hex.r}" for s in side)
        for side in roster.sides
    )
    return (
        f"{where}: the sides in two lines facing each other, four empty hexes between them "
        "(§27, G2)"
    )
