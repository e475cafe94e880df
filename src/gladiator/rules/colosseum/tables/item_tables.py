"""The schema of items.toml: recovering a dropped item T14 (§13.2), where a dropped object lands
T15 (§13.1), and the thrown items' values (§13.3).
"""

from __future__ import annotations

from typing import Literal, Self

from pydantic import Field, StrictInt, model_validator

from gladiator.rules.colosseum.tables.table_schema import (
    Dice,
    Drm,
    Strict,
    Table,
    TableFile,
    check_dice,
)
from gladiator.rules.colosseum.vocabulary import (
    RelationCode,
)


class RecoveryDrms(Strict):
    heavy: Drm
    light: Drm
    opponent_in_item_hex: Drm
    opponent_adjacent_to_item: Drm
    item_in_adjacent_hex: Drm
    item_is_net: Drm
    moved: Drm
    used_recover_action: Drm
    collided: Drm
    kneeling: Drm
    stumbling: Drm
    ensnared: Drm
    stun: Drm
    agility: Drm


class RecoveryTable(Table):
    dice: Dice
    succeeds_below: StrictInt
    drms: RecoveryDrms

    @model_validator(mode="after")
    def _dice(self) -> Self:
        check_dice(self.dice)
        return self


class DropDirection(Strict):
    printed: Literal["upper-left", "left", "lower-left", "lower-right", "right", "upper-right"]
    direction: RelationCode


class DroppedObjectTable(Table):
    direction_dice: Dice
    distance_dice: Dice
    distance_modifier: StrictInt
    max_distance: StrictInt = Field(ge=0)
    directions: dict[int, DropDirection]

    @model_validator(mode="after")
    def _one_to_one(self) -> Self:
        check_dice(self.direction_dice, self.distance_dice)
        if sorted(self.directions) != [1, 2, 3, 4, 5, 6]:
            raise ValueError("T15 needs directions for rolls 1-6")
        for attr in ("printed", "direction"):
            if len({getattr(d, attr) for d in self.directions.values()}) != 6:
                raise ValueError(f"T15 must give each roll a different {attr}")
        return self


class ThrownValues(Strict):
    thr: StrictInt = Field(ge=0)
    crt: StrictInt


class ThrownTable(Table):
    """§13.3: each basic item's Thr (throw distance bonus) and CRT value."""

    weapon: ThrownValues
    shield: ThrownValues


class ItemsFile(TableFile):
    schema_: Literal["gladiator.colosseum.items"] = Field(alias="schema")
    t14: RecoveryTable
    t15: DroppedObjectTable
    thrown: ThrownTable
