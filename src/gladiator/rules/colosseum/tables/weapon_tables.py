"""The schema of weapons.toml: T19, the optional weapons (§21, §20.9).

A weapon's reach and conversion are checked against T40 and T6 where the whole set is loaded
(advanced_tables.py).
"""

from __future__ import annotations

from typing import Literal, Self

from pydantic import Field, StrictBool, StrictInt, StrictStr, model_validator

from gladiator.rules.colosseum.tables.table_schema import (
    Dice,
    Strict,
    Table,
    TableFile,
    check_dice,
    dice_faces,
)
from gladiator.rules.colosseum.vocabulary import CrtCode


class Breakage(Strict):
    dice: Dice
    above: StrictInt
    dropped: StrictBool = False
    fragment_dice: Dice | None = None
    fragment_usable_on: tuple[StrictInt, ...] = ()
    fragment_reach: StrictInt | None = Field(default=None, ge=1)

    @model_validator(mode="after")
    def _fragment(self) -> Self:
        check_dice(self.dice)
        parts = (self.fragment_dice, self.fragment_usable_on or None, self.fragment_reach)
        if any(p is None for p in parts) != all(p is None for p in parts):
            raise ValueError("a broken fragment needs fragment_dice, _usable_on and _reach")
        if self.fragment_dice is not None:
            faces = dice_faces(self.fragment_dice)
            if not set(self.fragment_usable_on) <= set(faces):
                raise ValueError(f"fragment_usable_on must be rolls of {self.fragment_dice}")
        return self


class Carried(Strict):
    min: StrictInt = Field(ge=1)
    max: StrictInt
    default: StrictInt

    @model_validator(mode="after")
    def _order(self) -> Self:
        if not self.min <= self.default <= self.max:
            raise ValueError("carried needs min <= default <= max")
        return self


class Weapon(Strict):
    name: StrictStr = Field(min_length=1)
    latin: StrictStr | None = None
    section: StrictStr = Field(min_length=1)
    spd: StrictInt = Field(ge=-4, le=4)
    reach: StrictInt = Field(ge=1)
    min_range: StrictInt | None = Field(default=None, ge=1)
    thr: StrictInt = Field(ge=0)
    crt: StrictInt
    notes: StrictStr
    half_cf: tuple[Literal["always", "at_range_2", "with_shield", "with_net"], ...] = ()
    two_handed: StrictBool = False
    wound_drm: StrictInt = 0
    st_bonus: StrictInt = 0
    hit_stun: Dice | None = None
    shield_damage_drm: StrictInt = 0
    conversion: StrictStr | None = None
    shield: Literal["small", "large"] | None = None
    grabs_net_on: tuple[CrtCode, ...] = ()
    net_struggle_drm: StrictInt = 0
    breaks: Breakage | None = None
    carried: Carried | None = None
    users: tuple[StrictStr, ...] = ()

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.two_handed and "with_shield" not in self.half_cf:
            raise ValueError(f"{self.name} is two-handed (2H): half CF goes with_shield")
        if self.min_range is not None and self.min_range > self.reach:
            raise ValueError(f"{self.name}: min_range {self.min_range} is beyond reach")
        if "at_range_2" in self.half_cf and self.reach < 2:
            raise ValueError(f"{self.name}: half CF at range 2 needs reach 2 or more")
        if self.hit_stun is not None:
            check_dice(self.hit_stun)
        return self


class WeaponTable(Table):
    weapons: dict[StrictStr, Weapon] = Field(min_length=1)

    @model_validator(mode="after")
    def _sword(self) -> Self:
        if "sword" not in self.weapons:
            raise ValueError("T19 must hold the standard sword")
        return self

    def weapon(self, key: str) -> Weapon:
        try:
            return self.weapons[key]
        except KeyError:
            raise ValueError(f"unknown weapon {key!r}; T19 has {sorted(self.weapons)}") from None


class WeaponsFile(TableFile):
    schema_: Literal["gladiator.colosseum.weapons"] = Field(alias="schema")
    t19: WeaponTable
