"""How a quick-rules match looks in text: the hex map with facings, and a status line per figure."""

from __future__ import annotations

from gladiator.core import hexgrid as hg
from gladiator.core.textmap import ARROWS, draw
from gladiator.rules.quick.state import Fighter, QuickState
from gladiator.rules.quick.tables import tables

__all__ = ["render_board", "status_line"]


def _arena(state: QuickState) -> hg.HexMap:
    from gladiator.rules.quick.engine import arena_of

    return arena_of(state)


def render_board(state: QuickState, marks: dict[hg.Hex, str] | None = None) -> str:
    """The arena as a text hex map.

    A figure shows as its seat's initial (lower case when helpless) and an arrow for its facing;
    `marks` puts a character on other hexes (legal destinations, say).
    """
    figures = {f.hex: f for f in state.fighters.values() if f.on_board}

    def cell(h: hg.Hex) -> str:
        if h in figures:
            f = figures[h]
            return (f.seat[0].upper() if f.fighting else f.seat[0]) + ARROWS[f.facing]
        if marks and h in marks:
            return marks[h]
        return "·"

    return draw(_arena(state).hexes, cell)


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
