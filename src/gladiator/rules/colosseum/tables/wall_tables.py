"""The schema of wall_collision.toml: T13, a gladiator's collision with the arena wall (§25.4)."""

from __future__ import annotations

from typing import Literal, Self

from pydantic import Field, model_validator

from gladiator.rules.colosseum.tables.table_schema import (
    Dice,
    Modifier,
    Strict,
    Table,
    TableFile,
    check_dice,
)


class WallDrms(Strict):
    moved_forward: Modifier
    pushed: Modifier
    agility: Modifier


class WallCollisionTable(Table):
    dice: Dice
    roll_on: Literal["stun"]
    drms: WallDrms

    @model_validator(mode="after")
    def _dice(self) -> Self:
        check_dice(self.dice)
        return self


class WallCollisionFile(TableFile):
    schema_: Literal["gladiator.colosseum.wall-collision"] = Field(alias="schema")
    t13: WallCollisionTable
