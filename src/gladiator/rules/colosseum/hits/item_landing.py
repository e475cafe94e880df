"""Where a weapon or shield off the hand comes to rest on the board (§13.2, §13.3.2, §13.5.1):
so many hexes along a line, or straight out through one side of a gladiator's hex, stopped at
the board's edge. items.py drops, throws and kicks items with these.

RULINGS (shared/rules/colosseum.md, docs/rulings.md; numbered with items.py's I series)

I8  Q17 ("stopping before a wall"): no item leaves the arena. A dropped, thrown or kicked item
    that would land off the board lies on the last board hex of its way.
"""

from __future__ import annotations

from collections.abc import Iterable

from gladiator.core.hexgrid import Hex, HexMap, add, line, neighbor_at, scale
from gladiator.core.hexgrid import sub as hex_sub

__all__ = ["along", "straight"]


def _walk(board: HexMap, hexes: Iterable[Hex], start: Hex) -> Hex:
    """I8: the last hex of the way that is still on the board."""
    last = start
    for h in hexes:
        if h not in board:
            break
        last = h
    return last


def along(board: HexMap, start: Hex, toward: Hex, steps: int) -> Hex:
    """§13.3.2: the hex `steps` hexes from `start` on the line through `toward` (and beyond it),
    stopped at the board's edge (I8)."""
    if steps <= 0 or start == toward:
        return start
    far = add(start, scale(hex_sub(toward, start), steps))  # the line, long enough
    return _walk(board, line(start, far)[1 : steps + 1], start)


def straight(board: HexMap, start: Hex, facing: int, relation: int, steps: int) -> Hex:
    """`steps` hexes from `start` through his side `relation`, stopped at the board's edge."""
    way: list[Hex] = []
    h = start
    for _ in range(steps):
        h = neighbor_at(h, facing, relation)
        way.append(h)
    return _walk(board, way, start)
