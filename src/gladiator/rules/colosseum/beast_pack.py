"""Several beasts against one gladiator (§28, §30.2.1.1 "Venatores / Bestiarii vs Beast": 1D3
random beasts): the option, the set-up, the phase's movement and the end of the match. The
combat step is every match's (combat/, B15, B16, B18).

RULINGS (docs/rulings.md, Colosseum §28, the B series)

B11 §30.2.1.1: option `beasts` naming two or three beasts ("blue:lion,green:bear,gold:random")
    is a pack: the gladiator is red and the beasts are the next seats in table order (blue,
    green, gold: 2 beasts are blue and green), each its T21 kind or "random" (P3). Every
    per-seat list option has one entry per seat (the beasts' styles "random", unread). Not with
    `teams` nor `solitaire`.
B12 §4.5, G2: red stands at the duel's place; the beasts stand in a line facing him as a team's
    side would (G2), heads on the line, bodies behind it, two hexes apart, so no counter touches
    another.
B13 §28.4, §28.5: the gladiator moves first, every beast's counter blocking him (B2); then each
    beast moves in table order, rolling its own T22. A beast's step or turn that would put one
    of its hexes on another beast's counter is not made and its move ends, as at the edge (B2):
    beasts never collide with each other. A gladiator pushed by a beast (B5) is pushed to a hex
    no beast covers.
B14 (the end of a pack) is beast_pack_end.py's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gladiator.core.dice import Dice
from gladiator.core.hexgrid import HexMap
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.beast_setup import beast_gladiators
from gladiator.rules.colosseum.beasts import beast_kinds, counter_hexes, parse_beasts
from gladiator.rules.colosseum.events import event
from gladiator.rules.colosseum.positions import hex_text
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.teams import ALL_SEATS, pack_beasts, team_starting_positions
from gladiator.rules.colosseum.walls import setup_arena

__all__ = [
    "MAX_BEASTS",
    "beasts_hexes",
    "pack_setup",
    "parse_pack",
]

MAX_BEASTS = 3  # §30.2.1.1: 1D3 beasts


def parse_pack(text: str) -> dict[str, str]:
    """B11: two or three beasts on blue, green (, gold), seat → kind in table order; ValueError
    with one line otherwise."""
    kinds = parse_beasts(text, ALL_SEATS)
    seats = tuple(s for s in ALL_SEATS if s in kinds)
    if len(seats) > MAX_BEASTS:
        raise ValueError(
            f"beasts: at most {MAX_BEASTS} beasts against one gladiator (§30.2.1.1: 1D3)"
        )
    want = ALL_SEATS[1 : len(seats) + 1]
    if seats != want:
        raise ValueError(
            f"beasts: {len(seats)} beasts are the seats {', '.join(want)}; the gladiator is red "
            f"(B11; kinds: {', '.join(beast_kinds())} or random)"
        )
    return {s: kinds[s] for s in seats}


def pack_setup(
    options: Mapping[str, Any],
    dice: Dice,
    arena: HexMap,
    counter: Callable[[str, Mapping[str, Gladiator]], int],
    events: list[Event],
) -> ColosseumState:
    """B11, B12: the gladiator and his beasts placed; the caller starts the first phase."""
    beasts = pack_beasts(options)
    seats = ("red", *beasts)
    starts = team_starting_positions(arena, (("red",), beasts))
    gladiators = beast_gladiators(options, seats, [starts[s] for s in seats], dice, counter, events)
    size, walls, arena_events = setup_arena(options, dice)
    events.extend(arena_events)
    heads = " and ".join(f"{s} at {hex_text(starts[s].hex)}" for s in beasts)
    events.append(
        event(
            "placed",
            "§4.5",
            f"red at {hex_text(starts['red'].hex)}; the beasts in a line facing him, {heads} (B12)",
        )
    )
    return ColosseumState(
        options=dict(options), gladiators=gladiators, arena_size=size, walls=walls
    )


def beasts_hexes(state: ColosseumState, but: Gladiator | None = None) -> set[Any]:
    """Every hex a beast's counter covers (B13), leaving out `but`'s."""
    return {
        h
        for b in state.gladiators.values()
        if b.beast is not None and b is not but
        for h in counter_hexes(b)
    }
