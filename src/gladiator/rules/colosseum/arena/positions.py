"""Where a figure stands: a hex and the hex-side he faces (§6.1), checked at the edges."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from gladiator.core.hexgrid import Hex

__all__ = ["Position", "as_position", "hex_text"]


class Position(NamedTuple):
    """Where a figure stands and which hex-side he faces (the same shape as a plot's pose)."""

    hex: Hex
    facing: int


def hex_text(h: Hex) -> str:
    return f"{h[0]},{h[1]}"


def as_position(pose: Sequence[Any]) -> Position:
    if len(pose) != 2:
        raise ValueError(f"a position is (hex, facing), got {pose!r}")
    raw_hex, facing = pose
    if (  # the engine's own poses: checked without a generator, as this runs every step
        type(raw_hex) is Hex
        and type(raw_hex.q) is int
        and type(raw_hex.r) is int
        and type(facing) is int
        and 0 <= facing < 6
    ):
        return Position(raw_hex, facing)
    if len(raw_hex) != 2 or not all(
        isinstance(c, int) and not isinstance(c, bool) for c in raw_hex
    ):
        raise ValueError(f"a hex is (q, r) integers, got {raw_hex!r}")
    # §6.1: a figure always faces one of the six hex-sides, never a corner.
    if isinstance(facing, bool) or not isinstance(facing, int) or not 0 <= facing < 6:
        raise ValueError(f"a facing is an integer 0..5, got {facing!r}")
    return Position(Hex(raw_hex[0], raw_hex[1]), facing)
