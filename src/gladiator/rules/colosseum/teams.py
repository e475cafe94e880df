"""Team combat's seats and sides (§27, Advanced Game): the option `teams`, who is on whose side,
and where a team match starts (§4.5 extended).

A duel has the seats red and blue. `teams = "red+green:blue"` makes a team match of 3 to 12
seats, at most 6 a side (§30.2.1.1's Battle: 2D3 a side): the seats are named, in table order,
red, blue, green, gold, white, black, purple, silver, orange, brown, grey, pink (the first N of
them are used), and `:` separates the two sides, `+` the members of a side. The gladiators of
a side are allies; everyone on the other side is an opponent (§27.1).

RULINGS (the G series of docs/rulings.md)

G1  §27, §30.2.1.1: a team match has two sides and 3 to 12 seats, at most 6 a side (2 v 1,
    2 v 2, 3 v 3, ... 6 v 6); the seats beyond red and blue are green, gold, white, black,
    purple, silver, orange, brown, grey, pink, in that order, so every per-seat option
    (`gladiators`, `styles`, `weapons`, `left_handed`) is a list in that order. Lists left at
    their duel defaults are filled with the same defaults.
G2  §4.5 extended: each side stands in a line across the arena's centre, the lines five hexes
    apart and facing each other as the duel's pair does; teammates stand two hexes apart along
    the line (one empty hex between them), first on the axis, then to its right, then to its
    left, so every man starts straight across from an opponent or beside one.
G15 G2 for sides of 4 to 6: the line goes on alternating, the 4th man two hexes right of the
    2nd, the 5th two left of the 3rd, the 6th two right of the 4th (offsets 0, +1, −1, +2, −2,
    +3 steps of two hexes), so the first three stand exactly where they did. A board too
    narrow or too short for the lines is refused with one line when the options are checked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gladiator.core.hexgrid import DIRECTIONS, Hex, HexMap, add, scale
from gladiator.rules.colosseum.arena.positions import Position

__all__ = [
    "ALL_SEATS",
    "MAX_SEATS",
    "is_over",
    "is_pack",
    "is_team_match",
    "pack_beasts",
    "parse_teams",
    "seats_of",
    "sides_of",
    "team_starting_positions",
]

# G1: the table order of every seat; the first four keep their order so that every 3- and
# 4-seat record replays as it was played.
ALL_SEATS = (
    "red",
    "blue",
    "green",
    "gold",
    "white",
    "black",
    "purple",
    "silver",
    "orange",
    "brown",
    "grey",
    "pink",
)
MAX_SEATS = 12
MAX_SIDE = 6  # §30.2.1.1: a Battle has 2D3 a side


def parse_teams(text: str) -> tuple[tuple[str, ...], ...]:
    """`"red+green:blue"` as its sides; ValueError with a one-line message naming the rule."""
    shown = " ".join(text.split())
    sides = tuple(
        tuple(s.strip().lower() for s in part.split("+") if s.strip()) for part in text.split(":")
    )
    if len(sides) != 2 or not all(sides):
        raise ValueError(
            f"teams {shown!r}: write two sides separated by ':', members by '+' "
            "(e.g. red+green:blue) (§27)"
        )
    seats = [s for side in sides for s in side]
    for s in seats:
        if s not in ALL_SEATS:
            raise ValueError(f"teams {shown!r}: no seat {s!r}; seats: {', '.join(ALL_SEATS)}")
    if len(set(seats)) != len(seats):
        raise ValueError(f"teams {shown!r}: each seat on one side, once")
    n = len(seats)
    if not 3 <= n <= MAX_SEATS:
        raise ValueError(
            f"teams {shown!r}: a team match has 3 to {MAX_SEATS} gladiators, not {n} "
            "(§27; 2 is a duel)"
        )
    if max(len(side) for side in sides) > MAX_SIDE:
        raise ValueError(
            f"teams {shown!r}: at most {MAX_SIDE} gladiators a side (§30.2.1.1: a Battle's 2D3)"
        )
    if set(seats) != set(ALL_SEATS[:n]):
        raise ValueError(
            f"teams {shown!r}: a {n}-seat match uses the seats {', '.join(ALL_SEATS[:n])} (G1)"
        )
    return sides


def is_team_match(options: Mapping[str, Any]) -> bool:
    return bool(options.get("teams"))


def is_over(state: Any) -> bool:
    """Whether the match has ended, read afresh (mypy keeps a step narrowed across calls that
    may end it: a Moment of Truth)."""
    return bool(state.step == "over")


def sides_of(options: Mapping[str, Any]) -> tuple[tuple[str, ...], ...]:
    """The two sides, each in table order; a duel's are (red,), (blue,)."""
    if not is_team_match(options):
        return (("red",), ("blue",))
    sides = parse_teams(str(options["teams"]))
    return tuple(tuple(s for s in ALL_SEATS if s in side) for side in sides)


def pack_beasts(options: Mapping[str, Any]) -> tuple[str, ...]:
    """B11: the beast seats of a pack (`beasts` naming two or three), as normalised; () else."""
    text = str(options.get("beasts") or "")
    seats = tuple(e.partition(":")[0].strip().lower() for e in text.split(",") if e.strip())
    return seats if len(seats) > 1 else ()


def is_pack(options: Mapping[str, Any]) -> bool:
    """B11: several beasts against one gladiator (§30.2.1.1 Venatores/Bestiarii vs Beast)."""
    return bool(pack_beasts(options))


def seats_of(options: Mapping[str, Any]) -> tuple[str, ...]:
    """Every seat of the match, in table order (G1; a pack's red and its beasts, B11)."""
    if is_pack(options):
        return ("red", *pack_beasts(options))
    seats = {s for side in sides_of(options) for s in side}
    return tuple(s for s in ALL_SEATS if s in seats)


def team_starting_positions(
    board: HexMap, sides: Sequence[Sequence[str]], *, axis: int = 0
) -> dict[str, Position]:
    """G2: the first side in a line facing `axis` two hexes behind the centre, the second in a
    line facing back three hexes ahead of it (the duel's §4.5 pair, widened to lines)."""
    centre = board.centre()
    across = add(DIRECTIONS[(axis + 1) % 6], DIRECTIONS[(axis + 2) % 6])  # straight across
    places = (0, 1, -1, 2, -2, 3)  # G2, G15
    out: dict[str, Position] = {}
    for k, side in enumerate(sides):
        back = 2 if k == 0 else -3
        facing = axis if k == 0 else (axis + 3) % 6
        base = add(centre, scale(DIRECTIONS[(axis + 3) % 6], back))
        for j, seat in enumerate(side):
            h: Hex = add(base, scale(across, places[j]))
            if h not in board:
                raise ValueError(
                    f"board {board.name} is too small for the team's starting lines "
                    f"({len(side)} a side, G15): make board_width or board_height larger"
                )
            out[seat] = Position(h, facing)
    return out
