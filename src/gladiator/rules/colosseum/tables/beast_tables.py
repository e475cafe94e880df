"""The schema of beasts.toml: T21-T25 and the beasts' combat (§28)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, Self

from pydantic import Field, StrictBool, StrictInt, StrictStr, model_validator

from gladiator.rules.colosseum.tables.table_schema import (
    Dice,
    FrontName,
    Modifier,
    Strict,
    Table,
    TableFile,
    TableHex,
    check_dice,
    check_runs,
    dice_faces,
)
from gladiator.rules.colosseum.vocabulary import CrtCode

BeastArea = Literal["head", "chest", "groin", "paws", "legs"]

BEAST_AREAS: tuple[BeastArea, ...] = ("head", "chest", "groin", "paws", "legs")
# The six neighbours of a hex as fl·FL + fr·FR (F, FR, RR, R, RL, FL; FL + FR = F).
_NEIGHBOURS: tuple[tuple[int, int], ...] = ((1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1), (1, 0))


def _around(counter: Iterable[tuple[int, int]]) -> set[tuple[int, int]]:
    """The hexes touching a counter that covers these hexes."""
    cells = set(counter)
    return {(a + da, b + db) for a, b in cells for da, db in _NEIGHBOURS} - cells


class Beast(Strict):
    name: StrictStr = Field(min_length=1)
    st: StrictInt
    ag: StrictInt
    cn: StrictInt
    w: StrictInt = Field(ge=1)
    cf: StrictInt = Field(ge=1)
    hexes: Literal[1, 2]


class BeastTable(Table):
    beasts: dict[StrictStr, Beast] = Field(min_length=1)


class BeastMove(Strict):
    lo: StrictInt
    hi: StrictInt
    move: Literal["backward", "forward", "toward", "stay"]
    hexes: StrictInt = Field(ge=0, le=3)
    turn: Literal["left", "right"] | None = None
    pause: StrictBool = False
    text: StrictStr

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if (self.move == "stay") != (self.hexes == 0):
            raise ValueError(f"T22 {self.lo}-{self.hi}: a beast stays exactly when it moves 0")
        if self.pause and (self.move != "stay" or self.turn is not None):
            raise ValueError(f"T22 {self.lo}-{self.hi}: a Pause neither moves nor turns")
        if self.move == "stay" and self.turn is None and not self.pause:
            raise ValueError(f"T22 {self.lo}-{self.hi}: a row must do something (or Pause)")
        return self


class BeastMovementTable(Table):
    dice: Dice
    bear_rears_on: tuple[StrictInt, ...]
    rows: tuple[BeastMove, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _covers(self) -> Self:
        faces = dice_faces(self.dice)
        check_runs("T22", [(r.lo, r.hi) for r in self.rows], faces)
        if not set(self.bear_rears_on) <= set(faces):
            raise ValueError(f"T22 bear_rears_on must be rolls of {self.dice}")
        return self

    def row(self, roll: int) -> BeastMove:
        for row in self.rows:
            if row.lo <= roll <= row.hi:
                return row
        raise ValueError(f"beast movement roll {roll} is not a {self.dice} roll")


class BeastCollisionTable(Table):
    dice: Dice
    automatic: StrictBool
    beast: dict[StrictStr, StrictInt]
    moved: Modifier

    @model_validator(mode="after")
    def _dice(self) -> Self:
        check_dice(self.dice)
        return self


class BeastHex(TableHex):
    name: StrictStr = Field(min_length=1)
    pa: StrictInt = Field(ge=0)
    areas: tuple[StrictInt, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _areas(self) -> Self:
        if list(self.areas) != sorted(set(self.areas)) or not set(self.areas) <= {1, 2, 3, 4, 5}:
            raise ValueError(f"T24 {self.name}: areas must be distinct body areas 1-5 in order")
        return self


class BeastPaTable(Table):
    hexes: tuple[BeastHex, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _mirror(self) -> Self:
        by_hex = {h.at: h for h in self.hexes}
        if len(by_hex) != len(self.hexes):
            raise ValueError("T24 lists a hex twice")
        for h in self.hexes:
            twin = by_hex.get((h.fr, h.fl))
            if twin is None or (twin.pa, twin.areas) != (h.pa, h.areas):
                raise ValueError(f"T24 {h.name}: its mirror hex must have the same PA and areas")
        return self

    def at(self, fl: int, fr: int) -> BeastHex:
        for h in self.hexes:
            if h.at == (fl, fr):
                return h
        raise ValueError(f"hex {(fl, fr)} does not touch the beast's counter")


class BeastCriticalTable(Table):
    columns: tuple[StrictInt, ...] = Field(min_length=2)
    rows: dict[BeastArea, tuple[StrictStr, ...]]

    @model_validator(mode="after")
    def _shape(self) -> Self:
        first = self.columns[0]
        if list(self.columns) != list(range(first, first + len(self.columns))):
            raise ValueError("T25 columns must be consecutive rolls")
        if set(self.rows) != set(BEAST_AREAS):
            raise ValueError(f"T25 needs a row for every beast area {BEAST_AREAS}")
        for area, row in self.rows.items():
            if len(row) != len(self.columns):
                raise ValueError(f"T25 row {area} has {len(row)} cells, not {len(self.columns)}")
        return self

    def result(self, area: BeastArea, total: int) -> tuple[str, ...]:
        """T9b codes for RED + BLACK + wounds; the first column is 'or less', the last 'or more'."""
        i = min(max(total - self.columns[0], 0), len(self.columns) - 1)
        return tuple(self.rows[area][i].split("+"))


class RearedBear(Strict):
    areas: tuple[StrictInt, ...] = Field(min_length=1)
    cf_bonus: StrictInt
    pa_as_gladiator: StrictBool


class BeastCombatTable(Table):
    attacks_dice: Dice
    area_dice: Dice
    area_reroll: tuple[StrictInt, ...]
    split: Literal["even_earliest_first"]
    defence: StrictBool
    front: FrontName
    turns_to_attacker: StrictBool
    changes: dict[CrtCode, CrtCode]
    paws_wound_on: tuple[CrtCode, ...]
    paws_wound_as: CrtCode
    weapon_drop_on: tuple[CrtCode, ...]
    reference_weapon_drop_on: tuple[CrtCode, ...]
    reared_bear: RearedBear
    moves_every_phase: StrictBool
    endurance: StrictBool

    @model_validator(mode="after")
    def _areas(self) -> Self:
        check_dice(self.attacks_dice)
        kept = [f for f in dice_faces(self.area_dice) if f not in self.area_reroll]
        if kept != [1, 2, 3, 4, 5]:
            raise ValueError(f"beast attack areas: {self.area_dice} less re-rolls must be 1-5")
        if not set(self.reared_bear.areas) <= set(kept):
            raise ValueError("a reared bear's areas must be body areas 1-5")
        return self


class BeastsFile(TableFile):
    schema_: Literal["gladiator.colosseum.beasts"] = Field(alias="schema")
    t21: BeastTable
    t22: BeastMovementTable
    t23: BeastCollisionTable
    t24: BeastPaTable
    t24_wolf: BeastPaTable
    t25: BeastCriticalTable
    combat: BeastCombatTable

    @model_validator(mode="after")
    def _geometry(self) -> Self:
        if set(self.t23.beast) != set(self.t21.beasts):
            raise ValueError(f"T23 needs a DRM for each T21 beast {sorted(self.t21.beasts)}")
        counters = {2: [(0, 0), (-1, -1)], 1: [(0, 0)]}
        for name, table, size in (("t24", self.t24, 2), ("t24_wolf", self.t24_wolf, 1)):
            if {h.at for h in table.hexes} != _around(counters[size]):
                raise ValueError(f"{name} must list exactly the hexes touching a {size}-hex beast")
        return self

    def beast(self, key: str) -> Beast:
        try:
            return self.t21.beasts[key]
        except KeyError:
            raise ValueError(f"unknown beast {key!r}; T21 has {sorted(self.t21.beasts)}") from None

    def pa_table(self, key: str) -> BeastPaTable:
        """T24 for a two-hex beast, its one-hex proposal for the wolf (NOTE §28.3)."""
        return self.t24 if self.beast(key).hexes == 2 else self.t24_wolf
