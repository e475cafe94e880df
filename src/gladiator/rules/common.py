"""What several rulesets share: options checked at the edge, and hexagonal arenas by size."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from pydantic import BaseModel, ValidationError

from gladiator.core import hexgrid as hg

__all__ = ["described", "hexagon_arena", "validate_options"]


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


def described(notes: Mapping[str, str]) -> Callable[[dict[str, Any]], None]:
    """A `json_schema_extra` that gives each option of the schema its one-line note as its
    `description`, so front ends (the lobby) can say what every option does."""

    def extra(schema: dict[str, Any]) -> None:
        for name, prop in schema.get("properties", {}).items():
            if name in notes:
                prop["description"] = notes[name]

    return extra
