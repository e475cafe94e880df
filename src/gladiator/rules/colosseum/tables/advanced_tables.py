"""Load and check the Colosseum Edition's Advanced Game tables (§19-§29, data/*.toml) once.

Each data file holds one table of shared/rules/colosseum.md Part 3 (T13, T16-T30, T37), or a few
related ones, or the numbers a section gives in its text (§23, §24, §26, §27). Every table names
its rulebook section and table id, and the reference's confidence mark; where a reading had to be
chosen (the reference's Q-numbered questions), a `source_note` says which and why, and
docs/rulings.md records it (A1...).

`advanced_tables()` reads and validates the packaged files once. `load_advanced_tables(directory)`
and `parse_advanced_file(name, text)` do the same for any directory or raw text, so tests can feed
them broken data; every problem is a ValueError with a one-line message. Validation covers each
file's shape (known keys only, die-roll tables covering their dice without gaps or overlaps,
hexes where the geometry puts them) and the references between tables: a style's weapons are T19
weapons, a weapon's conversion is one of T6's, the net swing order is T40's 2-hex front, a beast
critical is a T9b code, a centurion's ratings are T4 values. The Basic Game tables those checks
read are `tables.tables()` (or, for a directory, the Basic files found in it).

The schema of each file is a module of its own (style_tables.py, wall_tables.py, net_tables.py,
weapon_tables.py, special_tables.py, advanced_combat_tables.py, beast_tables.py,
centurion_tables.py; their shared bases are table_schema.py); this module binds them into one
checked set. These are data and pure lookups only; no Advanced Game rule is played here. The arena
size T38 (§25.2) is a Basic Game file already (arena.toml) and is not repeated.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Self

from pydantic import BaseModel, ValidationError, model_validator

from gladiator.rules.colosseum.tables.advanced_combat_tables import AdvancedCombatFile
from gladiator.rules.colosseum.tables.beast_tables import BeastsFile
from gladiator.rules.colosseum.tables.centurion_tables import CenturionsFile
from gladiator.rules.colosseum.tables.net_tables import NetsFile
from gladiator.rules.colosseum.tables.special_tables import SpecialsFile
from gladiator.rules.colosseum.tables.style_tables import StylesFile
from gladiator.rules.colosseum.tables.table_schema import Strict, TableFile, one_line
from gladiator.rules.colosseum.tables.tables import ColosseumTables, load_tables, tables
from gladiator.rules.colosseum.tables.wall_tables import WallCollisionFile
from gladiator.rules.colosseum.tables.weapon_tables import WeaponsFile

__all__ = [
    "ADVANCED_FILES",
    "AdvancedTables",
    "advanced_tables",
    "load_advanced_tables",
    "parse_advanced_file",
]


def _in_cone(fl: int, fr: int, max_range: int) -> bool:
    return fl >= 0 and fr >= 0 and 1 <= max(fl, fr) <= max_range


def _cone(max_range: int) -> set[tuple[int, int]]:
    return {
        (fl, fr)
        for fl in range(max_range + 1)
        for fr in range(max_range + 1)
        if _in_cone(fl, fr, max_range)
    }


# --- the whole set --------------------------------------------------------------------------------


class AdvancedTables(Strict):
    """Every Advanced Game table, one attribute per data file."""

    styles: StylesFile
    wall_collision: WallCollisionFile
    nets: NetsFile
    weapons: WeaponsFile
    specials: SpecialsFile
    combat: AdvancedCombatFile
    beasts: BeastsFile
    centurions: CenturionsFile

    @model_validator(mode="after")
    def _references(self) -> Self:
        weapons = self.weapons.t19.weapons
        styles = self.styles.all_styles()
        carried = set(weapons) | {"net"}  # the net is §20's (nets.toml), not a T19 row
        for key, style in styles.items():
            unknown = [w for w in (*style.weapons, *style.optional_weapons) if w not in carried]
            if unknown:
                raise ValueError(f"style {key} carries {unknown}, not in T19 (weapons.toml)")
            if style.shield == "hook" and not any(
                w.shield is not None and key in w.users for w in weapons.values()
            ):
                raise ValueError(f"style {key} carries a hook: T19 needs a shield used by {key}")
        for key, weapon in weapons.items():
            unknown = [u for u in weapon.users if u not in styles]
            if unknown:
                raise ValueError(f"weapon {key} is used by unknown styles {unknown}")
        two = self.combat.two_weapon
        trained = styles.get(two.trained_style)
        if trained is None or not trained.any_pair:
            raise ValueError(f"§24's trained style {two.trained_style!r} must be a pair style")
        unknown = [w for w in two.never_paired.weapons if w not in weapons]
        if unknown:
            raise ValueError(f"§24.4 names weapons not in T19: {unknown}")
        return self

    def files(self) -> dict[str, TableFile]:
        """Each data file's model by its file name."""
        return {name: getattr(self, attr) for name, (attr, _model) in ADVANCED_FILES.items()}


# File name -> (attribute of AdvancedTables, model). The loader reads exactly these files.
ADVANCED_FILES: dict[str, tuple[str, type[TableFile]]] = {
    "styles.toml": ("styles", StylesFile),
    "wall_collision.toml": ("wall_collision", WallCollisionFile),
    "nets.toml": ("nets", NetsFile),
    "weapons.toml": ("weapons", WeaponsFile),
    "specials.toml": ("specials", SpecialsFile),
    "advanced_combat.toml": ("combat", AdvancedCombatFile),
    "beasts.toml": ("beasts", BeastsFile),
    "centurions.toml": ("centurions", CenturionsFile),
}


def _fronts(basic: ColosseumTables) -> dict[str, int]:
    return {name: region.max_range for name, region in basic.combat_front.t40.regions.items()}


def _check_against_basic(adv: AdvancedTables, basic: ColosseumTables) -> None:
    """The references from the Advanced Game tables into the Basic Game's; ValueError if broken."""
    fronts = _fronts(basic)
    ranges = set(fronts.values())
    conversions = basic.results.t6.conversions
    legend = basic.criticals.t9b.codes
    # T19: reach is a T40 front; conversions are T6's; the sword is NOTE-13.3's.
    for key, weapon in adv.weapons.t19.weapons.items():
        if weapon.reach not in ranges:
            raise ValueError(f"T19 {key}: reach {weapon.reach} is no T40 front {sorted(ranges)}")
        if weapon.conversion is not None and weapon.conversion not in conversions:
            raise ValueError(f"T19 {key}: conversion {weapon.conversion!r} is not in T6")
    sword, thrown = adv.weapons.t19.weapons["sword"], basic.items.thrown.weapon
    if (sword.thr, sword.crt) != (thrown.thr, thrown.crt):
        raise ValueError("T19's sword must have items.toml's thrown.weapon Thr and CRT")
    for key, attack in adv.specials.t20.attacks.items():
        if attack.reach is not None and attack.reach not in ranges:
            raise ValueError(f"T20 {key}: reach {attack.reach} is no T40 front")
    # The net: each attack's front is a T40 region; T17b is the swing's front; LN hexes its own.
    for code, net in adv.nets.net_attacks.attacks.items():
        if net.front not in fronts:
            raise ValueError(f"net attack {code}: front {net.front!r} is not in T40")
    swing = adv.nets.attack("SN")
    if set(adv.nets.t17b.hexes) != _cone(fronts[swing.front]):
        raise ValueError(f"T17b must list exactly the hexes of the swing's {swing.front} front")
    lay = adv.nets.attack("LN")
    if not {h.at for h in lay.hexes.values()} <= _cone(fronts[lay.front]):
        raise ValueError(f"the Net Lay hexes must be in its {lay.front} front")
    if adv.beasts.combat.front not in fronts:
        raise ValueError(f"the beasts' front {adv.beasts.combat.front!r} is not in T40")
    # §23, §24: T9b codes and T6 conversions.
    unknown = [c for c in adv.combat.unarmed.critical_ignored if c not in legend]
    if unknown:
        raise ValueError(f"§23.3.1 ignores critical codes not in T9b: {unknown}")
    if adv.combat.two_weapon.conversion not in conversions:
        raise ValueError(f"§24.3 conversion {adv.combat.two_weapon.conversion!r} is not in T6")
    # T25 cells are T9b codes.
    for area, row in adv.beasts.t25.rows.items():
        for cell in row:
            unknown = [c for c in cell.split("+") if c not in legend]
            if unknown:
                raise ValueError(f"T25 {area} cell {cell!r} uses codes not in T9b: {unknown}")
    # T26: every rating is one T4 can give.
    t4 = basic.physical.t4.rows
    for d66, centurion in adv.centurions.t26.rows.items():
        for char in ("tr", "st", "ag", "cn", "w"):
            value = getattr(centurion, char)
            if value not in {getattr(r, char) for r in t4}:
                raise ValueError(f"T26 {d66}: {char.upper()} {value} is not in T4")
    # A standard style moves at his class's rate (§3.5).
    rates = basic.actions.move_rates
    for key, style in adv.styles.all_styles().items():
        base: int = getattr(rates, style.gladiator_class)
        if (style.standard or key in adv.styles.beast_fighters.styles) and style.move != base:
            raise ValueError(f"style {key} moves {style.move}, not his class's {base} (§3.5)")


def parse_advanced_file(name: str, text: str) -> TableFile:
    """Parse and check one data file's raw TOML text; `name` is its file name (ADVANCED_FILES)."""
    try:
        _attr, model = ADVANCED_FILES[name]
    except KeyError:
        raise ValueError(f"unknown colosseum advanced table file {name!r}") from None
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"colosseum table {name} is not valid TOML: {exc}") from None
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise ValueError(f"colosseum table {name} is invalid: {one_line(exc)}") from None


def load_advanced_tables(
    directory: Path | Traversable,
    overrides: Mapping[str, str] | None = None,
    basic: ColosseumTables | None = None,
) -> AdvancedTables:
    """Read every file of ADVANCED_FILES from `directory` (or `overrides`, name -> raw text).

    The cross-references are checked against `basic`, by default the Basic Game files of the same
    directory (with the same overrides)."""
    parsed: dict[str, BaseModel] = {}
    for name, (attr, _model) in ADVANCED_FILES.items():
        if overrides is not None and name in overrides:
            text = overrides[name]
        else:
            path = directory / name
            if not path.is_file():
                raise ValueError(f"colosseum table {name} is missing from {directory}")
            text = path.read_text(encoding="utf-8")
        parsed[attr] = parse_advanced_file(name, text)
    if basic is None:
        basic = load_tables(directory, overrides)
    try:
        adv = AdvancedTables.model_validate(parsed)
        _check_against_basic(adv, basic)
    except ValidationError as exc:
        raise ValueError(f"colosseum tables do not fit together: {one_line(exc)}") from None
    except ValueError as exc:
        raise ValueError(f"colosseum tables do not fit together: {exc}") from None
    return adv


@cache
def advanced_tables() -> AdvancedTables:
    """The packaged Advanced Game tables, read and checked once (against `tables()`)."""
    data = resources.files("gladiator.rules.colosseum").joinpath("data")
    return load_advanced_tables(data, basic=tables())
