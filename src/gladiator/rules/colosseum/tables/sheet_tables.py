"""The schema of armour.toml and physical.toml: the tables a log sheet is rolled on, T1-T3
(armour and shield by class) and T4 (physical characteristics), §3.
"""

from __future__ import annotations

import re
from typing import Any, Literal, Self

from pydantic import Field, StrictInt, model_validator

from gladiator.rules.colosseum.tables.table_schema import Strict, Table, TableFile
from gladiator.rules.colosseum.vocabulary import CLASSES, Area, GladiatorClass

# --- T1-T3 armour ---------------------------------------------------------------------------------

_ARMOUR_RE = re.compile(r"^(?:-|([ABC])([1-5])?)$")


class Armour(Strict):
    """One body area's armour: letter A/B/C or none; coverage n = partial (BLACK die <= n)."""

    letter: Literal["A", "B", "C"] | None = None
    coverage: StrictInt | None = Field(default=None, ge=1, le=5)

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, data: Any) -> Any:
        if isinstance(data, str):
            m = _ARMOUR_RE.match(data)
            if m is None:
                raise ValueError(f"armour {data!r} is not '-' or A/B/C with an optional 1-5")
            return {"letter": m[1], "coverage": int(m[2]) if m[2] else None}
        raise ValueError(f"armour must be written as text like 'B4' or '-', not {data!r}")

    def __str__(self) -> str:
        if self.letter is None:
            return "-"
        return self.letter + (str(self.coverage) if self.coverage is not None else "")


class ArmourRow(Strict):
    head: Armour
    chest: Armour
    groin: Armour
    arms: Armour
    legs: Armour
    shield: Literal["large", "small"]

    def area(self, area: Area) -> Armour:
        armour: Armour = getattr(self, area)
        return armour


class ArmourTable(Table):
    gladiator_class: GladiatorClass = Field(alias="class")
    rows: dict[int, ArmourRow]

    @model_validator(mode="after")
    def _six_rows(self) -> Self:
        if sorted(self.rows) != [1, 2, 3, 4, 5, 6]:
            raise ValueError(f"an armour table needs rows 1-6, got {sorted(self.rows)}")
        return self

    def row(self, roll: int) -> ArmourRow:
        try:
            return self.rows[roll]
        except KeyError:
            raise ValueError(f"armour roll {roll} is not 1-6") from None


class ArmourFile(TableFile):
    schema_: Literal["gladiator.colosseum.armour"] = Field(alias="schema")
    t1: ArmourTable
    t2: ArmourTable
    t3: ArmourTable

    @model_validator(mode="after")
    def _classes(self) -> Self:
        got = (self.t1.gladiator_class, self.t2.gladiator_class, self.t3.gladiator_class)
        if got != CLASSES:
            raise ValueError(f"t1, t2, t3 must be the light, medium, heavy tables, got {got}")
        return self

    def table(self, gladiator_class: GladiatorClass) -> ArmourTable:
        return (self.t1, self.t2, self.t3)[CLASSES.index(gladiator_class)]


# --- T4 physical characteristics ------------------------------------------------------------------


class PhysicalRow(Strict):
    lo: StrictInt
    hi: StrictInt
    tr: StrictInt
    st: StrictInt
    ag: StrictInt
    cn: StrictInt
    w: StrictInt


class PhysicalTable(Table):
    rows: tuple[PhysicalRow, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _covers_3d6(self) -> Self:
        expected = 3
        for row in self.rows:
            if row.lo != expected or row.hi < row.lo:
                raise ValueError(f"T4 rows must run on from roll {expected}, got {row.lo}-{row.hi}")
            expected = row.hi + 1
        if expected != 19:
            raise ValueError(f"T4 rows must end at roll 18, got {expected - 1}")
        return self

    def row(self, roll: int) -> PhysicalRow:
        for row in self.rows:
            if row.lo <= roll <= row.hi:
                return row
        raise ValueError(f"3D6 roll {roll} is not 3-18")


class PhysicalFile(TableFile):
    schema_: Literal["gladiator.colosseum.physical"] = Field(alias="schema")
    t4: PhysicalTable
