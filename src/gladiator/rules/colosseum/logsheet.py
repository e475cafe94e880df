"""The Colosseum Edition's gladiator log sheet (§3), and the marks later rules make on it.

`LogSheet` is one gladiator's sheet as a frozen, validated record: what is written before play
(§3.1: ID, name, class, move, prestige, the five rolled characteristics and the derived CF and NF,
armour per body area and the shield, the wound tracks, the shield damage track, the stun boxes,
the turn & phase plot record) and the marks a match adds to it (wounds per area, CF lost, Stun,
shield boxes, ST/AG losses, plotted orders, endurance losses). Its `with_*` methods are pure: each
returns a new sheet and the events that happened, so the engine can show and record them.

Everything the rulebook tabulates is read from the packaged tables (`tables()`): T1-T3 armour,
T4 characteristics, the move rates, T7a/P1 wound categories and P2 shield tracks. The log sheet's
printed wound grouping and shield boxes are missing from the rulebook's text; this module uses the
reference's proposals P1 (Q15) and P2 (Q16) through the data files, so a printed sheet's values
replace them without touching Python.

`roll_log_sheet` (logsheet_roll.py) fills a sheet with the match's dice; `log_sheet_from_dict`
(logsheet_input.py) checks a sheet entered by hand (or saved with `LogSheet.to_dict`);
`render_text` (logsheet_render.py) draws it for a terminal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, model_validator

from gladiator.rules.colosseum.sheet_tables import Armour, ArmourRow
from gladiator.rules.colosseum.styles import check_styled_sheet, style
from gladiator.rules.colosseum.tables import tables
from gladiator.rules.colosseum.vocabulary import AREAS, Area, GladiatorClass

__all__ = [
    "AREA_NAMES",
    "ARMOUR_TABLE",
    "CHARACTERISTICS",
    "SCHEMA",
    "SCHEMA_VERSION",
    "LogSheet",
    "PlotTurn",
    "SheetEvent",
    "StunEntry",
    "row_armour",
]

SCHEMA = "gladiator.colosseum.log-sheet"
SCHEMA_VERSION = 1

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
EventKind = Literal[
    "wounds",
    "killed",
    "cf_lost",
    "characteristic_lost",
    "stun",
    "stun_removed",
    "unconscious",
    "shield_damaged",
    "shield_result",
    "shield_useless",
]


@dataclass(frozen=True, slots=True)
class SheetEvent:
    """Something a mark on the sheet caused: `kind` for code, `rule` and `text` for people."""

    kind: EventKind
    rule: str
    text: str
    area: Area | None = None
    amount: int = 0
    result: Literal["P", "H"] | None = None

    def __str__(self) -> str:
        return f"{self.rule} {self.text}"


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


def _area_index(area: Area | int) -> int:
    """0-4 for a body area given by name or by its log-sheet number 1-5 (§3.9)."""
    if isinstance(area, int) and not isinstance(area, bool) and 1 <= area <= len(AREAS):
        return area - 1
    if isinstance(area, str) and area in AREAS:
        return AREAS.index(area)
    raise ValueError(f"body area {area!r} is not 1-5 or one of {', '.join(AREAS)} (§3.9)")


def row_armour(row: ArmourRow) -> tuple[Armour, ...]:
    return tuple(row.area(area) for area in AREAS)


def _armour_text(armour: tuple[Armour, ...]) -> str:
    return " ".join(f"{area}={a}" for area, a in zip(AREAS, armour, strict=True))


class LogSheet(_Frozen):
    """One gladiator's log sheet (§3): the entries made before play, and the match's marks."""

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
        return self.armour[_area_index(area)]

    def wound_categories(self, area: Area | int) -> tuple[tuple[int, ...], ...]:
        """§3.12.1 (P1, Q15): the area's CF categories, box W first, boxes above W blacked out."""
        t7a = tables().wound_categories.t7a
        cats = t7a.categories[AREAS[_area_index(area)]]
        kept = [tuple(box for box in cat if box <= self.w) for cat in cats]
        if self.w > t7a.boxes:  # a beast's W past the sheet's boxes: the top category's (B4)
            top = next(i for i, cat in enumerate(cats) if t7a.boxes in cat)
            kept[top] = (*range(self.w, t7a.boxes, -1), *kept[top])
        return tuple(cat for cat in kept if cat)

    def wounds_in(self, area: Area | int) -> int:
        return self.wounds[_area_index(area)]

    def cf_lost_to_wounds(self, area: Area | int | None = None) -> int:
        """§10.3.1: one CF for every CF category reached, in one area or in all of them."""
        t7a = tables().wound_categories.t7a
        indices = range(len(AREAS)) if area is None else (_area_index(area),)
        lost = sum(t7a.new_categories(AREAS[i], self.w, 0, self.wounds[i]) for i in indices)
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

    # -- marks: each returns the new sheet and what happened --------------------------------
    def _with_unconscious(
        self, new: LogSheet, events: list[SheetEvent]
    ) -> tuple[LogSheet, list[SheetEvent]]:
        if new.unconscious and not self.unconscious:  # §11.4
            events.append(
                SheetEvent(
                    "unconscious",
                    "§11.4",
                    f"Stun {new.stun_in_effect} exceeds CF {new.current_cf}: unconscious, Prone",
                )
            )
        return new, events

    def with_wounds(self, area: Area | int, n: int) -> tuple[LogSheet, list[SheetEvent]]:
        """§10.3: mark n wounds on an area from box W downwards; extra wounds beyond box 1 are
        lost (the area is full and he is dead, §10.3.2)."""
        if n < 0:
            raise ValueError(f"cannot mark {n} wounds")
        i = _area_index(area)
        name = AREAS[i]
        before = self.wounds[i]
        marked = min(n, self.w - before)
        if marked == 0:
            return self, []
        wounds = list(self.wounds)
        wounds[i] = before + marked
        new = self.model_copy(update={"wounds": tuple(wounds)})
        top, bottom = self.w - before, self.w - before - marked + 1
        boxes = f"box {top}" if top == bottom else f"boxes {top}-{bottom}"
        events = [
            SheetEvent(
                "wounds",
                "§10.3",
                f"{AREA_NAMES[name]}: {marked} wound{'s' * (marked != 1)}, {boxes} marked",
                area=name,
                amount=marked,
            )
        ]
        # §10.3.1: 1 CF for each CF category first reached (§10.3.1.1: the first wound always).
        lost = tables().wound_categories.t7a.new_categories(name, self.w, before, marked)
        if lost and self.toughness and before == 0:  # §36.3 TG (Q50, TL8)
            lost -= 1
            events.append(
                SheetEvent(
                    "cf_lost",
                    "§36.3",
                    f"{AREA_NAMES[name]}: Toughness ignores the first CF category",
                    area=name,
                    amount=0,
                )
            )
        if lost:
            events.append(
                SheetEvent(
                    "cf_lost",
                    "§10.3.1",
                    f"{AREA_NAMES[name]}: {lost} new wound categor{'ies' if lost != 1 else 'y'}, "
                    f"CF −{lost} for the match, now {new.current_cf}",
                    area=name,
                    amount=lost,
                )
            )
        if wounds[i] >= self.w:
            events.append(
                SheetEvent(
                    "killed",
                    "§10.3.2",
                    f"{AREA_NAMES[name]}: every box marked, killed",
                    area=name,
                )
            )
        return self._with_unconscious(new, events)

    def with_cf_loss(self, n: int, rule: str = "§10.5") -> tuple[LogSheet, list[SheetEvent]]:
        """A CF loss for the rest of the match other than wounds and endurance (critical V)."""
        if n < 0:
            raise ValueError(f"cannot lose {n} CF")
        if n == 0:
            return self, []
        new = self.model_copy(update={"cf_lost_other": self.cf_lost_other + n})
        event = SheetEvent(
            "cf_lost", rule, f"CF −{n} for the match, now {new.current_cf}", amount=n
        )
        return self._with_unconscious(new, [event])

    def with_characteristic_loss(
        self, characteristic: str, n: int = 1
    ) -> tuple[LogSheet, list[SheetEvent]]:
        """§10.5 ST/AG: lower ST or AG; CF stays (§3.11.3, §10.5.2), AG also lowers NF."""
        which = characteristic.upper()
        if which not in ("ST", "AG"):
            raise ValueError(f"only ST and AG are lost during a match (§10.5), not {which}")
        if n < 0:
            raise ValueError(f"cannot lose {n} {which}")
        if n == 0:
            return self, []
        if which == "ST":
            new = self.model_copy(update={"st_lost": self.st_lost + n})
            text = f"ST {self.current_st} → {new.current_st}, CF unchanged"
        else:
            new = self.model_copy(update={"ag_lost": self.ag_lost + n})
            text = (
                f"AG {self.current_ag} → {new.current_ag}, NF {self.current_nf} → "
                f"{new.current_nf}, CF unchanged"
            )
        return new, [SheetEvent("characteristic_lost", "§3.11.3", text, amount=n)]

    def with_stun(self, n: int, *, turn: int, phase: int) -> tuple[LogSheet, list[SheetEvent]]:
        """§11.2: add n Stun, written in the next Stun box with the phase it happened in."""
        if n < 0:
            raise ValueError(f"cannot add {n} Stun")
        if n == 0:
            return self, []
        last = self.last_stunned
        if last is not None and (turn, phase) < last:
            raise ValueError(
                f"Stun at turn {turn} phase {phase} is before the last Stun box's "
                f"turn {last[0]} phase {last[1]} (§11.2)"
            )
        entry = StunEntry(total=self.stun_in_effect + n, turn=turn, phase=phase)
        new = self.model_copy(update={"stun": (*self.stun, entry)})
        event = SheetEvent(
            "stun",
            "§11.2",
            f"Stun +{n}, now {entry.total} (turn {turn} phase {phase})",
            amount=n,
        )
        return self._with_unconscious(new, [event])

    def with_stun_removed(self, n: int) -> tuple[LogSheet, list[SheetEvent]]:
        """§11.5.2: remove up to n Stun; the new total goes in the next box with the same phase."""
        if n < 0:
            raise ValueError(f"cannot remove {n} Stun")
        removed = min(n, self.stun_in_effect)
        if removed == 0:
            return self, []
        last = self.stun[-1]
        entry = StunEntry(total=last.total - removed, turn=last.turn, phase=last.phase)
        new = self.model_copy(update={"stun": (*self.stun, entry)})
        event = SheetEvent(
            "stun_removed", "§11.5", f"Stun −{removed}, now {entry.total}", amount=removed
        )
        return new, [event]

    def with_shield_damage(self, result: int) -> tuple[LogSheet, list[SheetEvent]]:
        """§12.2.1: a shield damage roll above the damage points marks (roll − points) boxes."""
        if self.shield_useless:
            raise ValueError("the shield is already battered useless (§12.3)")
        track = self.shield_track
        points = self.shield_damage_points
        floor = points if points is not None else 0
        if result <= floor:
            return self, []
        count = min(result - floor, len(track) - self.shield_marked)
        checked = track[self.shield_marked : self.shield_marked + count]
        new = self.model_copy(update={"shield_marked": self.shield_marked + count})
        events = [
            SheetEvent(
                "shield_damaged",
                "§12.2.1",
                f"shield damage {result} > {floor}: {count} box{'es' * (count != 1)} marked",
                amount=count,
            )
        ]
        for box in checked:  # §12.3.1: a P or H box inflicts that CRT result
            if isinstance(box, str):
                events.append(
                    SheetEvent(
                        "shield_result",
                        "§12.3.1",
                        f"shield box {box} checked: the defender also suffers {box}",
                        result=box,
                    )
                )
        if new.shield_useless:
            events.append(
                SheetEvent(
                    "shield_useless",
                    "§12.3",
                    "shield battered useless: it must be dropped or thrown",
                )
            )
        return new, events

    def _plot_through(self, turn: int) -> list[PlotTurn]:
        if turn < 1 or turn > len(self.plot) + 1:
            raise ValueError(
                f"turn {turn} is not a plotted turn or the next one ({len(self.plot) + 1}) (§3.20)"
            )
        plot = list(self.plot)
        if turn == len(plot) + 1:
            plot.append(PlotTurn(turn=turn))
        return plot

    def with_phase_plot(self, turn: int, phase: int, orders: str) -> LogSheet:
        """§3.20, §7.2: write a phase's orders (a re-plot, §7.6, overwrites them)."""
        if not 1 <= phase <= PHASES_PER_TURN:
            raise ValueError(f"phase {phase} is not 1-{PHASES_PER_TURN} (§5.1)")
        plot = self._plot_through(turn)
        entry = plot[turn - 1]
        phases = list(entry.phases)
        phases[phase - 1] = orders
        plot[turn - 1] = entry.model_copy(update={"phases": tuple(phases)})
        return self.model_copy(update={"plot": tuple(plot)})

    def with_endurance_loss(self, turn: int, n: int) -> tuple[LogSheet, list[SheetEvent]]:
        """§17.2: CF lost to endurance at the end of a turn, recorded on the plot record."""
        if n < 0:
            raise ValueError(f"cannot lose {n} CF")
        if n == 0:
            return self, []
        plot = self._plot_through(turn)
        entry = plot[turn - 1]
        plot[turn - 1] = entry.model_copy(update={"endurance_cf_lost": entry.endurance_cf_lost + n})
        new = self.model_copy(update={"plot": tuple(plot)})
        event = SheetEvent(
            "cf_lost",
            "§17.2",
            f"endurance, end of turn {turn}: CF −{n} for the match, now {new.current_cf}",
            amount=n,
        )
        return self._with_unconscious(new, [event])

    # -- plain data -------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Plain JSON. move, cf and nf are derived and written for readers; they are checked
        when read back."""
        return {
            "schema": SCHEMA,
            "schema_version": SCHEMA_VERSION,
            "id": self.id,
            "name": self.name,
            "class": self.gladiator_class,
            "move": self.move,
            "prestige": self.prestige,
            **{name: getattr(self, name) for name in CHARACTERISTICS},
            "cf": self.cf,
            "nf": self.nf,
            "armour_roll": self.armour_roll,
            "armour": {area: str(a) for area, a in zip(AREAS, self.armour, strict=True)},
            "shield": self.shield,
            "opponent_is_retiarius": self.opponent_is_retiarius,
            "wounds": dict(zip(AREAS, self.wounds, strict=True)),
            "cf_lost_other": self.cf_lost_other,
            "st_lost": self.st_lost,
            "ag_lost": self.ag_lost,
            "stun": [e.model_dump() for e in self.stun],
            "shield_marked": self.shield_marked,
            "plot": [
                {
                    "turn": p.turn,
                    "phases": list(p.phases),
                    "endurance_cf_lost": p.endurance_cf_lost,
                }
                for p in self.plot
            ],
            # §19: written only for a styled sheet, so a Basic Game sheet reads as before.
            **({"style": self.style} if self.style is not None else {}),
            **({"armour_roll_2": self.armour_roll_2} if self.armour_roll_2 is not None else {}),
            **({"toughness": True} if self.toughness else {}),  # §36.3 TG
            # §30-§35 (X1, X3): written only when set, so every other sheet reads as before.
            **({"career": True} if self.career else {}),
            **({"custom_armour": True} if self.custom_armour else {}),
            **({"pb": self.pb} if self.pb else {}),
        }
