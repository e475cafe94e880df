"""Match options of the skirmish rules, checked at the edge with pydantic."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    field_validator,
    model_validator,
)

from gladiator.rules.common import described, validate_options
from gladiator.rules.skirmish.tables import tables

__all__ = ["SEAT_NAMES", "SkirmishOptions", "normalise"]

SEAT_NAMES = ("red", "blue", "green", "yellow", "purple", "orange")
SheetName = str  # a sheet file's name in data/sheets (checked against the loaded sheets)


def _two_thracians() -> list[SheetName]:
    return ["thracian", "thracian"]


# What the lobby shows beside each option (the schema's descriptions, rules.common.described).
OPTION_NOTES: dict[str, str] = {
    "gladiators": "one character sheet per gladiator in seat order (§2)",
    "arena_side": "the hexagon arena's side in hexes (§1.3)",
    "start": "apart (evenly round the centre) or engaged (face to face in the middle) (SR1)",
    "max_turns": "turns before the match is stopped as a draw (SR9)",
}


class SkirmishOptions(BaseModel):
    model_config = ConfigDict(
        extra="forbid", strict=True, json_schema_extra=described(OPTION_NOTES)
    )

    # One character sheet per gladiator, in seat order (§2; the source's sheet is the Thracian).
    gladiators: list[SheetName] = Field(default_factory=_two_thracians)
    # §1.3: the standard arena, a hexagon of side six.
    arena_side: int = Field(default=6, ge=4, le=12)
    # SR1: "apart" (evenly round the centre, 4 hexes between two) or "engaged" (two gladiators
    # face to face in the middle, for studying the exchange of blows).
    start: Literal["apart", "engaged"] = "apart"
    # SR9: turns before the match is stopped as a draw.
    max_turns: int = Field(default=60, ge=1, le=10_000)

    @field_validator("gladiators")
    @classmethod
    def _seats(cls, value: list[SheetName]) -> list[SheetName]:
        if not 2 <= len(value) <= len(SEAT_NAMES):
            raise ValueError(f"a match needs 2 to {len(SEAT_NAMES)} gladiators, not {len(value)}")
        known = tables().sheets
        for name in value:
            if name not in known:
                raise ValueError(f"no sheet {name!r}; sheets: {', '.join(sorted(known))}")
        return value

    @model_validator(mode="after")
    def _engaged_is_a_duel(self) -> SkirmishOptions:
        if self.start == "engaged" and len(self.gladiators) != 2:
            raise ValueError("start = engaged is for two gladiators")
        return self


def normalise(raw: Mapping[str, Any]) -> dict[str, Any]:
    return validate_options(SkirmishOptions, raw, "skirmish")
