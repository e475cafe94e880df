"""Load and check the skirmish tables (data/*.toml): zones, combat matrix, result table, sheets.

All of them are designed (the source left its tables out): docs/skirmish-design.md gives the
reasons. They are read once and checked at load; a broken file is refused in one line.
"""

from __future__ import annotations

import hashlib
import tomllib
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

__all__ = [
    "EASE",
    "RESULTS",
    "SEVERITY",
    "Move",
    "Sheet",
    "SkirmishTables",
    "digest",
    "parse",
    "tables",
]

EASE = ("D", "F", "E")  # hardest to easiest: index = how easy
SEVERITY = ("L", "M", "S")  # lightest to most severe
PROTECTION = ("U", "P", "A", "H")
RESULTS = ("blank", "S", "N", "C", "W", "D")
ZoneName = Literal["A", "B", "C", "D", "E", "F", "G", "H"]
RelCode = Literal["F", "FR", "RR", "R", "RL", "FL"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Zones(_Strict):
    schema_: Literal["gladiator.skirmish-zones"] = Field(alias="schema")
    schema_version: Literal[1]
    section: str
    zones: dict[ZoneName, tuple[RelCode, ...]]
    rear: tuple[ZoneName, ...]


class Modifier(_Strict):
    ease: int
    severity: int


class Struggle(_Strict):
    code: str
    name: str
    stun: bool
    initiative: int
    facing: int


class Net(_Strict):
    entangle_on: dict[Literal["E", "F", "D"], int]
    entangled_moves: tuple[str, ...]
    struggle_free_on: int = Field(ge=1, le=7)
    struggle: Struggle


class Matrix(_Strict):
    schema_: Literal["gladiator.skirmish-matrix"] = Field(alias="schema")
    schema_version: Literal[1]
    section: str
    rear_column: str
    matrix: dict[str, dict[str, str]]
    modifiers: dict[
        Literal["target_floored", "behind_target", "target_entangled", "converted_attack"],
        Modifier,
    ]
    net: Net

    @model_validator(mode="after")
    def _codes(self) -> Matrix:
        columns: set[str] | None = None
        for attack, row in self.matrix.items():
            if columns is None:
                columns = set(row)
            elif set(row) != columns:
                raise ValueError(f"matrix row {attack} has other columns than the first row")
            for col, code in row.items():
                if code != "-" and (
                    len(code) != 2 or code[0] not in EASE or code[1] not in SEVERITY
                ):
                    raise ValueError(f"matrix {attack} vs {col}: {code!r} is not '-' or a code")
        if columns is None or self.rear_column not in columns:
            raise ValueError("the matrix needs the rear column among its columns")
        return self


class Results(_Strict):
    schema_: Literal["gladiator.skirmish-results"] = Field(alias="schema")
    schema_version: Literal[1]
    section: str
    order: tuple[str, ...]
    severities: tuple[str, ...]
    protections: tuple[str, ...]
    rows: dict[str, dict[Literal["blank", "S", "N", "C", "W", "D"], tuple[int, int]]]

    @model_validator(mode="after")
    def _rows(self) -> Results:
        want = [e + s + p for e in "EFD" for s in SEVERITY for p in PROTECTION]
        if list(self.rows) != want:
            raise ValueError("result rows must be the 36 of ease x severity x protection in order")
        for name, row in self.rows.items():
            at = 1
            for result in RESULTS:
                if result not in row:
                    continue
                lo, hi = row[result]
                if lo != at or hi < lo:
                    raise ValueError(f"result row {name}: {result} should start at {at}")
                at = hi + 1
            if at != 21:
                raise ValueError(f"result row {name} must cover the d20 from 1 to 20")
        return self

    def lookup(self, row: str, d20: int) -> str:
        for result, (lo, hi) in self.rows[row].items():
            if lo <= d20 <= hi:
                return result
        raise ValueError(f"no result for {d20} on row {row}")


class Move(_Strict):
    code: str = Field(pattern=r"^[A-Z]{2}$")
    name: str
    stun: bool
    initiative: int
    move_zone: tuple[ZoneName, ...] = ()
    move_fallback: tuple[ZoneName, ...] = ()
    facing: int = Field(ge=0, le=3)
    turn: Literal["any", "left", "right"] = "any"
    attack_zone: tuple[ZoneName, ...] = ()
    converted: tuple[str, ...] = ()
    prohibited: tuple[str, ...] = ()
    effect: Literal["", "entangle", "reclaim", "struggle", "get_up"] = ""
    # §7.3: a floored man's kick may go into any adjacent hex.
    floored_reach_all_round: bool = False

    @property
    def is_attack(self) -> bool:
        return bool(self.attack_zone)


class WoundBox(_Strict):
    box: Literal["nick", "cut", "wound"]
    hp: int = Field(ge=0)
    initiative: int
    hit: int = 0
    damage: int = 0
    against: int = 0
    fall: int = Field(default=0, ge=0, le=6)
    bleeding: bool = False


class Sheet(_Strict):
    schema_: Literal["gladiator.skirmish-sheet"] = Field(alias="schema")
    schema_version: Literal[1]
    section: str
    type: str
    protection: str
    protection_class: Literal["U", "P", "A", "H"]
    basic_initiative: int = Field(ge=1, le=6)
    weapons: str
    hit_points: str
    floored_moves: tuple[str, ...]
    boxes: tuple[str, ...]
    moves: tuple[Move, ...]
    wound_track: tuple[WoundBox, ...]

    @model_validator(mode="after")
    def _consistent(self) -> Sheet:
        codes = [m.code for m in self.moves]
        if len(set(codes)) != len(codes):
            raise ValueError(f"{self.type}: a move code is listed twice")
        known = set(codes)
        for m in self.moves:
            for ref in (*m.converted, *m.prohibited):
                if ref not in known:
                    raise ValueError(f"{self.type} {m.code} names an unknown move {ref}")
        for ref in self.floored_moves:
            if ref not in known:
                raise ValueError(f"{self.type}: floored move {ref} is not on the sheet")
        kinds = [b.box for b in self.wound_track]
        if kinds != ["nick", "nick", "cut", "cut", "wound", "wound"]:
            raise ValueError(f"{self.type}: the wound track is two nicks, two cuts, two wounds")
        return self

    def move(self, code: str) -> Move:
        for m in self.moves:
            if m.code == code:
                return m
        raise KeyError(code)


class SkirmishTables(BaseModel):
    model_config = ConfigDict(frozen=True)

    zones: Zones
    matrix: Matrix
    results: Results
    sheets: dict[str, Sheet]

    @model_validator(mode="after")
    def _cross(self) -> SkirmishTables:
        columns = set(next(iter(self.matrix.matrix.values())))
        for name, sheet in self.sheets.items():
            for m in sheet.moves:
                if m.code not in columns and m.code != self.matrix.net.struggle.code:
                    raise ValueError(f"{name}: move {m.code} has no column in the matrix")
                if m.is_attack and m.code not in self.matrix.matrix:
                    raise ValueError(f"{name}: attack {m.code} has no row in the matrix")
        return self


def _read(node: Traversable) -> dict[str, Any]:
    try:
        return tomllib.loads(node.read_text())
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"skirmish table {node.name} is not TOML: {exc}") from None


def parse(files: dict[str, dict[str, Any]]) -> SkirmishTables:
    """Check raw tables (file stem -> parsed TOML); one-line ValueError if unusable."""
    try:
        sheets = {
            k.removeprefix("sheets/"): Sheet.model_validate(v)
            for k, v in files.items()
            if k.startswith("sheets/")
        }
        return SkirmishTables(
            zones=Zones.model_validate(files["zones"]),
            matrix=Matrix.model_validate(files["matrix"]),
            results=Results.model_validate(files["results"]),
            sheets=sheets,
        )
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        msg = str(first["msg"]).removeprefix("Value error, ")
        raise ValueError(f"skirmish tables are invalid at {where}: {msg}") from None
    except KeyError as exc:
        raise ValueError(f"skirmish tables: the file {exc.args[0]}.toml is missing") from None


def raw_files() -> dict[str, dict[str, Any]]:
    root = resources.files("gladiator.rules.skirmish").joinpath("data")
    files = {
        p.name.removesuffix(".toml"): _read(p) for p in root.iterdir() if p.name.endswith(".toml")
    }
    for p in root.joinpath("sheets").iterdir():
        if p.name.endswith(".toml"):
            files["sheets/" + p.name.removesuffix(".toml")] = _read(p)
    return files


@cache
def tables() -> SkirmishTables:
    return parse(raw_files())


@cache
def digest() -> str:
    blob = repr(sorted(raw_files().items())).encode()
    return hashlib.sha256(blob).hexdigest()
