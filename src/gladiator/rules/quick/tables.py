"""Load and check the quick rules' tables (data/tables.toml) once, at import."""

from __future__ import annotations

import hashlib
import tomllib
from functools import cache
from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

__all__ = ["ClassTable", "QuickTables", "digest", "parse", "tables"]


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


class RandomClass(_Strict):
    section: str
    classes: tuple[Literal["heavy", "medium", "light", "retiarius"], ...] = Field(min_length=1)


class Setup(_Strict):
    section: str
    start_ring_radius: int = Field(ge=1, le=10)


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
    random_class: RandomClass
    setup: Setup

    def special(self, face: int) -> SpecialEvent:
        return self.special_events[str(face)]  # type: ignore[index]

    def kit(self, cls: str) -> ClassTable:
        return self.classes[cls]  # type: ignore[index]

    @model_validator(mode="after")
    def _consistent(self) -> QuickTables:
        if self.helpless.dead_below >= self.helpless.helpless_at_or_below:
            raise ValueError("helpless.dead_below must be below helpless_at_or_below")
        for face, row in self.special_events.items():
            if any(not 1 <= v <= 6 for v in row.defender_on):
                raise ValueError(f"special_events.{face}.defender_on must hold faces 1..6")
            if row.who == "roll" and not row.defender_on:
                raise ValueError(f"special_events.{face}: who = 'roll' needs defender_on")
        return self


def raw_text() -> str:
    return resources.files("gladiator.rules.quick").joinpath("data/tables.toml").read_text()


def parse(text: str) -> QuickTables:
    """Check a tables file; raise ValueError with a one-line message if it is not usable."""
    try:
        t = QuickTables.model_validate(tomllib.loads(text))
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"quick rules tables are not TOML: {exc}") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ValueError(f"quick rules tables are invalid at {where}: {first['msg']}") from None
    if len(t.classes) != 4 or len(t.special_events) != 6:
        raise ValueError("quick rules tables need all four classes and all six doubles")
    return t


@cache
def tables() -> QuickTables:
    return parse(raw_text())


@cache
def digest() -> str:
    """A hash of the tables in force, kept in every record: a record made under other tables
    is refused instead of replaying under rules it was not played by."""
    return hashlib.sha256(raw_text().encode()).hexdigest()
