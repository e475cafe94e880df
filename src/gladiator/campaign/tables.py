"""The Campaign Game's tables (data/campaign.toml: T31-T36, the §37 money, P3), read and checked.

T37 (the Gladiator chart) is the Advanced Game's styles.toml, T4 the Basic Game's physical.toml
and T38 its arena.toml: `chart()`, `t4()` and `arena()` read them there, so the campaign and the
engine cannot disagree on a style's category or cost.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Literal, Self

from pydantic import Field, StrictInt, StrictStr, ValidationError, model_validator

from gladiator.rules.colosseum.tables.advanced_tables import advanced_tables
from gladiator.rules.colosseum.tables.arena_tables import ArenaTable
from gladiator.rules.colosseum.tables.sheet_tables import PhysicalTable
from gladiator.rules.colosseum.tables.style_tables import Style
from gladiator.rules.colosseum.tables.table_schema import Strict, Table, TableFile, one_line
from gladiator.rules.colosseum.tables.tables import tables

__all__ = [
    "CATEGORIES",
    "CampaignTables",
    "Category",
    "MatchType",
    "arena",
    "campaign_tables",
    "chart",
    "d66_index",
    "parse_campaign_tables",
    "t4",
]

Category = Literal["I", "II", "III", "IV", "V"]
CATEGORIES: tuple[Category, ...] = ("I", "II", "III", "IV", "V")
MatchType = Literal[
    "matched_pair",
    "two_on_one",
    "consecutive",
    "champion",
    "two_pairs",
    "three_pairs",
    "battle",
    "venatores",
    "bestiarii",
    "unique",
]
Rating = Literal["tr", "st", "ag", "cn", "w"]


def d66_index(value: int) -> int:
    """0..35 for a D66 result 11..66 (and on past 66 for the talent table's 71-76)."""
    tens, units = divmod(value, 10)
    if not 1 <= units <= 6 or tens < 1:
        raise ValueError(f"{value} is not a D66 result")
    return (tens - 1) * 6 + units - 1


def _check_d66(what: str, spans: list[tuple[int, int]], last: int) -> None:
    expected = 0
    for lo, hi in spans:
        a, b = d66_index(lo), d66_index(hi)
        if a != expected or b < a:
            raise ValueError(f"{what}: row {lo}-{hi} leaves a gap or overlaps")
        expected = b + 1
    if expected != d66_index(last) + 1:
        raise ValueError(f"{what}: rows must end at {last}")


class D66Row(Strict):
    lo: StrictInt
    hi: StrictInt

    def holds(self, value: int) -> bool:
        return d66_index(self.lo) <= d66_index(value) <= d66_index(self.hi)


class MatchRow(D66Row):
    type: MatchType
    name: StrictStr
    death: StrictInt | None = Field(default=None, ge=1, le=6)
    pairing: bool = True


class T31(Table):
    rows: tuple[MatchRow, ...]

    @model_validator(mode="after")
    def _covers(self) -> Self:
        _check_d66("T31", [(r.lo, r.hi) for r in self.rows], 66)
        return self

    def row(self, d66: int) -> MatchRow:
        return next(r for r in self.rows if r.holds(d66))


class PairingRow(D66Row):
    gladiator: Category
    challenger: Category | Literal["any"]


class T32(Table):
    any_dice: StrictStr
    any_reroll: StrictInt
    contra_retiarius_any: Category
    rows: tuple[PairingRow, ...]

    @model_validator(mode="after")
    def _covers(self) -> Self:
        _check_d66("T32", [(r.lo, r.hi) for r in self.rows], 66)
        return self

    def row(self, d66: int) -> PairingRow:
        return next(r for r in self.rows if r.holds(d66))


class Challengers(Table):
    record_dice: StrictStr
    record_modifier: StrictInt
    xp_per_record: StrictInt
    champion_xp: StrictInt
    consecutive_dice: StrictStr
    consecutive_plus: StrictInt
    battle_dice: StrictStr
    beasts_dice: StrictStr


class T33(Table):
    base_divisor: StrictInt = Field(gt=0)
    missus: StrictInt
    opponent_missus: StrictInt
    kill: StrictInt
    slow_per_turn: StrictInt
    quick_per_turn: StrictInt
    bonus_turns: StrictInt
    talent_roll: StrictInt
    talent_bonus_step: StrictInt = Field(gt=0)
    ratings: dict[Rating, StrictInt]

    @model_validator(mode="after")
    def _all_ratings(self) -> Self:
        if set(self.ratings) != {"tr", "st", "ag", "cn", "w"}:
            raise ValueError("T33 must price all five ratings")
        return self


class Injuries(Table):
    dice: StrictStr
    areas: tuple[Rating, Rating, Rating, Rating, Rating]


class OriginRow(Strict):
    lo: StrictInt
    hi: StrictInt
    origin: StrictStr
    name: StrictStr
    tr: StrictInt = 0
    st: StrictInt = 0
    ag: StrictInt = 0
    cn: StrictInt = 0
    w: StrictInt = 0
    pr: StrictInt = 0

    def drm(self, rating: str) -> int:
        value: int = getattr(self, rating)
        return value


class T34(Table):
    dice: StrictStr
    rows: tuple[OriginRow, ...]

    @model_validator(mode="after")
    def _covers(self) -> Self:
        expected = 2
        for r in self.rows:
            if r.lo != expected or r.hi < r.lo:
                raise ValueError(f"T34: row {r.lo}-{r.hi} leaves a gap or overlaps")
            expected = r.hi + 1
        if expected != 13:
            raise ValueError("T34 must cover 2D6 (2-12)")
        return self

    def row(self, roll: int) -> OriginRow:
        return next(r for r in self.rows if r.lo <= roll <= r.hi)

    def origin(self, key: str) -> OriginRow:
        return next(r for r in self.rows if r.origin == key)


class T35(Table):
    costs: dict[Literal["A", "B", "C"], tuple[StrictInt, ...]]
    coverages: tuple[StrictInt, ...]
    allowance: dict[Literal["light", "medium", "heavy"], StrictInt]
    styles: tuple[StrictStr, ...]

    @model_validator(mode="after")
    def _monotone(self) -> Self:
        for letter, row in self.costs.items():
            if len(row) != len(self.coverages) or list(row) != sorted(row):
                raise ValueError(f"T35 row {letter} must rise with coverage")
        return self

    def cost(self, letter: str, coverage: int) -> int:
        return self.costs[letter][self.coverages.index(coverage)]  # type: ignore[index]


class Prestige(Table):
    creation_dice: StrictStr
    change_dice: StrictStr
    bravado_pr: StrictInt
    bravado_change: StrictInt
    missus: StrictInt
    cleaved: StrictInt
    intimidation_dice: StrictStr


class TalentRow(D66Row):
    code: StrictStr
    name: StrictStr = ""


class T36(Table):
    tr_per_roll: StrictInt = Field(gt=0)
    rows: tuple[TalentRow, ...]
    max_red: StrictInt
    ws_weapons: tuple[StrictStr, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _covers(self) -> Self:
        _check_d66("T36", [(r.lo, r.hi) for r in self.rows], self.max_red * 10 + 6)
        weapons = advanced_tables().weapons.t19.weapons
        unknown = [w for w in self.ws_weapons if w not in weapons]
        if unknown:
            raise ValueError(f"T36 ws_weapons are not T19 weapons: {unknown}")
        return self

    def row(self, value: int) -> TalentRow:
        return next(r for r in self.rows if r.holds(value))

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(r.code for r in self.rows if r.code)


class Lanistas(Table):
    stable: StrictInt
    purse: StrictInt
    bought_purse: StrictInt
    bought_min: StrictInt
    bought_max: StrictInt
    colosseum_bonus: StrictInt
    freedom_bonus: StrictInt
    freedom_victories: StrictInt
    wager_min: StrictInt
    wager_max_odds: StrictInt
    auction_min_bid: StrictInt


class P3(Table):
    dice: StrictStr
    beasts: tuple[StrictStr, ...]

    @model_validator(mode="after")
    def _known(self) -> Self:
        known = advanced_tables().beasts.t21.beasts
        unknown = [b for b in self.beasts if b not in known]
        if unknown:
            raise ValueError(f"P3 names beasts T21 does not have: {unknown}")
        return self


class UniqueRow(Strict):
    roll: StrictInt
    name: StrictStr
    men: StrictInt = Field(ge=1)
    opponents: StrictInt = Field(default=0, ge=0)
    beasts: StrictInt = Field(default=0, ge=0)
    sine_missione: bool = False


class UniqueMenu(Table):
    """P4: the match-maker's Unique Matches (§30.2.1.1), and the limits a set-up keeps to."""

    dice: StrictStr
    max_side: StrictInt = Field(ge=1)
    max_beasts: StrictInt = Field(ge=1)
    rows: tuple[UniqueRow, ...] = Field(min_length=1)

    def row(self, roll: int) -> UniqueRow:
        return next(r for r in self.rows if r.roll == roll)


class Names(Table):
    names: tuple[StrictStr, ...] = Field(min_length=1)


class CampaignTables(TableFile):
    schema_: Literal["gladiator.campaign"] = Field(alias="schema")
    t31: T31
    t32: T32
    challengers: Challengers
    t33: T33
    injuries: Injuries
    t34: T34
    t35: T35
    prestige: Prestige
    t36: T36
    lanistas: Lanistas
    p3: P3
    unique: UniqueMenu
    names: Names

    @model_validator(mode="after")
    def _chart(self) -> Self:
        styles = advanced_tables().styles.t37.styles
        unknown = [s for s in self.t35.styles if s not in styles]
        if unknown:
            raise ValueError(f"T35 lets unknown styles customise: {unknown}")
        return self


def parse_campaign_tables(text: str) -> CampaignTables:
    """Parse and check the raw TOML of campaign.toml; a broken file gets one line."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"campaign.toml is not valid TOML: {exc}") from None
    try:
        return CampaignTables.model_validate(raw)
    except ValidationError as exc:
        raise ValueError(f"campaign.toml is invalid: {one_line(exc)}") from None


@cache
def campaign_tables() -> CampaignTables:
    text = resources.files("gladiator.campaign").joinpath("data/campaign.toml")
    return parse_campaign_tables(text.read_text(encoding="utf-8"))


def chart() -> dict[str, Style]:
    """T37 (§19, §37.2.1): the styles of the Gladiator chart, in chart order."""
    return dict(advanced_tables().styles.t37.styles)


def t4() -> PhysicalTable:
    """T4 (§3.11): the physical characteristics table."""
    return tables().physical.t4


def arena() -> ArenaTable:
    """T38 (§25.2): the arena size, rolled once per munus (Q22)."""
    return tables().arena.t38
