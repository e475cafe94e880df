"""The schema of collision.toml: the Impact Factor DRMs of a collision, T12 (§8.4)."""

from __future__ import annotations

from typing import Literal, Self

from pydantic import Field, model_validator

from gladiator.rules.colosseum.tables.table_schema import (
    Dice,
    Drm,
    Strict,
    Table,
    TableFile,
    check_dice,
)


class CollisionDrms(Strict):
    heavy: Drm
    medium: Drm
    large_shield: Drm
    no_shield: Drm
    moved_forward: Drm
    moved_backward: Drm
    rolled: Drm
    kneeling_or_stumbling: Drm
    ensnared: Drm
    attempted_recover: Drm
    stun: Drm
    strength: Drm
    agility: Drm
    positional_advantage: Drm


class CollisionTable(Table):
    dice: Dice
    drms: CollisionDrms

    @model_validator(mode="after")
    def _dice(self) -> Self:
        check_dice(self.dice)
        return self


class CollisionFile(TableFile):
    schema_: Literal["gladiator.colosseum.collision"] = Field(alias="schema")
    t12: CollisionTable
