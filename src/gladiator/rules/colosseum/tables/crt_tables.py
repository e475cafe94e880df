"""The schema of crt.toml, crt_reference_sheet.toml and results.toml: the Combat Results Table
T5 (§9.5) and the results T6 (§9.6).
"""

from __future__ import annotations

import re
from typing import Any, Literal, Self

from pydantic import Field, StrictBool, StrictInt, StrictStr, model_validator

from gladiator.rules.colosseum.tables.table_schema import (
    Strict,
    Table,
    TableFile,
)
from gladiator.rules.colosseum.vocabulary import (
    CrtCode,
    CrtVariant,
)

# --- T5 CRT, T6 results ---------------------------------------------------------------------------

_CRT_RE = re.compile(r"^(F|-|S\*?|P\*?|H)([+-]\d+)?$")


class CrtResult(Strict):
    """One CRT cell: a T6 code, and for H the wound-roll DRM printed after it."""

    code: CrtCode
    modifier: StrictInt = 0

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, data: Any) -> Any:
        if isinstance(data, str):
            m = _CRT_RE.match(data)
            if m is None or (m[2] is not None and m[1] != "H"):
                raise ValueError(f"CRT cell {data!r} is not F, -, S, S*, P, P* or H with a DRM")
            return {"code": m[1], "modifier": int(m[2]) if m[2] else 0}
        raise ValueError(f"a CRT cell must be written as text like 'H-2', not {data!r}")

    def __str__(self) -> str:
        return self.code + (f"{self.modifier:+d}" if self.modifier else "")


class CrtTable(Table):
    variant: CrtVariant
    recommended: StrictBool
    columns: tuple[StrictInt, ...]
    rows: dict[int, tuple[CrtResult, ...]]

    @model_validator(mode="after")
    def _shape(self) -> Self:
        if self.columns != (1, 2, 3, 4, 5, 6, 7, 8):
            raise ValueError(f"the CRT's columns must be 1-8, got {list(self.columns)}")
        if sorted(self.rows) != list(range(3, 19)):
            missing = sorted(set(range(3, 19)) - set(self.rows))
            raise ValueError(f"the CRT needs a row for every 3D6 roll 3-18, missing {missing}")
        for roll, row in self.rows.items():
            if len(row) != len(self.columns):
                raise ValueError(f"CRT row {roll} has {len(row)} cells, not {len(self.columns)}")
        return self

    @property
    def min_roll(self) -> int:
        return 3

    @property
    def max_roll(self) -> int:
        """The last row, read as 'this or more' (18+)."""
        return 18

    def result(self, column: int, total: int) -> CrtResult:
        """The cell for a column 1-8 and a modified roll already clamped to 3-18."""
        if not 1 <= column <= 8:
            raise ValueError(f"CRT column {column} is not 1-8 (clamp it first, §9.5.3/§9.5.4)")
        row = self.rows.get(total)
        if row is None:
            raise ValueError(f"CRT roll {total} is not 3-18 (clamp it first, Q27)")
        return row[column - 1]


class CrtFile(TableFile):
    schema_: Literal["gladiator.colosseum.crt"] = Field(alias="schema")
    t5: CrtTable


class ResultCode(Strict):
    name: StrictStr
    section: StrictStr
    effect: StrictStr
    if_lacking: Literal["shield", "weapon", "weapon_or_shield"] | None = None
    becomes: CrtCode | None = None

    @model_validator(mode="after")
    def _pair(self) -> Self:
        if (self.if_lacking is None) != (self.becomes is None):
            raise ValueError("if_lacking and becomes go together")
        return self


class Conversion(Strict):
    section: StrictStr
    game: Literal["basic", "advanced"]
    source_note: StrictStr | None = None
    changes: dict[CrtCode, CrtCode]


class ResultsTable(Table):
    attacker_order: tuple[CrtCode, ...]
    ladder: tuple[CrtCode, ...]
    codes: dict[CrtCode, ResultCode]
    conversions: dict[str, Conversion] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _complete(self) -> Self:
        every = {"F", "-", "S", "S*", "P", "P*", "H"}
        if set(self.codes) != every:
            raise ValueError(f"T6 must describe every CRT code, missing {every - set(self.codes)}")
        if sorted(self.attacker_order) != sorted(every):
            raise ValueError("T6 attacker_order must list every CRT code once")
        positions = [self.attacker_order.index(c) for c in self.ladder]
        if positions != sorted(positions) or len(set(self.ladder)) != len(self.ladder):
            raise ValueError("T6 ladder must follow attacker_order")
        return self

    def rank(self, result: CrtResult) -> tuple[int, int]:
        """Sort key, worst to best for the attacker: the code's place, then the H modifier."""
        return (self.attacker_order.index(result.code), result.modifier)


class ResultsFile(TableFile):
    schema_: Literal["gladiator.colosseum.results"] = Field(alias="schema")
    t6: ResultsTable
