"""How a quick-rules match looks in text: the hex map with facings, and a status line per figure."""

from __future__ import annotations

from gladiator.core import hexgrid as hg
from gladiator.rules.quick.state import Fighter, QuickState
from gladiator.rules.quick.tables import tables

__all__ = ["ARROWS", "render_board", "status_line"]

# Flat-top directions N, NE, SE, S, SW, NW.
ARROWS = ("↑", "↗", "↘", "↓", "↙", "↖")


def _arena(state: QuickState) -> hg.HexMap:
    from gladiator.rules.quick.engine import arena_of

    return arena_of(state)


def render_board(state: QuickState, marks: dict[hg.Hex, str] | None = None) -> str:
    """The arena in odd-q layout: each column of hexes is offset half a row from its neighbour.

    A figure shows as its seat's initial (lower case when helpless) and an arrow for its facing;
    `marks` puts a character on other hexes (legal destinations, say).
    """
    arena = _arena(state)
    cells = {hg.to_offset(h): h for h in arena.hexes}
    cols = [c for c, _ in cells]
    rows = [r for _, r in cells]
    c0, r0 = min(cols), min(rows)
    width = (max(cols) - c0 + 1) * 3 + 2
    height = (max(rows) - r0 + 1) * 2 + 3
    grid = [[" "] * width for _ in range(height)]
    figures = {f.hex: f for f in state.fighters.values() if f.on_board}
    for (c, r), h in cells.items():
        x = (c - c0) * 3
        y = (r - r0) * 2 + (c % 2)
        text = "· "
        if h in figures:
            f = figures[h]
            initial = f.seat[0].upper() if f.fighting else f.seat[0]
            text = initial + ARROWS[f.facing]
        elif marks and h in marks:
            text = marks[h] + " "
        grid[y][x] = text[0]
        grid[y][x + 1] = text[1]
    return "\n".join("".join(row).rstrip() for row in grid).rstrip("\n")


def status_line(f: Fighter) -> str:
    kit = tables().kit(f.cls)
    gear = [kit.weapon if f.has_weapon else f"no {kit.weapon}"]
    gear.append(kit.off_hand if f.has_off_hand and not f.net_cast else f"no {kit.off_hand}")
    flags = [x for x, on in (("ensnared", f.ensnared), ("off balance", f.off_balance)) if on]
    return (
        f"{f.seat:<7} {f.cls:<9} strength {f.strength:>3}/{f.max_strength:<3} "
        f"at {f.hex.q},{f.hex.r} facing {hg.DIRECTION_NAMES[f.facing]:<2} "
        f"{', '.join(gear)}{'; ' + ', '.join(flags) if flags else ''}  [{f.status}]"
    )
