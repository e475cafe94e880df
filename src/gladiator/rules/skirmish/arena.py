"""The skirmish arena (skirmish §1.3): a hexagon of the side the match options give."""

from __future__ import annotations

from gladiator.core.hexgrid import HexMap
from gladiator.rules.common import hexagon_arena
from gladiator.rules.skirmish.state import SkirmishState

__all__ = ["arena_of"]


def arena_of(state: SkirmishState) -> HexMap:
    return hexagon_arena(int(state.options["arena_side"]))
