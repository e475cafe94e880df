"""Load and check the Colosseum Edition's Basic Game tables (data/*.toml) once.

Each data file holds one table of shared/rules/colosseum.md Part 3, or a few related ones. Every
table names its rulebook section and the reference's confidence mark, and, where a reading had to
be chosen (the reference's Q-numbered questions), a `source_note` saying which and why.

`tables()` reads and validates the packaged files once. `load_tables(directory)` and
`parse_table_file(name, text)` do the same for any directory or raw text, so tests can feed them
broken data; every problem is a ValueError with a one-line message.

The helpers are pure lookups. Rules arithmetic around them (clamping the CRT column and turning the
excess into a DRM, §9.5.3/§9.5.4; adding DRMs; rolling dice) belongs to the engine.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Literal, Self

from pydantic import (
    Field,
    PrivateAttr,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
    model_validator,
)

from gladiator.rules.colosseum.table_schema import (
    Dice,
    Strict,
    Table,
    TableFile,
    check_dice,
    hex_range,
    one_line,
)

__all__ = [
    "AREAS",
    "FILES",
    "Action",
    "Armour",
    "ArmourRow",
    "ColosseumTables",
    "CrtResult",
    "CrtTable",
    "SeverityColumn",
    "armour_drm",
    "armour_row",
    "attack_rounds",
    "critical_result",
    "crt_result",
    "load_tables",
    "parse_table_file",
    "physical_value",
    "positional_advantage",
    "stun_result",
    "tables",
    "wound_result",
]

Area = Literal["head", "chest", "groin", "arms", "legs"]
GladiatorClass = Literal["light", "medium", "heavy"]
RelationCode = Literal["F", "FR", "RR", "R", "RL", "FL"]
CrtCode = Literal["F", "-", "S", "S*", "P", "P*", "H"]
CrtVariant = Literal["rules", "reference"]
Characteristic = Literal["tr", "st", "ag", "cn", "w"]
StunExtra = Literal["weapon_drop", "shield_drop", "fall_prone"]
ActionCode = Literal["F", "B", "SFL", "SFR", "SBL", "SBR", "C", "KN", "R", "RO", "S", "X"]

AREAS: tuple[Area, ...] = ("head", "chest", "groin", "arms", "legs")
_CLASSES: tuple[GladiatorClass, ...] = ("light", "medium", "heavy")
_ACTION_CODES: frozenset[str] = frozenset(
    ("F", "B", "SFL", "SFR", "SBL", "SBR", "C", "KN", "R", "RO", "S", "X")
)


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
        if got != _CLASSES:
            raise ValueError(f"t1, t2, t3 must be the light, medium, heavy tables, got {got}")
        return self

    def table(self, gladiator_class: GladiatorClass) -> ArmourTable:
        return (self.t1, self.t2, self.t3)[_CLASSES.index(gladiator_class)]


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


# --- T7 wound & stun severity, T8 armour DRM ------------------------------------------------------


class SeverityColumn(Strict):
    lo: StrictInt | None = None
    hi: StrictInt | None = None
    wounds: StrictInt | Literal["kill"]
    stun: StrictInt = Field(ge=0)
    stun_extra: StunExtra | None = None

    def holds(self, total: int) -> bool:
        return (self.lo is None or self.lo <= total) and (self.hi is None or total <= self.hi)


class SeverityTable(Table):
    columns: tuple[SeverityColumn, ...] = Field(min_length=2)

    @model_validator(mode="after")
    def _contiguous(self) -> Self:
        first, last = self.columns[0], self.columns[-1]
        if first.lo is not None or last.hi is not None:
            raise ValueError("T7's first column must be open below and its last open above")
        for before, after in zip(self.columns, self.columns[1:], strict=False):
            if before.hi is None or after.lo is None or after.lo != before.hi + 1:
                raise ValueError(
                    f"T7 columns must run on without gaps: {before.lo}-{before.hi} "
                    f"then {after.lo}-{after.hi}"
                )
            if after.hi is not None and after.hi < after.lo:
                raise ValueError(f"T7 column {after.lo}-{after.hi} is empty")
        return self

    def column(self, total: int) -> SeverityColumn:
        for col in self.columns:
            if col.holds(total):
                return col
        raise AssertionError("unreachable: the columns cover every integer")


class ArmourDrms(Strict):
    A: StrictInt
    B: StrictInt
    C: StrictInt


class ArmourDrmTable(Table):
    drm: ArmourDrms

    def for_armour(self, armour: Armour, black_die: int) -> int:
        """The wound-roll DRM: full armour always, partial only if BLACK <= coverage (§10.2)."""
        if armour.letter is None:
            return 0
        if armour.coverage is not None and black_die > armour.coverage:
            return 0
        drm: int = getattr(self.drm, armour.letter)
        return drm


class WoundsFile(TableFile):
    schema_: Literal["gladiator.colosseum.wounds"] = Field(alias="schema")
    t7: SeverityTable
    t8: ArmourDrmTable


class WoundCategoryTable(Table):
    boxes: StrictInt = Field(ge=1)
    categories: dict[Area, tuple[tuple[StrictInt, ...], ...]]

    @model_validator(mode="after")
    def _partition(self) -> Self:
        if set(self.categories) != set(AREAS):
            raise ValueError(f"T7a needs categories for every area {AREAS}")
        for area, cats in self.categories.items():
            flat = [box for cat in cats for box in cat]
            if flat != list(range(self.boxes, 0, -1)) or not all(cats):
                raise ValueError(
                    f"T7a {area} categories must hold boxes {self.boxes}..1 in order, each once"
                )
        return self

    def category_index(self, area: Area, box: int) -> int:
        """Which category (0 = the one holding the top box) a box belongs to. A beast's W may
        pass the sheet's boxes (§28.3, T21: bear 18, tiger 16): those boxes count in the top
        category (ruling B4); a gladiator's W never does (T4)."""
        box = min(box, self.boxes)
        for i, cat in enumerate(self.categories[area]):
            if box in cat:
                return i
        raise ValueError(f"wound box {box} is not 1-{self.boxes}")

    def new_categories(self, area: Area, w: int, wounds_before: int, wounds_added: int) -> int:
        """Categories first reached when boxes are marked from box W downward (§10.3, §10.3.1)."""
        before = {self.category_index(area, w - i) for i in range(wounds_before)}
        added = {
            self.category_index(area, w - i)
            for i in range(wounds_before, min(w, wounds_before + wounds_added))
        }
        return len(added - before)


class WoundCategoryFile(TableFile):
    schema_: Literal["gladiator.colosseum.wound-categories"] = Field(alias="schema")
    t7a: WoundCategoryTable


# --- T9 critical hits, T9b legend -----------------------------------------------------------------


class CriticalTable(Table):
    columns: tuple[StrictInt, ...] = Field(min_length=2)
    rows: dict[Area, tuple[StrictStr, ...]]

    @model_validator(mode="after")
    def _shape(self) -> Self:
        first = self.columns[0]
        if list(self.columns) != list(range(first, first + len(self.columns))):
            raise ValueError("T9 columns must be consecutive rolls")
        if set(self.rows) != set(AREAS):
            raise ValueError(f"T9 needs a row for every area {AREAS}")
        for area, row in self.rows.items():
            if len(row) != len(self.columns):
                raise ValueError(f"T9 row {area} has {len(row)} cells, not {len(self.columns)}")
        return self

    def result(self, area: Area, total: int) -> tuple[str, ...]:
        """Codes for 2D6 + wounds; the first column is 'or less', the last 'or more'."""
        i = min(max(total - self.columns[0], 0), len(self.columns) - 1)
        return tuple(self.rows[area][i].split("+"))


class CriticalLegend(Table):
    codes: dict[StrictStr, StrictStr]


class CriticalsFile(TableFile):
    schema_: Literal["gladiator.colosseum.criticals"] = Field(alias="schema")
    t9: CriticalTable
    t9b: CriticalLegend

    @model_validator(mode="after")
    def _known_codes(self) -> Self:
        for area, row in self.t9.rows.items():
            for cell in row:
                unknown = [c for c in cell.split("+") if c not in self.t9b.codes]
                if unknown:
                    raise ValueError(f"T9 {area} cell {cell!r} uses codes not in T9b: {unknown}")
        return self


# --- T10 attack sequence --------------------------------------------------------------------------


class AttackSequenceTable(Table):
    rounds_per_phase: StrictInt = Field(ge=1)
    rounds: dict[int, tuple[StrictInt, ...]]

    @model_validator(mode="after")
    def _shape(self) -> Self:
        if sorted(self.rounds) != [1, 2, 3, 4, 5]:
            raise ValueError(f"T10 needs rows for 1-5 attacks, got {sorted(self.rounds)}")
        for n, rounds in self.rounds.items():
            ok = len(rounds) == n and list(rounds) == sorted(set(rounds))
            if not ok or rounds[0] < 1 or rounds[-1] > self.rounds_per_phase:
                raise ValueError(f"T10 row {n} must list {n} distinct rounds in order, in range")
        return self


class AttackSequenceFile(TableFile):
    schema_: Literal["gladiator.colosseum.attack-sequence"] = Field(alias="schema")
    t10: AttackSequenceTable


# --- T11 positional advantage, §9.2.1 status bonuses ----------------------------------------------


class PaHex(Strict):
    fl: StrictInt
    fr: StrictInt
    pa: StrictInt


class PaRegions(Strict):
    centre_front: StrictInt
    cone_right: StrictInt
    cone_left: StrictInt
    outside_right: StrictInt
    outside_left: StrictInt
    centre_rear: StrictInt

    def value(self, fl: int, fr: int) -> int:
        if fl == fr:
            return self.centre_front if fl > 0 else self.centre_rear
        if fl >= 0 and fr >= 0:
            return self.cone_right if fr > fl else self.cone_left
        return self.outside_right if fr > fl else self.outside_left


class PositionalAdvantageTable(Table):
    plus_1_and_3_on: Literal["right", "left"]
    left_handed_swaps: tuple[tuple[StrictInt, StrictInt], ...]
    hexes: tuple[PaHex, ...]
    regions: PaRegions
    _index: dict[tuple[int, int], int] = PrivateAttr(default_factory=dict)

    def model_post_init(self, context: Any, /) -> None:
        self._index.update({(h.fl, h.fr): h.pa for h in self.hexes})

    @model_validator(mode="after")
    def _covers_ranges(self) -> Self:
        seen = {(h.fl, h.fr) for h in self.hexes}
        if len(seen) != len(self.hexes):
            raise ValueError("T11 lists a hex twice")
        top = max((hex_range(fl, fr) for fl, fr in seen), default=0)
        wanted = {
            (fl, fr)
            for fl in range(-top, top + 1)
            for fr in range(-top, top + 1)
            if 1 <= hex_range(fl, fr) <= top
        }
        if seen != wanted:
            raise ValueError(f"T11 must list every hex at range 1-{top} and no other")
        return self

    @property
    def max_range(self) -> int:
        return max(hex_range(h.fl, h.fr) for h in self.hexes)

    def bonus(self, fl: int, fr: int, *, left_handed: bool = False) -> int:
        """PA of an attacker at fl·FL + fr·FR from the defender (T11, §9.2 NOTE)."""
        if (fl, fr) == (0, 0):
            raise ValueError("the attacker cannot stand in the defender's hex")
        if self.plus_1_and_3_on == "left":
            fl, fr = fr, fl
        value = self._index.get((fl, fr))
        if value is None:
            value = self.regions.value(fl, fr)
        if left_handed:
            for a, b in self.left_handed_swaps:
                if value in (a, b):
                    return b if value == a else a
        return value


class StatusBonus(Table):
    stumbling: StrictInt  # §9.2.1.1, §15.6
    prone: StrictInt  # §9.2.1.2, §16.3; replaces the Stumble bonus
    ensnared: StrictInt  # §9.2.1.3 (Advanced Game nets)


class PositionalAdvantageFile(TableFile):
    schema_: Literal["gladiator.colosseum.positional-advantage"] = Field(alias="schema")
    t11: PositionalAdvantageTable
    status_bonus: StatusBonus


# --- T12 collisions, T14 recovery, T15 dropped objects --------------------------------------------


class Drm(Strict):
    """A die-roll modifier: `drm` once, or times the count `per`, or times the `rating`."""

    drm: StrictInt
    condition: StrictStr
    per: StrictStr | None = None
    rating: Literal["ST", "AG", "PA"] | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> Self:
        if self.per is not None and self.rating is not None:
            raise ValueError("a DRM is per a count or times a rating, not both")
        return self


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


class FrontRegion(Strict):
    max_range: StrictInt = Field(ge=1)
    hexes: StrictInt = Field(ge=1)
    used_by: tuple[StrictStr, ...] = ()


def _cone_count(max_range: int) -> int:
    return sum(
        1
        for fl in range(max_range + 1)
        for fr in range(max_range + 1)
        if 1 <= max(fl, fr) <= max_range
    )


class CombatFrontTable(Table):
    regions: dict[Literal["one_hex", "two_hex", "three_hex"], FrontRegion]

    @model_validator(mode="after")
    def _counts(self) -> Self:
        for name, region in self.regions.items():
            if _cone_count(region.max_range) != region.hexes:
                raise ValueError(
                    f"T40 {name}: the cone to range {region.max_range} holds "
                    f"{_cone_count(region.max_range)} hexes, not {region.hexes}"
                )
        return self

    def in_front(
        self, region: Literal["one_hex", "two_hex", "three_hex"], fl: int, fr: int
    ) -> bool:
        """Whether fl·FL + fr·FR lies in that region of the combat front."""
        return fl >= 0 and fr >= 0 and 1 <= max(fl, fr) <= self.regions[region].max_range


class CombatFrontFile(TableFile):
    schema_: Literal["gladiator.colosseum.combat-front"] = Field(alias="schema")
    t40: CombatFrontTable


# --- P2 shield damage, §17 endurance, §5.4.1 stans missus -----------------------------------------

ShieldBox = StrictInt | Literal["P", "H"]


class ShieldTrackTable(Table):
    tracks: dict[Literal["large", "small"], tuple[ShieldBox, ...]]

    @model_validator(mode="after")
    def _descending(self) -> Self:
        if set(self.tracks) != {"large", "small"}:
            raise ValueError("P2 needs a large and a small track")
        for shield, track in self.tracks.items():
            numbers = [b for b in track if isinstance(b, int)]
            if not numbers or numbers != sorted(set(numbers), reverse=True):
                raise ValueError(f"P2 {shield} track's numbered boxes must strictly descend")
        return self

    def damage_points(self, shield: Literal["large", "small"], marked: int) -> int | None:
        """The highest unmarked numbered box after `marked` boxes; None once none is left."""
        for box in self.tracks[shield][marked:]:
            if isinstance(box, int):
                return box
        return None


class ShieldDamageFile(TableFile):
    schema_: Literal["gladiator.colosseum.shield-damage"] = Field(alias="schema")
    p2: ShieldTrackTable


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


# --- the whole set --------------------------------------------------------------------------------


class ColosseumTables(Strict):
    """Every Basic Game table, one attribute per data file."""

    armour: ArmourFile
    physical: PhysicalFile
    crt: CrtFile
    crt_reference: CrtFile
    results: ResultsFile
    wounds: WoundsFile
    wound_categories: WoundCategoryFile
    criticals: CriticalsFile
    attack_sequence: AttackSequenceFile
    positional_advantage: PositionalAdvantageFile
    collision: CollisionFile
    items: ItemsFile
    arena: ArenaFile
    actions: ActionsFile
    combat_front: CombatFrontFile
    shield_damage: ShieldDamageFile
    turn_end: TurnEndFile

    @model_validator(mode="after")
    def _crt_variants(self) -> Self:
        if self.crt.t5.variant != "rules" or not self.crt.t5.recommended:
            raise ValueError("crt.toml must hold the recommended rules-text CRT")
        if self.crt_reference.t5.variant != "reference" or self.crt_reference.t5.recommended:
            raise ValueError("crt_reference_sheet.toml must hold the reference-sheet CRT")
        return self

    def crt_table(self, variant: CrtVariant = "rules") -> CrtTable:
        return self.crt.t5 if variant == "rules" else self.crt_reference.t5

    def files(self) -> dict[str, TableFile]:
        """Each data file's model by its file name."""
        return {name: getattr(self, attr) for name, (attr, _model) in FILES.items()}


# File name -> (attribute of ColosseumTables, model). The loader reads exactly these files.
FILES: dict[str, tuple[str, type[TableFile]]] = {
    "armour.toml": ("armour", ArmourFile),
    "physical.toml": ("physical", PhysicalFile),
    "crt.toml": ("crt", CrtFile),
    "crt_reference_sheet.toml": ("crt_reference", CrtFile),
    "results.toml": ("results", ResultsFile),
    "wounds.toml": ("wounds", WoundsFile),
    "wound_categories.toml": ("wound_categories", WoundCategoryFile),
    "criticals.toml": ("criticals", CriticalsFile),
    "attack_sequence.toml": ("attack_sequence", AttackSequenceFile),
    "positional_advantage.toml": ("positional_advantage", PositionalAdvantageFile),
    "collision.toml": ("collision", CollisionFile),
    "items.toml": ("items", ItemsFile),
    "arena.toml": ("arena", ArenaFile),
    "actions.toml": ("actions", ActionsFile),
    "combat_front.toml": ("combat_front", CombatFrontFile),
    "shield_damage.toml": ("shield_damage", ShieldDamageFile),
    "turn_end.toml": ("turn_end", TurnEndFile),
}


def parse_table_file(name: str, text: str) -> TableFile:
    """Parse and check one data file's raw TOML text; `name` is its file name (FILES)."""
    try:
        _attr, model = FILES[name]
    except KeyError:
        raise ValueError(f"unknown colosseum table file {name!r}") from None
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"colosseum table {name} is not valid TOML: {exc}") from None
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise ValueError(f"colosseum table {name} is invalid: {one_line(exc)}") from None


def load_tables(
    directory: Path | Traversable, overrides: Mapping[str, str] | None = None
) -> ColosseumTables:
    """Read every file of FILES from `directory` (or from `overrides`, name -> raw text)."""
    parsed: dict[str, TableFile] = {}
    for name, (attr, _model) in FILES.items():
        if overrides is not None and name in overrides:
            text = overrides[name]
        else:
            path = directory / name
            if not path.is_file():
                raise ValueError(f"colosseum table {name} is missing from {directory}")
            text = path.read_text(encoding="utf-8")
        parsed[attr] = parse_table_file(name, text)
    try:
        return ColosseumTables.model_validate(parsed)
    except ValidationError as exc:
        raise ValueError(f"colosseum tables do not fit together: {one_line(exc)}") from None


@cache
def tables() -> ColosseumTables:
    """The packaged tables, read and checked once."""
    return load_tables(resources.files("gladiator.rules.colosseum").joinpath("data"))


# --- lookups --------------------------------------------------------------------------------------


def crt_result(column: int, total: int, variant: CrtVariant = "rules") -> CrtResult:
    """T5: the cell for column 1-8 and a modified 3D6 total already clamped to 3-18."""
    return tables().crt_table(variant).result(column, total)


def wound_result(total: int) -> int | Literal["kill"]:
    """T7 Wounds row: wounds for a modified wound roll (any integer), or 'kill'."""
    return tables().wounds.t7.column(total).wounds


def stun_result(total: int) -> tuple[int, StunExtra | None]:
    """T7 Stun row: Stun points and the extra effect of that column, for a modified Stun roll."""
    col = tables().wounds.t7.column(total)
    return col.stun, col.stun_extra


def armour_drm(armour: Armour | str, black_die: int) -> int:
    """T8: the wound-roll DRM of an area's armour ('B4', 'A', '-') for this BLACK die."""
    if isinstance(armour, str):
        armour = Armour.model_validate(armour)
    return tables().wounds.t8.for_armour(armour, black_die)


def armour_row(gladiator_class: GladiatorClass, roll: int) -> ArmourRow:
    """T1-T3: the armour and shield for a class and a 1D6 roll."""
    return tables().armour.table(gladiator_class).row(roll)


def physical_value(characteristic: Characteristic, roll: int) -> int:
    """T4: the rating for a 3D6 roll in that characteristic's column."""
    value: int = getattr(tables().physical.t4.row(roll), characteristic)
    return value


def attack_rounds(attacks: int) -> tuple[int, ...]:
    """T10: the rounds in which 1-5 planned attacks strike (before any Spd shift)."""
    try:
        return tables().attack_sequence.t10.rounds[attacks]
    except KeyError:
        raise ValueError(f"{attacks} attacks: a gladiator makes 1-5 attacks a phase") from None


def critical_result(area: Area, total: int) -> tuple[str, ...]:
    """T9: the T9b codes for RED + BLACK + wounds against that area."""
    return tables().criticals.t9.result(area, total)


def positional_advantage(fl: int, fr: int, *, left_handed: bool = False) -> int:
    """T11: the PA of an attacker at fl·FL + fr·FR from the defender (status bonuses apart)."""
    return tables().positional_advantage.t11.bonus(fl, fr, left_handed=left_handed)
