"""The schema of centurions.toml: T26-T30, the centurions and the §29 solitaire bot's charts."""

from __future__ import annotations

from typing import Literal, Self

from pydantic import Field, StrictBool, StrictInt, StrictStr, model_validator

from gladiator.rules.colosseum.tables.net_tables import NetCode
from gladiator.rules.colosseum.tables.table_schema import (
    Dice,
    Modifier,
    Strict,
    Table,
    TableFile,
    TableHex,
    check_dice,
    check_runs,
    dice_faces,
    hex_range,
)
from gladiator.rules.colosseum.vocabulary import AREAS, GladiatorClass

Colour = Literal["red", "grey", "white"]

_D66: frozenset[int] = frozenset(10 * t + o for t in range(1, 7) for o in range(1, 7))


class CenturionRow(Strict):
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


class DiceAndModifier(Strict):
    dice: Dice
    modifier: StrictInt

    @model_validator(mode="after")
    def _dice(self) -> Self:
        check_dice(self.dice)
        return self


class CenturionTable(Table):
    dice: Literal["D66"]
    fighting_spirit: DiceAndModifier
    prestige_dice: Dice
    rows: dict[int, CenturionRow]

    @model_validator(mode="after")
    def _d66(self) -> Self:
        check_dice(self.prestige_dice)
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


class Threshold(Strict):
    below: StrictInt


class PauseDrms(Strict):
    range: Modifier
    pauses_remaining: Modifier
    phase: Modifier
    positional_advantage: Modifier


class PauseCheck(Threshold):
    drms: PauseDrms


class Rotation(Strict):
    red: StrictInt = Field(ge=0, le=3)
    grey: StrictInt = Field(ge=0, le=3)
    white: StrictInt = Field(ge=0, le=3)

    def for_colour(self, colour: Colour) -> int:
        value: int = getattr(self, colour)
        return value


class PositionDrms(Strict):
    stun: Modifier
    range: Modifier
    positional_advantage: Modifier
    fighting_spirit: Modifier


class PositionCheck(Strict):
    applies_to: Literal["red_die"]
    no_rotation_above: StrictInt
    charge_at_least: StrictInt
    rotation: Rotation
    drms: PositionDrms


class CfDice(Strict):
    dice: Dice
    per_cf: StrictInt = Field(ge=1)
    rounding: Literal["up", "down"]

    @model_validator(mode="after")
    def _dice(self) -> Self:
        check_dice(self.dice)
        return self

    def count(self, cf: int) -> int:
        """How many dice for `cf` CFs: one per `per_cf`, rounded as the rule says."""
        cf = max(cf, 0)
        return -(-cf // self.per_cf) if self.rounding == "up" else cf // self.per_cf


class CenturionChecks(Table):
    movement_roll: Literal["2D6", "D66"]
    position_roll: Literal["D66"]
    pause: PauseCheck
    position: PositionCheck
    prone: Threshold
    kick: Threshold
    repel_net: Threshold
    net_escape: CfDice


class PauseOverrides(Table):
    must_pause_when_pauses_fill_phases: StrictBool
    skip_when_no_pauses_left: StrictBool


class RmcRow(TableHex):
    lo: StrictInt | None = None
    hi: StrictInt | None = None
    colour: Colour
    bearing: StrictStr = Field(min_length=1)

    def holds(self, value: int) -> bool:
        return (self.lo is None or self.lo <= value) and (self.hi is None or value <= self.hi)


class RmcTable(Table):
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
        reach = {(a, b) for a in range(-2, 3) for b in range(-2, 3) if hex_range(a, b) <= 2}
        if len(set(at)) != len(at) or set(at) != reach:
            raise ValueError("T28 must send each roll to a different hex of the 19 within range 2")
        for r in self.rows:
            ring = hex_range(r.fl, r.fr)
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


class CenturionNetRow(Strict):
    lo: StrictInt
    hi: StrictInt
    attack: NetCode
    lay_hex: Literal[1, 2, 3] | None = None  # A18: a Lay's hex is the face rolled
    text: StrictStr


class CenturionNetTable(Table):
    dice: Dice
    rows: tuple[CenturionNetRow, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _covers(self) -> Self:
        check_runs("T29", [(r.lo, r.hi) for r in self.rows], dice_faces(self.dice))
        lays = [r for r in self.rows if r.attack == "LN"]
        if any(r.lo != r.hi for r in lays) or sorted(r.lay_hex or 0 for r in lays) != [1, 2, 3]:
            raise ValueError("T29: each Net Lay face names one hex, 1 left, 2 centre, 3 right")
        if any(r.lay_hex is not None for r in self.rows if r.attack != "LN"):
            raise ValueError("T29: only a Net Lay names a hex")
        return self

    def row(self, roll: int) -> CenturionNetRow:
        for r in self.rows:
            if r.lo <= roll <= r.hi:
                return r
        raise ValueError(f"centurion net roll {roll} is not a {self.dice} roll")

    def attack(self, roll: int) -> NetCode:
        return self.row(roll).attack


class EffectiveFs(Strict):
    light: StrictInt
    medium: StrictInt
    heavy: StrictInt

    def for_class(self, gladiator_class: GladiatorClass) -> int:
        value: int = getattr(self, gladiator_class)
        return value


class CenturionCfTable(Table):
    defence: CfDice
    effective_fs: EffectiveFs
    first_defence_buys_special: StrictBool
    area_dice: Dice
    special_on: StrictInt
    attack_fallback: Literal["most_attack_cf"]
    defence_fallback: Literal["weakest_armour"]

    @model_validator(mode="after")
    def _areas(self) -> Self:
        kept = [f for f in dice_faces(self.area_dice) if f != self.special_on]
        if kept != list(range(1, len(AREAS) + 1)) or len(kept) == len(dice_faces(self.area_dice)):
            raise ValueError(f"T30: {self.area_dice} must give areas 1-5 and special_on")
        return self


class CenturionsFile(TableFile):
    schema_: Literal["gladiator.colosseum.centurions"] = Field(alias="schema")
    t26: CenturionTable
    t27: CenturionChecks
    pause_overrides: PauseOverrides
    t28: RmcTable
    t29: CenturionNetTable
    t30: CenturionCfTable
