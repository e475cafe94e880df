"""Match options of the quick rules, checked at the edge with pydantic."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from gladiator.rules.common import described, validate_options

__all__ = ["SEAT_NAMES", "QuickOptions", "normalise"]

SEAT_NAMES = ("red", "blue", "green", "yellow", "purple", "orange")
ClassName = Literal["heavy", "medium", "light", "retiarius", "random"]


def _two_random() -> list[ClassName]:
    return ["random", "random"]


# What the lobby shows beside each option (the schema's descriptions, rules.common.described).
OPTION_NOTES: dict[str, str] = {
    "gladiators": "one class per gladiator in seat order; random rolls it (QR11)",
    "arena_side": "the hexagon arena's side in hexes (QR1)",
    "fate": "who turns the thumbs for a helpless man: auto, victor, crowd or vote (QR6)",
    "strike_arc": "which adjacent hexes a gladiator may strike into: his front only, or any (QR5)",
    "net_casts_per_turn": "how many times a Retiarius may cast his net in one turn (QR8)",
    "max_rounds": "rounds before the match is stopped as a draw (QR12)",
}


class QuickOptions(BaseModel):
    # Strict: `true` is not a number of rounds, "3" is not a side length.
    model_config = ConfigDict(
        extra="forbid", strict=True, json_schema_extra=described(OPTION_NOTES)
    )

    # One entry per gladiator, in seat order (red, blue, ...). "random" rolls the class (QR11).
    gladiators: list[ClassName] = Field(default_factory=_two_random)
    # QR1: the hexagon sheet's size (side length in hexes).
    arena_side: int = Field(default=6, ge=4, le=12)
    # QR6: who turns the thumbs for a helpless gladiator.
    fate: Literal["auto", "victor", "crowd", "vote"] = "auto"
    # QR5: which adjacent hexes an attacker may strike into.
    strike_arc: Literal["front", "any"] = "front"
    # QR8: net casts allowed per turn.
    net_casts_per_turn: int = Field(default=1, ge=1, le=3)
    # QR12: rounds (every gladiator one turn) before the match is stopped as a draw.
    max_rounds: int = Field(default=100, ge=1, le=10_000)

    @field_validator("gladiators")
    @classmethod
    def _seats(cls, value: list[ClassName]) -> list[ClassName]:
        if not 2 <= len(value) <= len(SEAT_NAMES):
            raise ValueError(f"a match needs 2 to {len(SEAT_NAMES)} gladiators, not {len(value)}")
        return value


def normalise(raw: Mapping[str, Any]) -> dict[str, Any]:
    return validate_options(QuickOptions, raw, "quick")
