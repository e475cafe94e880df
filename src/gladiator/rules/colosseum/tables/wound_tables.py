"""The schema of wounds.toml, wound_categories.toml, criticals.toml and shield_damage.toml: wound
and stun severity T7, wound categories T7a, the armour DRM T8 (§10, §11), critical hits T9 and
T9b (§10.4), and the shield damage track P2 (§12).
"""

from __future__ import annotations

from typing import Literal, Self

from pydantic import Field, StrictInt, StrictStr, model_validator

from gladiator.rules.colosseum.tables.sheet_tables import Armour
from gladiator.rules.colosseum.tables.table_schema import (
    Strict,
    Table,
    TableFile,
)
from gladiator.rules.colosseum.vocabulary import (
    AREAS,
    Area,
    StunExtra,
)

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
