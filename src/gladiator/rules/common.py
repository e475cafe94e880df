"""What several rulesets share: options checked at the edge, and hexagonal arenas by size."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from pydantic import BaseModel, ValidationError

from gladiator.core import hexgrid as hg

__all__ = ["hexagon_arena", "validate_options"]


def validate_options(
    model: type[BaseModel], raw: Mapping[str, Any], ruleset: str
) -> dict[str, Any]:
    """The options with their defaults filled in, or a one-line ValueError naming the option."""
    try:
        return model.model_validate(dict(raw)).model_dump()
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "options"
        msg = " ".join(str(first["msg"]).removeprefix("Value error, ").split())
        raise ValueError(f"bad {ruleset} option {where}: {msg}") from None


@cache
def hexagon_arena(side: int) -> hg.HexMap:
    """A hexagonal arena of `side` hexes a side, built once per size."""
    return hg.hexagon(side)
