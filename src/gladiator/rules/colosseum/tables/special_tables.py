"""The schema of specials.toml: T20, the special attacks and defences (§22)."""

from __future__ import annotations

from typing import Literal, Self

from pydantic import Field, StrictInt, StrictStr, model_validator

from gladiator.rules.colosseum.tables.table_schema import Dice, Strict, Table, TableFile, check_dice
from gladiator.rules.colosseum.vocabulary import AREAS, Area, CrtCode

SpecialAttackCode = Literal["A", "F", "S", "H", "T"]
SpecialDefenceCode = Literal["D", "B", "K", "P", "L"]
Requirement = Literal[
    "on_feet", "not_prone", "has_shield", "has_weapon", "not_stunned", "not_stumbling"
]
CfSource = Literal["arms", "legs", "endurance"]


class CfLost(Strict):
    sources: tuple[CfSource, ...] = Field(alias="from", min_length=1)
    below: StrictInt = Field(ge=1)


class HBonusDrm(Strict):
    drm: StrictInt = 0
    per_h_bonus: StrictInt


class CounterAttack(Strict):
    cf: StrictInt = Field(ge=1)
    per_h_bonus: StrictInt


class HBonusRoll(Strict):
    dice: Dice
    per_h_bonus: StrictInt

    @model_validator(mode="after")
    def _dice(self) -> Self:
        check_dice(self.dice)
        return self


class CfLoss(HBonusRoll):
    who: Literal["defender", "attacker"]


class ReferenceSheet(Strict):
    """What the reference sheet prints where it differs from the rules text."""

    requires: tuple[Requirement, ...] | None = None
    cf_lost: CfLost | None = None
    auto: CrtCode | None = None
    cf_loss_dice: Dice | None = None


class SpecialAttack(Strict):
    name: StrictStr = Field(min_length=1)
    section: StrictStr = Field(min_length=1)
    area: Area | Literal["any"]
    requires: tuple[Requirement, ...] = ()
    cf_lost: CfLost | None = None
    reach: StrictInt | None = Field(default=None, ge=1)
    h_becomes: CrtCode | None = None
    damage: Literal["full", "half", "none"]
    other_results: Literal["normal", "none"] = "normal"
    weapon_drop: HBonusDrm | None = None
    counter: CounterAttack | None = None
    stumble: HBonusDrm | None = None
    stun: HBonusRoll | None = None
    cf_loss: CfLoss | None = None
    reference_sheet: ReferenceSheet | None = None


class SpecialDefence(Strict):
    name: StrictStr = Field(min_length=1)
    section: StrictStr = Field(min_length=1)
    area: Area
    requires: tuple[Requirement, ...] = ()
    cf_lost: CfLost | None = None
    auto: CrtCode
    reference_sheet: ReferenceSheet | None = None


class SpecialsTable(Table):
    attacks_per_phase: StrictInt = Field(ge=1)
    defences_per_phase: StrictInt = Field(ge=1)
    defence_cost_cf: StrictInt = Field(ge=1)
    attacks: dict[SpecialAttackCode, SpecialAttack]
    defences: dict[SpecialDefenceCode, SpecialDefence]

    @model_validator(mode="after")
    def _complete(self) -> Self:
        if set(self.attacks) != {"A", "F", "S", "H", "T"}:
            raise ValueError(f"T20 needs special attacks A F S H T, got {sorted(self.attacks)}")
        if set(self.defences) != {"D", "B", "K", "P", "L"}:
            raise ValueError(f"T20 needs special defences D B K P L, got {sorted(self.defences)}")
        areas = sorted(d.area for d in self.defences.values())
        if areas != sorted(AREAS):
            raise ValueError(f"T20's special defences must protect one area each, got {areas}")
        return self


class SpecialsFile(TableFile):
    schema_: Literal["gladiator.colosseum.specials"] = Field(alias="schema")
    t20: SpecialsTable
