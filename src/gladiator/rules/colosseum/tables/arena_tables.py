"""The schema of arena.toml and actions.toml: the arena's size T38 (§25.2, §7.1) and the actions a
figure takes in it, T39 with the move rates (§7, §3.5).
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
)
from gladiator.rules.colosseum.vocabulary import (
    ActionCode,
    RelationCode,
)

_ACTION_CODES: frozenset[str] = frozenset(
    ("F", "B", "SFL", "SFR", "SBL", "SBR", "C", "KN", "R", "RO", "S", "X")
)


# --- T38 arena, T39 actions, T40 combat front -----------------------------------------------------


class ArenaTable(Table):
    dice: Dice
    modifier: StrictInt
    sizes: tuple[StrictInt, ...] = Field(min_length=1)
    colosseum: StrictInt
    fighting_pit: StrictInt
    wall_dice: Dice
    wall_if_above: StrictInt

    @model_validator(mode="after")
    def _sizes(self) -> Self:
        check_dice(self.dice, self.wall_dice)
        if self.colosseum not in self.sizes or self.fighting_pit not in self.sizes:
            raise ValueError("T38's colosseum and fighting_pit must be among its sizes")
        return self


class ArenaFile(TableFile):
    schema_: Literal["gladiator.colosseum.arena"] = Field(alias="schema")
    t38: ArenaTable


class Action(Strict):
    name: StrictStr
    kind: Literal["movement", "special"]
    hexes: StrictInt = Field(ge=0)
    directions: tuple[RelationCode, ...] = ()
    rotation: StrictInt = Field(ge=0, le=3)
    # §7.4 NOTE, §15.6 (2nd): no movement phase used without a rotation; so a forced Stumble
    # leaves his movement phases as they were (§15.3.1).
    free_without_rotation: StrictBool = False
    prone_only: StrictBool = False
    source_note: StrictStr | None = None

    @model_validator(mode="after")
    def _moves_somewhere(self) -> Self:
        if (self.hexes > 0) != bool(self.directions):
            raise ValueError(f"action {self.name}: a move of {self.hexes} hexes needs directions")
        return self


class ActionsTable(Table):
    max_movement_actions: StrictInt = Field(ge=1)
    max_special_actions: StrictInt = Field(ge=1)
    actions: dict[ActionCode, Action]

    @model_validator(mode="after")
    def _all_codes(self) -> Self:
        missing = _ACTION_CODES - set(self.actions)
        if missing:
            raise ValueError(f"T39 lacks actions {sorted(missing)}")
        return self


class MoveRates(Table):
    light: StrictInt = Field(ge=0, le=8)
    medium: StrictInt = Field(ge=0, le=8)
    heavy: StrictInt = Field(ge=0, le=8)


class ActionsFile(TableFile):
    schema_: Literal["gladiator.colosseum.actions"] = Field(alias="schema")
    t39: ActionsTable
    move_rates: MoveRates
