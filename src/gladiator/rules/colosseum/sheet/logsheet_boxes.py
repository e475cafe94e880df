"""The boxes of the Colosseum Edition's gladiator log sheet (§3), checked together, and what they
show: `SheetBoxes` holds every entry written before play (§3.1) and every mark a match adds, as a
frozen, validated record, and derives the move rate, CF and NF, the CF lost to wounds and
endurance, the Stun in effect, the shield's track and damage points. `LogSheet` (logsheet.py)
extends it with the marks themselves.

Everything the rulebook tabulates is read from the packaged tables (`tables()`): T1-T3 armour,
T4 characteristics, the move rates, T7a/P1 wound categories and P2 shield tracks.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Annotated, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, model_validator

from gladiator.rules.colosseum.kit.styles import check_styled_sheet, style
from gladiator.rules.colosseum.tables.sheet_tables import Armour, ArmourRow
from gladiator.rules.colosseum.tables.tables import tables
from gladiator.rules.colosseum.vocabulary import AREAS, Area, GladiatorClass

__all__ = [
    "AREA_NAMES",
    "ARMOUR_TABLE",
    "CAREER_MAX",
    "CHARACTERISTICS",
    "PHASES_PER_TURN",
    "PlotTurn",
    "SheetBoxes",
    "StunEntry",
    "area_index",
    "row_armour",
]

# §3.11.1: the five rolled characteristics, in the order they are rolled.
CHARACTERISTICS: tuple[Literal["tr", "st", "ag", "cn", "w"], ...] = ("tr", "st", "ag", "cn", "w")
# §3.9 and the reference's conventions: 1 Head, 2 Chest, 3 Groin, 4 Arms, 5 Legs.
AREA_NAMES: dict[Area, str] = {
    "head": "Head",
    "chest": "Chest",
    "groin": "Groin",
    "arms": "Arms",
    "legs": "Legs",
}
PHASES_PER_TURN = 8  # §5.1
CAREER_MAX = 99  # X1: the largest rating a campaign career's sheet takes (a typo guard)
# X1: the lowest: ST and AG are negative on T4 already (-2, -3) and injuries lower them further.
CAREER_LOW = {"tr": 1, "st": -CAREER_MAX, "ag": -CAREER_MAX, "cn": 0, "w": 1}
# §3.10: the armour table of each class.
ARMOUR_TABLE: dict[GladiatorClass, str] = {"light": "T1", "medium": "T2", "heavy": "T3"}

Shield = Literal["large", "small"]


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class StunEntry(_Frozen):
    """One Stun box (§3.14): the Stun total in effect, and the phase written with it (§11.2)."""

    total: StrictInt = Field(ge=0)
    turn: StrictInt = Field(ge=1)
    phase: StrictInt = Field(ge=1, le=PHASES_PER_TURN)


class PlotTurn(_Frozen):
    """One turn of the Turn & Phase Plot Record (§3.20): each phase's orders, in the text notation
    ('' = nothing written), and the CF lost to endurance at the end of the turn (§17.2)."""

    turn: StrictInt = Field(ge=1)
    phases: tuple[StrictStr, ...] = Field(
        default=("",) * PHASES_PER_TURN, min_length=PHASES_PER_TURN, max_length=PHASES_PER_TURN
    )
    endurance_cf_lost: StrictInt = Field(default=0, ge=0)


def area_index(area: Area | int) -> int:
    """0-4 for a body area given by name or by its log-sheet number 1-5 (§3.9)."""
    if isinstance(area, int) and not isinstance(area, bool) and 1 <= area <= len(AREAS):
        return area - 1
    if isinstance(area, str) and area in AREAS:
        return AREAS.index(area)
    raise ValueError(f"body area {area!r} is not 1-5 or one of {', '.join(AREAS)} (§3.9)")


@lru_cache(maxsize=1024)
def _categories_reached(area: int, w: int, wounds: int) -> int:
    """§10.3.1: the CF categories reached in an area by `wounds` marked from box W down; asked
    for every CF a rule reads, so remembered."""
    return tables().wound_categories.t7a.new_categories(AREAS[area], w, 0, wounds)


def row_armour(row: ArmourRow) -> tuple[Armour, ...]:
    return tuple(row.area(area) for area in AREAS)


def _armour_text(armour: tuple[Armour, ...]) -> str:
    return " ".join(f"{area}={a}" for area, a in zip(AREAS, armour, strict=True))


class SheetBoxes(_Frozen):
    """The log sheet's boxes (§3): the entries made before play and the match's marks, checked
    together, and what they show."""

    # -- written before play (§3.1) ---------------------------------------------------------
    id: StrictInt = Field(ge=1)  # §3.2: the counter's number
    name: StrictStr = Field(min_length=1)  # §3.3: flavour only
    gladiator_class: GladiatorClass  # §3.4
    prestige: StrictInt = 0  # §3.6 (rolled only in the Campaign Game, §35.2; may be negative)
    tr: StrictInt  # §3.11.1, each read from T4 with a 3D6 roll
    st: StrictInt
    ag: StrictInt
    cn: StrictInt
    w: StrictInt
    armour: tuple[Armour, Armour, Armour, Armour, Armour]  # §3.10.1, areas 1-5 in order
    # §3.10, §3.10.2; None only for an Advanced Game style without one (§19, styles.py F4).
    # (Annotated keeps typing's union cache from handing back an equal Literal in another order,
    # which would change the refusal's wording.)
    shield: Annotated[Shield, "§3.10"] | None
    armour_roll: StrictInt | None = Field(default=None, ge=1, le=6)  # the §3.10 1D6, if known
    opponent_is_retiarius: StrictBool = False  # §3.10.2
    # §19 (Advanced Game): his fighting style (a T37 key), which sets his armour, shield and
    # move rate (styles.py, F4); a Crupellarius's second armour roll (§19.4.4).
    style: StrictStr | None = None
    armour_roll_2: StrictInt | None = Field(default=None, ge=1, le=6)
    # §36.3 TG (Campaign Game, Q50, TL8): the first CF category of each area is not counted.
    toughness: StrictBool = False
    # §30-§35 (Campaign Game, campaign_entrants.py, X1, X3): `career` ratings come from a
    # campaign's career (XP and injuries, Q43), not 3D6 on T4; `custom_armour` was bought piece by
    # piece (§34), not rolled; `pb` is this match's Prestige CF bonus, the top CF box (§3.13.1,
    # §35.4). All three are off on every Basic and Advanced Game sheet.
    career: StrictBool = False
    custom_armour: StrictBool = False
    pb: StrictInt = Field(default=0, ge=0)
    # -- marks made during the match --------------------------------------------------------
    wounds: tuple[StrictInt, StrictInt, StrictInt, StrictInt, StrictInt] = (0, 0, 0, 0, 0)
    cf_lost_other: StrictInt = Field(default=0, ge=0)  # permanent losses besides wounds (§10.5 V)
    st_lost: StrictInt = Field(default=0, ge=0)  # §10.5 ST
    ag_lost: StrictInt = Field(default=0, ge=0)  # §10.5 AG
    stun: tuple[StunEntry, ...] = ()  # §3.14, §11.2
    # §3.17: boxes marked off, from the left; none on a new sheet, as every match starts with a
    # new shield (§12.1).
    shield_marked: StrictInt = Field(default=0, ge=0)
    plot: tuple[PlotTurn, ...] = ()  # §3.20

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        t4 = tables().physical.t4
        for rating in CHARACTERISTICS:  # §3.11.1: every rating is a value of its T4 column
            column = sorted({getattr(row, rating) for row in t4.rows})
            value = getattr(self, rating)
            if self.career:  # X1: a career's ratings may lie outside T4 (Q43)
                low = CAREER_LOW[rating]
                if not low <= value <= CAREER_MAX:
                    raise ValueError(
                        f"{rating.upper()} {value} is not {low} to {CAREER_MAX} (a career, X1)"
                    )
            elif value not in column:
                raise ValueError(
                    f"{rating.upper()} {value} is not on T4 ({column[0]} to {column[-1]}, §3.11.1)"
                )
        # §19: the style's armour, not a row of the table (F4); §34 (X3): bought armour is
        # neither.
        if self.style is not None and not self.custom_armour:
            check_styled_sheet(
                self.style,
                self.gladiator_class,
                self.armour,
                self.shield,
                (self.armour_roll, self.armour_roll_2),
                opponent_is_retiarius=self.opponent_is_retiarius,
            )
        elif self.armour_roll_2 is not None:
            raise ValueError("a second armour roll is a Crupellarius's (§19.4.4)")
        if self.style is None and not self.custom_armour:
            self._check_basic_armour()
        # §3.12: each area takes at most W wounds.
        for area, n in zip(AREAS, self.wounds, strict=True):
            if not 0 <= n <= self.w:
                raise ValueError(f"wounds {area} {n} are not 0 to W {self.w} (§3.12)")
        if self.shield_marked > len(self.shield_track):
            raise ValueError(
                f"shield_marked {self.shield_marked} is more than the {self.shield} track's "
                f"{len(self.shield_track)} boxes (§3.17, P2)"
            )
        when = [(e.turn, e.phase) for e in self.stun]
        if when != sorted(when):
            raise ValueError("stun entries must follow the phases in order (§11.2)")
        turns = [p.turn for p in self.plot]
        if turns != list(range(1, len(turns) + 1)):
            raise ValueError(f"plot turns must be 1, 2, 3... in order (§3.20), got {turns}")
        return self

    def _check_basic_armour(self) -> None:
        # §3.10.2: a Retiarius's opponent carries a small shield whatever the roll says.
        if self.opponent_is_retiarius and self.shield != "small":
            raise ValueError(
                f"a Retiarius's opponent carries a small shield, not {self.shield} (§3.10.2)"
            )
        # §3.10: the armour and shield are one row of the class's table.
        table = tables().armour.table(self.gladiator_class)
        name = ARMOUR_TABLE[self.gladiator_class]
        if self.armour_roll is not None:
            row = table.row(self.armour_roll)
            for area, got, want in zip(AREAS, self.armour, row_armour(row), strict=True):
                if got != want:
                    raise ValueError(
                        f"armour {area} {got} is not {name} roll {self.armour_roll}'s {want} "
                        "(§3.10)"
                    )
            if not self.opponent_is_retiarius and self.shield != row.shield:
                raise ValueError(
                    f"shield {self.shield} is not {name} roll {self.armour_roll}'s "
                    f"{row.shield} (§3.10)"
                )
        elif not any(
            row_armour(row) == self.armour
            and (self.opponent_is_retiarius or row.shield == self.shield)
            for row in table.rows.values()
        ):
            raise ValueError(
                f"armour {_armour_text(self.armour)} with a {self.shield} shield is not a row "
                f"of {name} (§3.10)"
            )

    # -- what the sheet shows ---------------------------------------------------------------
    @property
    def move(self) -> int:
        """§3.5: phases per turn in which he may move (light 6, medium 5, heavy 4); a style's own
        rate in the Advanced Game (§19: Velite 7, Retiarius 6, Crupellarius 3)."""
        if self.style is not None:
            return style(self.style).move
        rate: int = getattr(tables().actions.move_rates, self.gladiator_class)
        return rate

    @property
    def cf(self) -> int:
        """§3.11.2: CF = TR + ST + AG, as rolled."""
        return self.tr + self.st + self.ag

    @property
    def nf(self) -> int:
        """§3.11.2: NF = TR + AG, as rolled."""
        return self.tr + self.ag

    @property
    def current_st(self) -> int:
        return self.st - self.st_lost

    @property
    def current_ag(self) -> int:
        return self.ag - self.ag_lost

    @property
    def current_nf(self) -> int:
        """§3.11.3: NF drops with AG."""
        return self.tr + self.current_ag

    def armour_of(self, area: Area | int) -> Armour:
        """§3.10.1: the armour of a body area (by name or number 1-5)."""
        return self.armour[area_index(area)]

    def wound_categories(self, area: Area | int) -> tuple[tuple[int, ...], ...]:
        """§3.12.1 (P1, Q15): the area's CF categories, box W first, boxes above W blacked out."""
        t7a = tables().wound_categories.t7a
        cats = t7a.categories[AREAS[area_index(area)]]
        kept = [tuple(box for box in cat if box <= self.w) for cat in cats]
        if self.w > t7a.boxes:  # a beast's W past the sheet's boxes: the top category's (B4)
            top = next(i for i, cat in enumerate(cats) if t7a.boxes in cat)
            kept[top] = (*range(self.w, t7a.boxes, -1), *kept[top])
        return tuple(cat for cat in kept if cat)

    def wounds_in(self, area: Area | int) -> int:
        return self.wounds[area_index(area)]

    def cf_lost_to_wounds(self, area: Area | int | None = None) -> int:
        """§10.3.1: one CF for every CF category reached, in one area or in all of them."""
        indices = range(len(AREAS)) if area is None else (area_index(area),)
        lost = sum(_categories_reached(i, self.w, self.wounds[i]) for i in indices)
        if self.toughness:  # §36.3 TG (Q50, TL8): an area's first category is ignored
            lost -= sum(1 for i in indices if self.wounds[i])
        return lost

    @property
    def cf_lost_to_endurance(self) -> int:
        """§17.1, §17.2: endurance losses, recorded on the plot record, last the whole match."""
        return sum(p.endurance_cf_lost for p in self.plot)

    @property
    def current_cf(self) -> int:
        """§3.13: CF less wound categories (§10.3.1), critical V (§10.5) and endurance (§17).

        ST and AG losses do not lower it (§3.11.3, §10.5.2). It may fall below 1 (§10.3.3).
        """
        return self.cf - self.cf_lost_to_wounds() - self.cf_lost_other - self.cf_lost_to_endurance

    @property
    def stun_in_effect(self) -> int:
        """§3.14: the last Stun total written, 0 if none."""
        return self.stun[-1].total if self.stun else 0

    @property
    def last_stunned(self) -> tuple[int, int] | None:
        """(turn, phase) written with the last Stun box (§11.2, §11.5.2), for §11.5.1."""
        return (self.stun[-1].turn, self.stun[-1].phase) if self.stun else None

    def available_cf(self, pa_bonus: int = 0) -> int:
        """§9.3.1: CFs available = current CF + PA bonus − Stun in effect (may be below 1)."""
        return self.current_cf + pa_bonus - self.stun_in_effect

    @property
    def killed(self) -> bool:
        """§10.3.2: every box of any one area is marked."""
        return any(n >= self.w for n in self.wounds)

    @property
    def unconscious(self) -> bool:
        """§11.4: his Stun exceeds his CF (a CF below 1 alone leaves him conscious, §10.3.3)."""
        stun = self.stun_in_effect
        return stun > 0 and stun > self.current_cf

    @property
    def shield_track(self) -> tuple[int | Literal["P", "H"], ...]:
        """§3.17 (P2, Q16): the shield's boxes in the order they are marked off (none without a
        shield)."""
        if self.shield is None:
            return ()
        return tables().shield_damage.p2.tracks[self.shield]

    @property
    def shield_damage_points(self) -> int | None:
        """§12.2.1: the highest unmarked numbered shield box; None once none is left."""
        if self.shield is None:
            return None
        return tables().shield_damage.p2.damage_points(self.shield, self.shield_marked)

    @property
    def shield_useless(self) -> bool:
        """§12.3: the last shield box is marked."""
        return self.shield_marked >= len(self.shield_track)
