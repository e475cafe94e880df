"""The quick rules' arena (quick §2.1, QR1): a hexagon of the side the match options give."""

from __future__ import annotations

from gladiator.core.hexgrid import HexMap
from gladiator.rules.common import hexagon_arena
from gladiator.rules.quick.state import QuickState

__all__ = ["arena_of"]


def arena_of(state: QuickState) -> HexMap:
    return hexagon_arena(int(state.options["arena_side"]))
