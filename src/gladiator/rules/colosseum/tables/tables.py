"""Load and check the Colosseum Edition's Basic Game tables (data/*.toml) once.

Each data file holds one table of shared/rules/colosseum.md Part 3, or a few related ones. Every
table names its rulebook section and the reference's confidence mark, and, where a reading had to
be chosen (the reference's Q-numbered questions), a `source_note` saying which and why.

`tables()` reads and validates the packaged files once. `load_tables(directory)` and
`parse_table_file(name, text)` do the same for any directory or raw text, so tests can feed them
broken data; every problem is a ValueError with a one-line message.

The schema of each file is a module of its own (sheet_tables.py, crt_tables.py, wound_tables.py,
combat_tables.py, collision_tables.py, item_tables.py, arena_tables.py, turn_end_tables.py; their
shared bases are table_schema.py, the words they share vocabulary.py); this module binds them
into one checked set. The helpers are pure lookups. Rules arithmetic around them (clamping the
CRT column and turning the excess into a DRM, §9.5.3/§9.5.4; adding DRMs; rolling dice) belongs
to the engine.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Literal, Self

from pydantic import ValidationError, model_validator

from gladiator.rules.colosseum.tables.arena_tables import ActionsFile, ArenaFile
from gladiator.rules.colosseum.tables.collision_tables import CollisionFile
from gladiator.rules.colosseum.tables.combat_tables import (
    AttackSequenceFile,
    CombatFrontFile,
    PositionalAdvantageFile,
)
from gladiator.rules.colosseum.tables.crt_tables import CrtFile, CrtResult, CrtTable, ResultsFile
from gladiator.rules.colosseum.tables.item_tables import ItemsFile
from gladiator.rules.colosseum.tables.sheet_tables import (
    Armour,
    ArmourFile,
    ArmourRow,
    PhysicalFile,
)
from gladiator.rules.colosseum.tables.table_schema import Strict, TableFile, one_line
from gladiator.rules.colosseum.tables.turn_end_tables import TurnEndFile
from gladiator.rules.colosseum.tables.wound_tables import (
    CriticalsFile,
    ShieldDamageFile,
    WoundCategoryFile,
    WoundsFile,
)
from gladiator.rules.colosseum.vocabulary import (
    Area,
    Characteristic,
    CrtVariant,
    GladiatorClass,
    StunExtra,
)

__all__ = [
    "FILES",
    "ColosseumTables",
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
