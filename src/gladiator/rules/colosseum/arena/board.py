"""The arena board (§2.1, §4.5, §7.7): its map, the starting positions and the shift that brings
everyone back onto it.

RULINGS (shared/rules/colosseum.md; numbered with movement.py's M series)

M13 §7.7, Q45: movement and collisions run on an unbounded grid; afterwards, while a gladiator
    is off the board, every gladiator moves 3 hexes toward the centre: the hex vector of length 3
    that points most nearly from the farthest-off gladiator to the board's centre, preferring one
    that brings everybody on. Relative positions and facings are kept; items on the ground do not
    move, so the result reports the total shift for the caller to re-note them. (The Advanced
    Game's walls, §7.7.1 and §25, are walls.py's: movement.py stops the tracks at them before
    this shift, which is the same with walls or without, W7.)
E9  §7.7 keeps relative positions, so two gladiators who run apart farther than the board is
    wide cannot both be brought back onto it. The book sets no limit on how far apart a plot may
    take them, and the printed board's size is not in the text (20×16 by default), so every
    legal plot is offered; when the shift cannot keep everyone on the board (`BoardTooSmall`),
    the map's edge holds them as a wall would (§7.7.1) but without the Advanced Game's wall
    collision (§25.4): each man whose last step took him farther from the nearest other stops a
    step short, until the shift can (movement.py, `_hold_at_edge`). Until issue #10 a plot that
    would have ended farther than half the board's short side from the opponent was not offered.
    With walls (§25) a man a wall holds is not held a further step (W9).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import cache

from gladiator.core.hexgrid import (
    DIRECTIONS,
    Hex,
    HexMap,
    add,
    distance,
    opposite,
    rectangle,
    ring,
    scale,
    sub,
    to_pixel,
)
from gladiator.rules.colosseum.arena.positions import Position, as_position, hex_text
from gladiator.rules.colosseum.events import Event, event
from gladiator.rules.colosseum.state import ColosseumState

__all__ = [
    "EDGE_SHIFT",
    "START_DISTANCE",
    "BoardTooSmall",
    "board",
    "board_of",
    "map_edge_shift",
    "starting_positions",
]


class BoardTooSmall(ValueError):
    """§7.7's shift cannot bring everyone onto the board: they stand farther apart than it holds."""


EDGE_SHIFT = 3  # §7.7: hexes every gladiator moves back toward the centre
START_DISTANCE = 5  # §4.5: four empty hexes between the two gladiators


@cache
def board(width: int, height: int) -> HexMap:
    """The rectangular arena board of the match options (§2.1)."""
    return rectangle(width, height, name=f"arena-{width}x{height}")


def board_of(state: ColosseumState) -> HexMap:
    return board(int(state.options["board_width"]), int(state.options["board_height"]))


def starting_positions(board: HexMap, *, axis: int = 0) -> tuple[Position, Position]:
    """§4.5, R-4.5-setup: both gladiators in the centre of the arena, facing each other along
    direction `axis`, with four empty hexes between them (distance 5): the first 2 hexes from the
    centre against `axis`, facing `axis`; the second 3 hexes from it along `axis`, facing back."""
    if isinstance(axis, bool) or not isinstance(axis, int) or not 0 <= axis < 6:
        raise ValueError(f"axis must be a direction 0..5, got {axis!r}")
    centre = board.centre()
    first = Position(add(centre, scale(DIRECTIONS[opposite(axis)], 2)), axis)
    second = Position(add(centre, scale(DIRECTIONS[axis], START_DISTANCE - 2)), opposite(axis))
    for pos in (first, second):
        if pos.hex not in board:
            raise ValueError(f"board {board.name} is too small for §4.5's starting positions")
    return first, second


_SHIFTS: tuple[Hex, ...] = tuple(ring(Hex(0, 0), EDGE_SHIFT))


# The shift vectors on the page and their lengths, worked out once: the shift is tried often.
_SHIFT_PIXELS: tuple[tuple[Hex, float, float, float], ...] = tuple(
    (v, *to_pixel(v), math.hypot(*to_pixel(v))) for v in _SHIFTS
)


def _shift_vector(current: Mapping[str, Position], toward: Hex, board: HexMap) -> Hex:
    """M13: the length-3 vector pointing most nearly along `toward` among those that leave the
    fewest gladiators off the board (ties: ring order)."""
    bx, by = to_pixel(toward)
    b_len = math.hypot(bx, by)
    best: tuple[int, float] | None = None
    chosen = _SHIFTS[0]
    for v, ax, ay, a_len in _SHIFT_PIXELS:
        cosine = (ax * bx + ay * by) / (a_len * b_len)  # as the cosine of the two, exactly
        if cosine <= 0:
            continue
        key = (sum(1 for p in current.values() if add(p.hex, v) not in board), -cosine)
        if best is None or key < best:
            best, chosen = key, v
    return chosen


def map_edge_shift(
    positions: Mapping[str, tuple[Hex, int]], board: HexMap
) -> tuple[dict[str, Position], Hex, list[Event]]:
    """§7.7, Q45 (M13): while anyone is off `board`, move everyone 3 hexes toward its centre,
    keeping their relative positions and facings. Returns the new positions, the total shift
    (Hex(0, 0) if nobody was off) and the events. Items on the ground stay where they lie; the
    caller adds nothing to them, but may use the shift to say where they now are relative to the
    gladiators. ValueError if the board cannot hold them all."""
    current = {n: as_position(p) for n, p in positions.items()}
    events: list[Event] = []
    total = Hex(0, 0)
    if not current:
        return current, total, events
    if all(p.hex in board for p in current.values()):  # nearly every phase
        return current, total, events
    centre = board.centre()
    spread = max(distance(a.hex, b.hex) for a in current.values() for b in current.values())
    far = max(distance(p.hex, centre) for p in current.values())
    for _ in range(far // EDGE_SHIFT + spread + 4):
        off = [n for n, p in current.items() if p.hex not in board]
        if not off:
            return current, total, events
        mover = max(off, key=lambda n: distance(current[n].hex, centre))
        vec = _shift_vector(current, sub(centre, current[mover].hex), board)
        current = {n: Position(add(p.hex, vec), p.facing) for n, p in current.items()}
        total = add(total, vec)
        events.append(
            event(
                "map_edge",
                "§7.7",
                f"{mover} is off the map: every gladiator moves 3 hexes toward the centre "
                f"(by {hex_text(vec)}); items on the ground stay where they lie",
                figure=mover,
                shift=vec,
            )
        )
    raise BoardTooSmall(
        f"board {board.name} cannot hold the gladiators at {sorted(current.items())}"
    )
