"""How a skirmish match looks in text: the hex map with facings and a status line per figure."""

from __future__ import annotations

from gladiator.core import hexgrid as hg
from gladiator.core.textmap import ARROWS, draw
from gladiator.rules.skirmish.state import Fighter, SkirmishState

__all__ = ["render", "status_line"]


def render(state: SkirmishState, seat: str | None) -> str:
    from gladiator.rules.skirmish.engine import arena_of

    figures = {f.hex: f for f in state.fighters.values() if f.alive}
    nets = set(state.nets)

    def cell(h: hg.Hex) -> str:
        if h in figures:
            f = figures[h]
            return (f.seat[0].upper() + ARROWS[f.facing]) if not f.floored else f.seat[0] + "_"
        return "#" if h in nets else "·"

    board = draw(arena_of(state).hexes, cell)
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
