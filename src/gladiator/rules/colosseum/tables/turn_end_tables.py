"""The schema of turn_end.toml: endurance at the end of a turn (§17, §5.4) and the stans missus
roll (§5.4.1).
"""

from __future__ import annotations

from typing import Literal, Self

from pydantic import Field, StrictInt, model_validator

from gladiator.rules.colosseum.tables.table_schema import (
    Dice,
    Table,
    TableFile,
    check_dice,
)


class Endurance(Table):
    dice: Dice
    constant: StrictInt
    reference_sheet_constant: StrictInt
    exceeded_extra_phases: StrictInt = Field(ge=0)
    exceeded_turn_bonus: StrictInt = Field(ge=0)
    exceeded_next_turn_penalty: StrictInt = Field(ge=0)

    @model_validator(mode="after")
    def _dice(self) -> Self:
        check_dice(self.dice)
        return self


class StansMissus(Table):
    dice: Dice
    first_turn: StrictInt = Field(ge=1)
    stopped_if_above: StrictInt

    @model_validator(mode="after")
    def _dice(self) -> Self:
        check_dice(self.dice)
        return self


class TurnEndFile(TableFile):
    schema_: Literal["gladiator.colosseum.turn-end"] = Field(alias="schema")
    endurance: Endurance
    stans_missus: StansMissus
