"""How a skirmish match looks in text: the hex map with facings and a status line per figure."""

from __future__ import annotations

from gladiator.core import hexgrid as hg
from gladiator.rules.skirmish.state import Fighter, SkirmishState

__all__ = ["render", "status_line"]

ARROWS = ("↑", "↗", "↘", "↓", "↙", "↖")


def render(state: SkirmishState, seat: str | None) -> str:
    from gladiator.rules.skirmish.engine import arena_of

    arena = arena_of(state)
    cells = {hg.to_offset(h): h for h in arena.hexes}
    c0 = min(c for c, _ in cells)
    r0 = min(r for _, r in cells)
    width = (max(c for c, _ in cells) - c0 + 1) * 3 + 2
    height = (max(r for _, r in cells) - r0 + 1) * 2 + 3
    grid = [[" "] * width for _ in range(height)]
    figures = {f.hex: f for f in state.fighters.values() if f.alive}
    nets = set(state.nets)
    for (c, r), h in cells.items():
        x, y = (c - c0) * 3, (r - r0) * 2 + (c % 2)
        text = "· "
        if h in figures:
            f = figures[h]
            text = (f.seat[0].upper() + ARROWS[f.facing]) if not f.floored else f.seat[0] + "_"
        elif h in nets:
            text = "# "
        grid[y][x], grid[y][x + 1] = text[0], text[1]
    board = "\n".join("".join(row).rstrip() for row in grid).rstrip("\n")
    lines = [status_line(f, seat) for f in state.fighters.values()]
    return board + "\n\n" + "\n".join(lines)


def status_line(f: Fighter, viewer: str | None) -> str:
    if not f.alive:
        return f"{f.seat:<7} {f.sheet:<9} dead: {f.cause}"
    flags = [
        name
        for name, on in (("stunned", f.stunned), ("floored", f.floored), ("entangled", f.entangled))
        if on
    ]
    if f.stun_bank:
        flags.append(f"{f.stun_bank} stun to come")
    barred = f"; barred: {' '.join(f.prohibited)}" if f.prohibited else ""
    return (
        f"{f.seat:<7} {f.sheet:<9} HP {f.hp:>2}/{f.max_hp:<2} nicks {f.nicks} cuts {f.cuts} "
        f"wounds {f.wounds}  at {f.hex.q},{f.hex.r} facing {hg.DIRECTION_NAMES[f.facing]}"
        f"{'; ' + ', '.join(flags) if flags else ''}{barred}"
    )
