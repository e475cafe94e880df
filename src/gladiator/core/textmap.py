"""Hexes drawn as text: flat-top hexes in odd-q layout, two characters a hex, each column half a
row below its left neighbour when odd. Rulesets supply what stands in each hex."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from gladiator.core.hexgrid import Hex, to_offset

__all__ = ["ARROWS", "draw"]

# A figure's facing as an arrow, directions N, NE, SE, S, SW, NW.
ARROWS = ("↑", "↗", "↘", "↓", "↙", "↖")


def draw(hexes: Iterable[Hex], cell: Callable[[Hex], str]) -> str:
    """The hexes as a text picture; `cell(h)` gives the two characters drawn for hex `h`."""
    cells = {to_offset(h): h for h in hexes}
    if not cells:
        return ""
    c0 = min(c for c, _ in cells)
    r0 = min(r for _, r in cells)
    width = (max(c for c, _ in cells) - c0 + 1) * 3 + 2
    height = (max(r for _, r in cells) - r0 + 1) * 2 + 3
    grid = [[" "] * width for _ in range(height)]
    for (c, r), h in cells.items():
        x, y = (c - c0) * 3, (r - r0) * 2 + (c % 2)
        text = (cell(h) + "  ")[:2]
        grid[y][x], grid[y][x + 1] = text[0], text[1]
    return "\n".join("".join(row).rstrip() for row in grid).rstrip("\n")
