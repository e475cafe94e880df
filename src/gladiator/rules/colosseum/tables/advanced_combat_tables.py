"""The schema of advanced_combat.toml: the numbers §23 (unarmed), §24 (two weapons), §26
(cleaving) and §27 (team combat) give in their text.
"""

from __future__ import annotations

from typing import Literal, Self

from pydantic import Field, StrictBool, StrictInt, StrictStr, model_validator

from gladiator.rules.colosseum.tables.special_tables import HBonusRoll
from gladiator.rules.colosseum.tables.table_schema import Dice, Strict, Table, TableFile, check_dice
from gladiator.rules.colosseum.vocabulary import Area, CrtCode, RelationCode


class ParryWounds(Strict):
    codes: tuple[CrtCode, ...] = Field(min_length=1)
    area: Area
    as_result: CrtCode


class HitStun(HBonusRoll):
    attacker_st: StrictBool


class UnarmedTable(Table):
    reach: StrictInt = Field(ge=1)
    half_cf: StrictBool
    spd: StrictInt
    changes: dict[CrtCode, CrtCode]
    parry_wounds_attacker: ParryWounds
    hit_stun: HitStun
    critical_per_stun: StrictInt
    critical_ignored: tuple[StrictStr, ...]
    critical_fall_prone_drm: StrictInt


class PairBonus(Strict):
    cf: StrictInt = Field(ge=0)
    spd: StrictInt = 0
    weapon_drop_drm: StrictInt = 0
    same_only: StrictBool = False


class NeverPaired(Strict):
    two_handed: StrictBool
    weapons: tuple[StrictStr, ...] = ()


class TwoWeaponTable(Table):
    trained_style: StrictStr
    trained_same: PairBonus
    trained_different: PairBonus
    untrained: PairBonus
    conversion: StrictStr
    never_paired: NeverPaired


class CleavingTable(Table):
    blood_dice: Dice
    on_wound_result: Literal["kill"]
    placed_as: Literal["dropped_object"]
    stumble_check_on_entry: StrictBool

    @model_validator(mode="after")
    def _dice(self) -> Self:
        check_dice(self.blood_dice)
        return self


class TeamTable(Table):
    undefended_from: tuple[RelationCode, ...]
    pa_to_one_attack: StrictBool
    adjacent_unattacked_first: StrictBool


class AdvancedCombatFile(TableFile):
    schema_: Literal["gladiator.colosseum.advanced-combat"] = Field(alias="schema")
    unarmed: UnarmedTable
    two_weapon: TwoWeaponTable
    cleaving: CleavingTable
    team: TeamTable
