"""Every order text that can ever be legal in a quick-rules or skirmish match, listed up front
(RL2): the fixed action vocabularies. A test plays many random matches and checks that no
decision ever offers an order outside them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gladiator.rules.common import hexagon_arena
from gladiator.rules.quick.board import STEPS
from gladiator.rules.quick.options import SEAT_NAMES as QUICK_SEATS
from gladiator.rules.skirmish.tables import tables as skirmish_tables

__all__ = ["quick_vocabulary", "skirmish_vocabulary"]


def quick_vocabulary(options: Mapping[str, Any]) -> list[str]:
    """§5.2 steps, pivots, a strike and a net cast (at the lone target, or at each seat by
    name when several are in reach), the end of the turn, and QR6's thumbs."""
    seats = QUICK_SEATS[: len(options["gladiators"])]
    out = [*STEPS, "L", "R", "ST", "NET"]
    out += [f"ST>{s}" for s in seats] + [f"NET>{s}" for s in seats]
    return [*out, "E", "UP", "DOWN"]


# skirmish §2.5.4, §8: the facing changes after a move (engine._FACING_TEXT's values)
_FACINGS = ("KEEP", "R", "RR", "RRR", "L", "LL", "LLL")


def skirmish_vocabulary(options: Mapping[str, Any]) -> list[str]:
    """Every move code on any sheet (written, performed or converted), the initiative winner's
    FIRST/SECOND, the facings after a move, and every hex of the arena as `q,r` (a hex to move
    into or a target's hex: PickHex)."""
    codes = [m.code for sheet in skirmish_tables().sheets.values() for m in sheet.moves]
    arena = sorted(hexagon_arena(int(options["arena_side"])).hexes)
    hexes = [f"{h.q},{h.r}" for h in arena]
    return [*dict.fromkeys(codes), "FIRST", "SECOND", *_FACINGS, *hexes]
