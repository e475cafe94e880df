"""Load and check the quick rules' tables (data/tables.toml) once, at import."""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

__all__ = ["ClassTable", "QuickTables", "tables"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ClassTable(_Strict):
    section: str
    ap_modifier: int = Field(ge=-6, le=6)
    save_on: int = Field(ge=0, le=7)
    save_on_without_shield: int = Field(ge=0, le=7)
    weapon: Literal["sword", "trident"]
    off_hand: Literal["shield", "net"]


class ActionCosts(_Strict):
    section: str
    forward: int = Field(ge=0)
    other_step: int = Field(ge=0)
    pivot: int = Field(ge=0)
    strike: int = Field(ge=0)
    net_cast: int = Field(ge=0)
    strikes_per_turn: int = Field(ge=0)


class ApModifiers(_Strict):
    section: str
    lightly_wounded: int
    badly_wounded: int
    ensnared: int
    off_balance: int


class SideModifiers(_Strict):
    section: str
    front: int
    shield: int
    sword: int
    back: int
    ensnared: int
    knuckle_sandwich: int


class SpecialEvent(_Strict):
    section: str
    effect: Literal["killed", "loses_off_hand", "off_balance", "decked", "weapon_breaks"]
    who: Literal["attacker", "defender", "roll"]
    defender_on: tuple[int, ...] = ()


class NetCast(_Strict):
    section: str
    gap_target: int = Field(ge=1, le=7)
    adjacent_target: int = Field(ge=1, le=7)


class Helpless(_Strict):
    section: str
    helpless_at_or_below: int
    dead_below: int


class Crowd(_Strict):
    section: str
    thumbs_up_on: int = Field(ge=1, le=7)


class QuickTables(_Strict):
    schema_: Literal["gladiator.quick-tables"] = Field(alias="schema")
    schema_version: Literal[1]
    classes: dict[Literal["heavy", "medium", "light", "retiarius"], ClassTable]
    action_costs: ActionCosts
    ap_modifiers: ApModifiers
    side_modifiers: SideModifiers
    special_events: dict[Literal["1", "2", "3", "4", "5", "6"], SpecialEvent]
    net_cast: NetCast
    helpless: Helpless
    crowd: Crowd

    def special(self, face: int) -> SpecialEvent:
        return self.special_events[str(face)]  # type: ignore[index]


@cache
def tables() -> QuickTables:
    raw = resources.files("gladiator.rules.quick").joinpath("data/tables.toml").read_text()
    try:
        t = QuickTables.model_validate(tomllib.loads(raw))
    except ValidationError as exc:
        raise ValueError(f"quick rules tables are invalid: {exc}") from None
    if len(t.classes) != 4 or len(t.special_events) != 6:
        raise ValueError("quick rules tables need all four classes and all six doubles")
    return t
