"""How a Colosseum match looks in text: the arena around the fighters as an odd-q hex map (as the
skirmish presentation draws it), a status line per gladiator, and both log sheets (§3)."""

from __future__ import annotations

from gladiator.core import hexgrid as hg
from gladiator.core.textmap import ARROWS, draw
from gladiator.rules.colosseum.logsheet import render_text as render_sheet
from gladiator.rules.colosseum.state import ColosseumState, Gladiator

__all__ = ["render", "status_line"]

MARGIN = 3  # hexes of arena shown around the fighters


def render(state: ColosseumState, seat: str | None) -> str:
    from gladiator.rules.colosseum.engine import board_of

    board = board_of(state)
    figures = {g.hex: g for g in state.gladiators.values()}
    items = {i.hex: i for i in state.items}
    spots = [hg.to_offset(h) for h in (*figures, *items)]
    c_lo = min(c for c, _ in spots) - MARGIN
    c_hi = max(c for c, _ in spots) + MARGIN
    r_lo = min(r for _, r in spots) - MARGIN
    r_hi = max(r for _, r in spots) + MARGIN
    window = (hg.from_offset(c, r) for c in range(c_lo, c_hi + 1) for r in range(r_lo, r_hi + 1))

    def cell(h: hg.Hex) -> str:
        if h in figures:
            g = figures[h]
            if g.posture == "prone":
                return g.seat[0] + "_"
            if g.posture == "kneeling":
                return g.seat[0] + ARROWS[g.facing]
            return (g.seat[0].upper() if g.alive else "+") + ARROWS[g.facing]
        if h in items:
            return "w" if items[h].item == "weapon" else "o"
        return "·"

    board_text = draw((h for h in window if h in board), cell).strip("\n")
    head = f"Turn {state.turn}, phase {state.phase} · {state.step}"
    if state.step == "over":
        head += f" · {state.end_method}: {state.end_summary}"
    lines = [status_line(g) for g in state.gladiators.values()]
    sheets = [render_sheet(g.sheet) for g in state.gladiators.values()]
    return "\n\n".join([head, board_text, "\n".join(lines), *sheets])


def status_line(g: Gladiator) -> str:
    if not g.alive:
        return f"{g.seat:<5} dead: {g.cause}"
    s = g.sheet
    flags: list[str] = [g.posture]
    if s.unconscious:
        flags.append("unconscious")
    if g.must_stumble:
        flags.append("must stumble")
    if not g.has_weapon:
        flags.append("no weapon")
    if not g.has_shield or s.shield_useless:
        flags.append("no shield")
    return (
        f"{g.seat:<5} {s.gladiator_class:<6} CF {s.current_cf:>2}/{s.cf:<2} Stun "
        f"{s.stun_in_effect} wounds {sum(s.wounds)} moves {g.moves_used}/{s.move} at "
        f"{g.hex.q},{g.hex.r} facing {hg.DIRECTION_NAMES[g.facing]}; {', '.join(flags)}"
    )
