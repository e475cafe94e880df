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

These are data and pure lookups only; no Advanced Game rule is played here. The arena size T38
(§25.2) is a Basic Game file already (arena.toml) and is not repeated.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Literal, Self

from pydantic import (
    BaseModel,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
    model_validator,
)

from gladiator.rules.colosseum.tables import (
    AREAS,
    Action,
    Area,
    Armour,
    ColosseumTables,
    CrtCode,
    Dice,
    GladiatorClass,
    RelationCode,
    _check_dice,
    _File,
    _hex_range,
    _one_line,
    _Strict,
    _Table,
    load_tables,
    tables,
)

__all__ = [
    "ADVANCED_FILES",
    "BEAST_AREAS",
    "AdvancedTables",
    "Beast",
    "BeastArea",
    "Modifier",
    "NetCode",
    "Style",
    "Weapon",
    "advanced_tables",
    "load_advanced_tables",
    "parse_advanced_file",
]

Per = Literal[
    "hex_moved_forward",
    "hex_moved_backward",
    "hex_moved",
    "hexside_rotated",
    "cf_lost_legs",
    "cf_lost_arms",
    "stun",
    "three_stun",
    "three_hexes_range",
    "pause_remaining",
    "phase_number",
]
Rating = Literal["ST", "AG", "PA", "FS", "NF_difference"]
FrontName = Literal["one_hex", "two_hex", "three_hex"]
NetCode = Literal["TN", "SN", "LN"]
NetEffect = Literal["ensnare", "stumble", "stumble_check", "net_grabbed"]
SpecialAttackCode = Literal["A", "F", "S", "H", "T"]
SpecialDefenceCode = Literal["D", "B", "K", "P", "L"]
Requirement = Literal[
    "on_feet", "not_prone", "has_shield", "has_weapon", "not_stunned", "not_stumbling"
]
CfSource = Literal["arms", "legs", "endurance"]
BeastArea = Literal["head", "chest", "groin", "paws", "legs"]
Colour = Literal["red", "grey", "white"]

BEAST_AREAS: tuple[BeastArea, ...] = ("head", "chest", "groin", "paws", "legs")
_D66: frozenset[int] = frozenset(10 * t + o for t in range(1, 7) for o in range(1, 7))
# The six neighbours of a hex as fl·FL + fr·FR (F, FR, RR, R, RL, FL; FL + FR = F).
_NEIGHBOURS: tuple[tuple[int, int], ...] = ((1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1), (1, 0))


def _faces(dice: str) -> range:
    """Every total `dice` can roll: nD6 is n..6n, nD3 is n..3n (§2.5)."""
    _check_dice(dice)
    n, sides = int(dice[0]), int(dice[2])
    return range(n, n * sides + 1)


def _check_runs(what: str, spans: Sequence[tuple[int, int]], faces: range) -> None:
    """Rows lo..hi must cover exactly `faces`, in order, without a gap or an overlap."""
    expected = faces.start
    for lo, hi in spans:
        if hi < lo:
            raise ValueError(f"{what} row {lo}-{hi} is empty")
        if lo < expected:
            raise ValueError(f"{what} rows overlap: {lo}-{hi} starts before {expected}")
        if lo > expected:
            raise ValueError(f"{what} rows leave a gap: nothing for {expected}-{lo - 1}")
        expected = hi + 1
    if expected != faces.stop:
        raise ValueError(f"{what} rows must end at {faces.stop - 1}, got {expected - 1}")


def _in_cone(fl: int, fr: int, max_range: int) -> bool:
    return fl >= 0 and fr >= 0 and 1 <= max(fl, fr) <= max_range


def _cone(max_range: int) -> set[tuple[int, int]]:
    return {
        (fl, fr)
        for fl in range(max_range + 1)
        for fr in range(max_range + 1)
        if _in_cone(fl, fr, max_range)
    }


def _around(counter: Iterable[tuple[int, int]]) -> set[tuple[int, int]]:
    """The hexes touching a counter that covers these hexes."""
    cells = set(counter)
    return {(a + da, b + db) for a, b in cells for da, db in _NEIGHBOURS} - cells


# --- the common DRM -------------------------------------------------------------------------------


class Modifier(_Strict):
    """A die-roll modifier: `drm` once, or times the count `per`, or times the rating `rating`."""

    drm: StrictInt
    condition: StrictStr = Field(min_length=1)
    per: Per | None = None
    rating: Rating | None = None
    not_for_retiarius: StrictBool = False

    @model_validator(mode="after")
    def _one_kind(self) -> Self:
        if self.per is not None and self.rating is not None:
            raise ValueError("a DRM is per a count or times a rating, not both")
        return self

    def total(self, times: int = 1) -> int:
        """The DRM for `times` of its count or rating (1 for a plain DRM that applies)."""
        return self.drm * times


class _Hex(_Strict):
    fl: StrictInt
    fr: StrictInt

    @property
    def at(self) -> tuple[int, int]:
        return (self.fl, self.fr)


# --- T37 fighting styles (§19), §28.2 beast fighters ----------------------------------------------


class Style(_Strict):
    name: StrictStr = Field(min_length=1)
    section: StrictStr = Field(min_length=1)
    gladiator_class: GladiatorClass = Field(alias="class")
    standard: StrictBool = False
    cost: StrictInt | None = Field(default=None, ge=0)
    category: Literal["I", "II", "III", "IV", "V"] | None = None
    armour: Literal["rolled", "none", "rolled_twice"]
    helmet: StrictBool = True
    fixed_armour: dict[Area, Armour] = Field(default_factory=dict)
    shield: Literal["any", "small", "large", "hook", "none"]
    weapons: tuple[StrictStr, ...] = Field(min_length=1)
    optional_weapons: tuple[StrictStr, ...] = ()
    any_pair: StrictBool = False
    move: StrictInt = Field(ge=0, le=8)
    kneel_fall_prone: StrictBool = False
    opponents: tuple[StrictStr, ...] = ()
    fixed_style: StrictBool = False

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.armour == "none" and (self.fixed_armour or not self.helmet):
            raise ValueError(f"{self.name} wears no armour, so no fixed_armour or helmet entry")
        if self.any_pair and (len(self.weapons) != 2 or self.shield != "none"):
            raise ValueError(f"{self.name}: any_pair needs two weapons and no shield (§24.1)")
        if len(self.weapons) > 2:
            raise ValueError(f"{self.name} carries {len(self.weapons)} weapons; two hands, two")
        return self


class StyleTable(_Table):
    styles: dict[StrictStr, Style] = Field(min_length=1)


class StylesFile(_File):
    schema_: Literal["gladiator.colosseum.styles"] = Field(alias="schema")
    t37: StyleTable
    beast_fighters: StyleTable

    @model_validator(mode="after")
    def _references(self) -> Self:
        both = set(self.t37.styles) & set(self.beast_fighters.styles)
        if both:
            raise ValueError(f"styles listed in T37 and among the beast fighters: {sorted(both)}")
        known = self.all_styles()
        for key, style in known.items():
            unknown = [o for o in style.opponents if o not in known]
            if unknown:
                raise ValueError(f"style {key} fights unknown styles {unknown}")
        standard = sorted(s.gladiator_class for s in self.t37.styles.values() if s.standard)
        if standard != ["heavy", "light", "medium"]:
            raise ValueError(f"T37 needs one standard style per class, got {standard}")
        if any(s.standard for s in self.beast_fighters.styles.values()):
            raise ValueError("the standard styles are T37's (§19.2, §19.3, §19.4)")
        return self

    def all_styles(self) -> dict[str, Style]:
        return {**self.t37.styles, **self.beast_fighters.styles}

    def style(self, key: str) -> Style:
        try:
            return self.all_styles()[key]
        except KeyError:
            raise ValueError(f"unknown fighting style {key!r}") from None


# --- T13 collision with a wall (§25.4) ------------------------------------------------------------


class WallDrms(_Strict):
    moved_forward: Modifier
    pushed: Modifier
    agility: Modifier


class WallCollisionTable(_Table):
    dice: Dice
    roll_on: Literal["stun"]
    drms: WallDrms

    @model_validator(mode="after")
    def _dice(self) -> Self:
        _check_dice(self.dice)
        return self


class WallCollisionFile(_File):
    schema_: Literal["gladiator.colosseum.wall-collision"] = Field(alias="schema")
    t13: WallCollisionTable


# --- T16-T18 the net (§20) ------------------------------------------------------------------------


class NetAttack(_Strict):
    name: StrictStr = Field(min_length=1)
    section: StrictStr = Field(min_length=1)
    cf: StrictInt = Field(ge=1)
    front: FrontName
    blocked_phases: StrictInt = Field(ge=0, le=7)
    target: Literal["opponent", "first_figure", "moved_through"]
    table: Literal["t16", "t17", "t18"]
    results: dict[CrtCode, NetEffect] = Field(min_length=1)
    no_effect_on: tuple[Literal["kneeling", "prone"], ...] = ()
    hexes: dict[int, _Hex] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _hexes(self) -> Self:
        if (self.target == "moved_through") != bool(self.hexes):
            raise ValueError(f"{self.name}: plotted hexes go with a moved_through target")
        if self.hexes and sorted(self.hexes) != list(range(1, len(self.hexes) + 1)):
            raise ValueError(f"{self.name}: plotted hexes must be numbered 1, 2, 3...")
        return self


class NetAttacksTable(_Table):
    per_phase: StrictInt = Field(ge=1)
    crt_column: StrictInt = Field(le=8)
    dice: Dice
    attacks: dict[NetCode, NetAttack]

    @model_validator(mode="after")
    def _all(self) -> Self:
        _check_dice(self.dice)
        if set(self.attacks) != {"TN", "SN", "LN"}:
            raise ValueError(f"the net attacks must be TN, SN and LN, got {sorted(self.attacks)}")
        if len({a.table for a in self.attacks.values()}) != len(self.attacks):
            raise ValueError("each net attack has a table of its own")
        return self


class TossDrms(_Strict):
    target_heavy: Modifier
    target_light: Modifier
    target_adjacent: Modifier
    target_two_hexes: Modifier
    target_moved_backward: Modifier
    target_paused: Modifier
    target_kneeling: Modifier
    repel_net: Modifier
    target_legs_cf_lost: Modifier
    retiarius_arms_cf_lost: Modifier
    nf_difference: Modifier
    positional_advantage: Modifier
    non_retiarius: Modifier


class SwingDrms(_Strict):
    target_heavy: Modifier
    target_light: Modifier
    target_adjacent: Modifier
    target_moved_backward: Modifier
    target_moved_forward: Modifier
    target_rotated: Modifier
    repel_net: Modifier
    target_legs_cf_lost: Modifier
    retiarius_arms_cf_lost: Modifier
    nf_difference: Modifier
    positional_advantage: Modifier
    non_retiarius: Modifier


class LayDrms(_Strict):
    target_heavy: Modifier
    target_light: Modifier
    target_moved_backward: Modifier
    target_moved_forward: Modifier
    repel_net: Modifier
    target_legs_cf_lost: Modifier
    retiarius_arms_cf_lost: Modifier
    nf_difference: Modifier
    positional_advantage: Modifier
    non_retiarius: Modifier


class NetTossTable(_Table):
    drms: TossDrms


class NetSwingTable(_Table):
    drms: SwingDrms


class NetLayTable(_Table):
    drms: LayDrms


class SwingHex(_Hex):
    name: StrictStr = Field(min_length=1)


class SwingOrderTable(_Table):
    order: tuple[SwingHex, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _distinct(self) -> Self:
        if len({h.at for h in self.order}) != len(self.order):
            raise ValueError("T17b lists a hex twice")
        if len({h.name for h in self.order}) != len(self.order):
            raise ValueError("T17b names a hex twice")
        return self

    @property
    def hexes(self) -> tuple[tuple[int, int], ...]:
        """The hexes in the order the swing meets them (1st first)."""
        return tuple(h.at for h in self.order)


class RepelNetTable(_Table):
    code: Literal["RN"]
    name: StrictStr
    kind: Literal["special"]
    hexes: Literal[0]
    rotation: StrictInt = Field(ge=0, le=3)

    @property
    def action(self) -> Action:
        """RN as a T39 action (§7.4): a special action that neither moves nor turns him."""
        return Action(name=self.name, kind=self.kind, hexes=self.hexes, rotation=self.rotation)


class EscapeRoll(_Strict):
    dice: Dice
    escapes_below: StrictInt
    result_added_to_attacks: StrictBool


class DragRoll(_Strict):
    dice: Dice
    dragged_if_above: StrictInt
    needs_cf: StrictInt = Field(ge=0)


class StruggleRoll(_Strict):
    dice: Dice
    tie_to_retiarius: StrictBool


class EnsnareTable(_Table):
    escape: EscapeRoll
    drag: DragRoll
    struggle: StruggleRoll
    non_retiarius_needs_free_hand: StrictBool

    @model_validator(mode="after")
    def _dice(self) -> Self:
        _check_dice(self.escape.dice, self.drag.dice, self.struggle.dice)
        return self


class NetsFile(_File):
    schema_: Literal["gladiator.colosseum.nets"] = Field(alias="schema")
    net_attacks: NetAttacksTable
    t16: NetTossTable
    t17: NetSwingTable
    t17b: SwingOrderTable
    t18: NetLayTable
    repel_net: RepelNetTable
    ensnare: EnsnareTable

    def attack(self, code: NetCode) -> NetAttack:
        return self.net_attacks.attacks[code]


# --- T19 optional weapons (§21, §20.9) ------------------------------------------------------------


class Breakage(_Strict):
    dice: Dice
    above: StrictInt
    dropped: StrictBool = False
    fragment_dice: Dice | None = None
    fragment_usable_on: tuple[StrictInt, ...] = ()
    fragment_reach: StrictInt | None = Field(default=None, ge=1)

    @model_validator(mode="after")
    def _fragment(self) -> Self:
        _check_dice(self.dice)
        parts = (self.fragment_dice, self.fragment_usable_on or None, self.fragment_reach)
        if any(p is None for p in parts) != all(p is None for p in parts):
            raise ValueError("a broken fragment needs fragment_dice, _usable_on and _reach")
        if self.fragment_dice is not None:
            faces = _faces(self.fragment_dice)
            if not set(self.fragment_usable_on) <= set(faces):
                raise ValueError(f"fragment_usable_on must be rolls of {self.fragment_dice}")
        return self


class Carried(_Strict):
    min: StrictInt = Field(ge=1)
    max: StrictInt
    default: StrictInt

    @model_validator(mode="after")
    def _order(self) -> Self:
        if not self.min <= self.default <= self.max:
            raise ValueError("carried needs min <= default <= max")
        return self


class Weapon(_Strict):
    name: StrictStr = Field(min_length=1)
    latin: StrictStr | None = None
    section: StrictStr = Field(min_length=1)
    spd: StrictInt = Field(ge=-4, le=4)
    reach: StrictInt = Field(ge=1)
    min_range: StrictInt | None = Field(default=None, ge=1)
    thr: StrictInt = Field(ge=0)
    crt: StrictInt
    notes: StrictStr
    half_cf: tuple[Literal["always", "at_range_2", "with_shield", "with_net"], ...] = ()
    two_handed: StrictBool = False
    wound_drm: StrictInt = 0
    st_bonus: StrictInt = 0
    hit_stun: Dice | None = None
    shield_damage_drm: StrictInt = 0
    conversion: StrictStr | None = None
    shield: Literal["small", "large"] | None = None
    grabs_net_on: tuple[CrtCode, ...] = ()
    net_struggle_drm: StrictInt = 0
    breaks: Breakage | None = None
    carried: Carried | None = None
    users: tuple[StrictStr, ...] = ()

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.two_handed and "with_shield" not in self.half_cf:
            raise ValueError(f"{self.name} is two-handed (2H): half CF goes with_shield")
        if self.min_range is not None and self.min_range > self.reach:
            raise ValueError(f"{self.name}: min_range {self.min_range} is beyond reach")
        if "at_range_2" in self.half_cf and self.reach < 2:
            raise ValueError(f"{self.name}: half CF at range 2 needs reach 2 or more")
        if self.hit_stun is not None:
            _check_dice(self.hit_stun)
        return self


class WeaponTable(_Table):
    weapons: dict[StrictStr, Weapon] = Field(min_length=1)

    @model_validator(mode="after")
    def _sword(self) -> Self:
        if "sword" not in self.weapons:
            raise ValueError("T19 must hold the standard sword")
        return self

    def weapon(self, key: str) -> Weapon:
        try:
            return self.weapons[key]
        except KeyError:
            raise ValueError(f"unknown weapon {key!r}; T19 has {sorted(self.weapons)}") from None


class WeaponsFile(_File):
    schema_: Literal["gladiator.colosseum.weapons"] = Field(alias="schema")
    t19: WeaponTable


# --- T20 special attacks and defences (§22) -------------------------------------------------------


class CfLost(_Strict):
    sources: tuple[CfSource, ...] = Field(alias="from", min_length=1)
    below: StrictInt = Field(ge=1)


class HBonusDrm(_Strict):
    drm: StrictInt = 0
    per_h_bonus: StrictInt


class CounterAttack(_Strict):
    cf: StrictInt = Field(ge=1)
    per_h_bonus: StrictInt


class HBonusRoll(_Strict):
    dice: Dice
    per_h_bonus: StrictInt

    @model_validator(mode="after")
    def _dice(self) -> Self:
        _check_dice(self.dice)
        return self


class CfLoss(HBonusRoll):
    who: Literal["defender", "attacker"]


class ReferenceSheet(_Strict):
    """What the reference sheet prints where it differs from the rules text."""

    requires: tuple[Requirement, ...] | None = None
    cf_lost: CfLost | None = None
    auto: CrtCode | None = None
    cf_loss_dice: Dice | None = None


class SpecialAttack(_Strict):
    name: StrictStr = Field(min_length=1)
    section: StrictStr = Field(min_length=1)
    area: Area | Literal["any"]
    requires: tuple[Requirement, ...] = ()
    cf_lost: CfLost | None = None
    reach: StrictInt | None = Field(default=None, ge=1)
    h_becomes: CrtCode | None = None
    damage: Literal["full", "half", "none"]
    other_results: Literal["normal", "none"] = "normal"
    weapon_drop: HBonusDrm | None = None
    counter: CounterAttack | None = None
    stumble: HBonusDrm | None = None
    stun: HBonusRoll | None = None
    cf_loss: CfLoss | None = None
    reference_sheet: ReferenceSheet | None = None


class SpecialDefence(_Strict):
    name: StrictStr = Field(min_length=1)
    section: StrictStr = Field(min_length=1)
    area: Area
    requires: tuple[Requirement, ...] = ()
    cf_lost: CfLost | None = None
    auto: CrtCode
    reference_sheet: ReferenceSheet | None = None


class SpecialsTable(_Table):
    attacks_per_phase: StrictInt = Field(ge=1)
    defences_per_phase: StrictInt = Field(ge=1)
    defence_cost_cf: StrictInt = Field(ge=1)
    attacks: dict[SpecialAttackCode, SpecialAttack]
    defences: dict[SpecialDefenceCode, SpecialDefence]

    @model_validator(mode="after")
    def _complete(self) -> Self:
        if set(self.attacks) != {"A", "F", "S", "H", "T"}:
            raise ValueError(f"T20 needs special attacks A F S H T, got {sorted(self.attacks)}")
        if set(self.defences) != {"D", "B", "K", "P", "L"}:
            raise ValueError(f"T20 needs special defences D B K P L, got {sorted(self.defences)}")
        areas = sorted(d.area for d in self.defences.values())
        if areas != sorted(AREAS):
            raise ValueError(f"T20's special defences must protect one area each, got {areas}")
        return self


class SpecialsFile(_File):
    schema_: Literal["gladiator.colosseum.specials"] = Field(alias="schema")
    t20: SpecialsTable


# --- §23 unarmed, §24 two weapons, §26 cleaving, §27 team combat ----------------------------------


class ParryWounds(_Strict):
    codes: tuple[CrtCode, ...] = Field(min_length=1)
    area: Area
    as_result: CrtCode


class HitStun(HBonusRoll):
    attacker_st: StrictBool


class UnarmedTable(_Table):
    reach: StrictInt = Field(ge=1)
    half_cf: StrictBool
    spd: StrictInt
    changes: dict[CrtCode, CrtCode]
    parry_wounds_attacker: ParryWounds
    hit_stun: HitStun
    critical_per_stun: StrictInt
    critical_ignored: tuple[StrictStr, ...]
    critical_fall_prone_drm: StrictInt


class PairBonus(_Strict):
    cf: StrictInt = Field(ge=0)
    spd: StrictInt = 0
    weapon_drop_drm: StrictInt = 0
    same_only: StrictBool = False


class NeverPaired(_Strict):
    two_handed: StrictBool
    weapons: tuple[StrictStr, ...] = ()


class TwoWeaponTable(_Table):
    trained_style: StrictStr
    trained_same: PairBonus
    trained_different: PairBonus
    untrained: PairBonus
    conversion: StrictStr
    never_paired: NeverPaired


class CleavingTable(_Table):
    blood_dice: Dice
    on_wound_result: Literal["kill"]
    placed_as: Literal["dropped_object"]
    stumble_check_on_entry: StrictBool

    @model_validator(mode="after")
    def _dice(self) -> Self:
        _check_dice(self.blood_dice)
        return self


class TeamTable(_Table):
    undefended_from: tuple[RelationCode, ...]
    pa_to_one_attack: StrictBool
    adjacent_unattacked_first: StrictBool


class AdvancedCombatFile(_File):
    schema_: Literal["gladiator.colosseum.advanced-combat"] = Field(alias="schema")
    unarmed: UnarmedTable
    two_weapon: TwoWeaponTable
    cleaving: CleavingTable
    team: TeamTable


# --- T21-T25 beasts (§28) -------------------------------------------------------------------------


class Beast(_Strict):
    name: StrictStr = Field(min_length=1)
    st: StrictInt
    ag: StrictInt
    cn: StrictInt
    w: StrictInt = Field(ge=1)
    cf: StrictInt = Field(ge=1)
    hexes: Literal[1, 2]


class BeastTable(_Table):
    beasts: dict[StrictStr, Beast] = Field(min_length=1)


class BeastMove(_Strict):
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


class BeastMovementTable(_Table):
    dice: Dice
    bear_rears_on: tuple[StrictInt, ...]
    rows: tuple[BeastMove, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _covers(self) -> Self:
        faces = _faces(self.dice)
        _check_runs("T22", [(r.lo, r.hi) for r in self.rows], faces)
        if not set(self.bear_rears_on) <= set(faces):
            raise ValueError(f"T22 bear_rears_on must be rolls of {self.dice}")
        return self

    def row(self, roll: int) -> BeastMove:
        for row in self.rows:
            if row.lo <= roll <= row.hi:
                return row
        raise ValueError(f"beast movement roll {roll} is not a {self.dice} roll")


class BeastCollisionTable(_Table):
    dice: Dice
    automatic: StrictBool
    beast: dict[StrictStr, StrictInt]
    moved: Modifier

    @model_validator(mode="after")
    def _dice(self) -> Self:
        _check_dice(self.dice)
        return self


class BeastHex(_Hex):
    name: StrictStr = Field(min_length=1)
    pa: StrictInt = Field(ge=0)
    areas: tuple[StrictInt, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _areas(self) -> Self:
        if list(self.areas) != sorted(set(self.areas)) or not set(self.areas) <= {1, 2, 3, 4, 5}:
            raise ValueError(f"T24 {self.name}: areas must be distinct body areas 1-5 in order")
        return self


class BeastPaTable(_Table):
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


class BeastCriticalTable(_Table):
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


class RearedBear(_Strict):
    areas: tuple[StrictInt, ...] = Field(min_length=1)
    cf_bonus: StrictInt
    pa_as_gladiator: StrictBool


class BeastCombatTable(_Table):
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
        _check_dice(self.attacks_dice)
        kept = [f for f in _faces(self.area_dice) if f not in self.area_reroll]
        if kept != [1, 2, 3, 4, 5]:
            raise ValueError(f"beast attack areas: {self.area_dice} less re-rolls must be 1-5")
        if not set(self.reared_bear.areas) <= set(kept):
            raise ValueError("a reared bear's areas must be body areas 1-5")
        return self


class BeastsFile(_File):
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


# --- T26-T30 centurions (§29) ---------------------------------------------------------------------


class CenturionRow(_Strict):
    tr: StrictInt
    st: StrictInt
    ag: StrictInt
    cn: StrictInt
    w: StrictInt

    @property
    def cf(self) -> int:
        """§3.11.2: CF = TR + ST + AG."""
        return self.tr + self.st + self.ag

    @property
    def nf(self) -> int:
        """§3.11.2: NF = TR + AG."""
        return self.tr + self.ag


class DiceAndModifier(_Strict):
    dice: Dice
    modifier: StrictInt

    @model_validator(mode="after")
    def _dice(self) -> Self:
        _check_dice(self.dice)
        return self


class CenturionTable(_Table):
    dice: Literal["D66"]
    fighting_spirit: DiceAndModifier
    prestige_dice: Dice
    rows: dict[int, CenturionRow]

    @model_validator(mode="after")
    def _d66(self) -> Self:
        _check_dice(self.prestige_dice)
        if set(self.rows) != _D66:
            missing = sorted(_D66 - set(self.rows))
            extra = sorted(set(self.rows) - _D66)
            raise ValueError(f"T26 needs a row for each D66 roll 11-66: missing {missing}, {extra}")
        return self

    def row(self, d66: int) -> CenturionRow:
        try:
            return self.rows[d66]
        except KeyError:
            raise ValueError(f"{d66} is not a D66 roll (11-66, digits 1-6)") from None


class Threshold(_Strict):
    below: StrictInt


class PauseDrms(_Strict):
    range: Modifier
    pauses_remaining: Modifier
    phase: Modifier
    positional_advantage: Modifier


class PauseCheck(Threshold):
    drms: PauseDrms


class Rotation(_Strict):
    red: StrictInt = Field(ge=0, le=3)
    grey: StrictInt = Field(ge=0, le=3)
    white: StrictInt = Field(ge=0, le=3)

    def for_colour(self, colour: Colour) -> int:
        value: int = getattr(self, colour)
        return value


class PositionDrms(_Strict):
    stun: Modifier
    range: Modifier
    positional_advantage: Modifier
    fighting_spirit: Modifier


class PositionCheck(_Strict):
    applies_to: Literal["red_die"]
    no_rotation_above: StrictInt
    charge_at_least: StrictInt
    rotation: Rotation
    drms: PositionDrms


class CfDice(_Strict):
    dice: Dice
    per_cf: StrictInt = Field(ge=1)
    rounding: Literal["up", "down"]

    @model_validator(mode="after")
    def _dice(self) -> Self:
        _check_dice(self.dice)
        return self

    def count(self, cf: int) -> int:
        """How many dice for `cf` CFs: one per `per_cf`, rounded as the rule says."""
        cf = max(cf, 0)
        return -(-cf // self.per_cf) if self.rounding == "up" else cf // self.per_cf


class CenturionChecks(_Table):
    movement_roll: Literal["2D6", "D66"]
    position_roll: Literal["D66"]
    pause: PauseCheck
    position: PositionCheck
    prone: Threshold
    kick: Threshold
    repel_net: Threshold
    net_escape: CfDice


class PauseOverrides(_Table):
    must_pause_when_pauses_fill_phases: StrictBool
    skip_when_no_pauses_left: StrictBool


class RmcRow(_Hex):
    lo: StrictInt | None = None
    hi: StrictInt | None = None
    colour: Colour
    bearing: StrictStr = Field(min_length=1)

    def holds(self, value: int) -> bool:
        return (self.lo is None or self.lo <= value) and (self.hi is None or value <= self.hi)


class RmcTable(_Table):
    rows: tuple[RmcRow, ...] = Field(min_length=2)

    @model_validator(mode="after")
    def _covers(self) -> Self:
        if self.rows[0].lo is not None or self.rows[-1].hi is not None:
            raise ValueError("T28's first row must be open below and its last open above")
        for before, after in zip(self.rows, self.rows[1:], strict=False):
            if before.hi is None or after.lo is None or after.lo <= before.hi:
                raise ValueError(f"T28 rows must rise without overlap: {before.hi} then {after.lo}")
            if after.hi is not None and after.hi < after.lo:
                raise ValueError(f"T28 row {after.lo}-{after.hi} is empty")
        # Every adjusted D66 value (tens 0..6 and beyond, ones 1..6) in exactly one row.
        for tens in range(-1, 8):
            for ones in range(1, 7):
                value = 10 * tens + ones
                if not any(r.holds(value) for r in self.rows):
                    raise ValueError(f"T28: the adjusted roll {value:02d} is in no row")
        at = [r.at for r in self.rows]
        reach = {(a, b) for a in range(-2, 3) for b in range(-2, 3) if _hex_range(a, b) <= 2}
        if len(set(at)) != len(at) or set(at) != reach:
            raise ValueError("T28 must send each roll to a different hex of the 19 within range 2")
        for r in self.rows:
            ring = _hex_range(r.fl, r.fr)
            if (ring == 0) != (r.colour == "white"):
                raise ValueError("T28: the centre hex, and only it, is WHITE")
        return self

    def row(self, red: int, white: int, red_drm: int = 0) -> RmcRow:
        """The hex for the Movement roll read as D66, the Position DRMs on the RED die."""
        value = 10 * (red + red_drm) + white
        for r in self.rows:
            if r.holds(value):
                return r
        raise AssertionError("unreachable: the rows cover every value")


class CenturionNetRow(_Strict):
    lo: StrictInt
    hi: StrictInt
    attack: NetCode
    text: StrictStr


class CenturionNetTable(_Table):
    dice: Dice
    lay_hex_dice: Dice
    rows: tuple[CenturionNetRow, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _covers(self) -> Self:
        _check_dice(self.lay_hex_dice)
        _check_runs("T29", [(r.lo, r.hi) for r in self.rows], _faces(self.dice))
        return self

    def attack(self, roll: int) -> NetCode:
        for r in self.rows:
            if r.lo <= roll <= r.hi:
                return r.attack
        raise ValueError(f"centurion net roll {roll} is not a {self.dice} roll")


class EffectiveFs(_Strict):
    light: StrictInt
    medium: StrictInt
    heavy: StrictInt

    def for_class(self, gladiator_class: GladiatorClass) -> int:
        value: int = getattr(self, gladiator_class)
        return value


class CenturionCfTable(_Table):
    defence: CfDice
    effective_fs: EffectiveFs
    first_defence_buys_special: StrictBool
    area_dice: Dice
    special_on: StrictInt
    attack_fallback: Literal["most_attack_cf"]
    defence_fallback: Literal["weakest_armour"]

    @model_validator(mode="after")
    def _areas(self) -> Self:
        kept = [f for f in _faces(self.area_dice) if f != self.special_on]
        if kept != list(range(1, len(AREAS) + 1)) or len(kept) == len(_faces(self.area_dice)):
            raise ValueError(f"T30: {self.area_dice} must give areas 1-5 and special_on")
        return self


class CenturionsFile(_File):
    schema_: Literal["gladiator.colosseum.centurions"] = Field(alias="schema")
    t26: CenturionTable
    t27: CenturionChecks
    pause_overrides: PauseOverrides
    t28: RmcTable
    t29: CenturionNetTable
    t30: CenturionCfTable


# --- the whole set --------------------------------------------------------------------------------


class AdvancedTables(_Strict):
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

    def files(self) -> dict[str, _File]:
        """Each data file's model by its file name."""
        return {name: getattr(self, attr) for name, (attr, _model) in ADVANCED_FILES.items()}


# File name -> (attribute of AdvancedTables, model). The loader reads exactly these files.
ADVANCED_FILES: dict[str, tuple[str, type[_File]]] = {
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


def parse_advanced_file(name: str, text: str) -> _File:
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
        raise ValueError(f"colosseum table {name} is invalid: {_one_line(exc)}") from None


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
        raise ValueError(f"colosseum tables do not fit together: {_one_line(exc)}") from None
    except ValueError as exc:
        raise ValueError(f"colosseum tables do not fit together: {exc}") from None
    return adv


@cache
def advanced_tables() -> AdvancedTables:
    """The packaged Advanced Game tables, read and checked once (against `tables()`)."""
    data = resources.files("gladiator.rules.colosseum").joinpath("data")
    return load_advanced_tables(data, basic=tables())
