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

`SheetBoxes` (logsheet_boxes.py) holds the boxes, checks them and derives what the sheet shows;
`LogSheet` adds the marks.

`roll_log_sheet` (logsheet_roll.py) fills a sheet with the match's dice; `log_sheet_from_dict`
(logsheet_input.py) checks a sheet entered by hand (or saved with `LogSheet.to_dict`);
`render_text` (logsheet_render.py) draws it for a terminal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from gladiator.rules.colosseum.sheet.logsheet_boxes import (
    AREA_NAMES,
    CHARACTERISTICS,
    PHASES_PER_TURN,
    PlotTurn,
    SheetBoxes,
    StunEntry,
    area_index,
)
from gladiator.rules.colosseum.tables.tables import tables
from gladiator.rules.colosseum.vocabulary import AREAS, Area

__all__ = ["SCHEMA", "SCHEMA_VERSION", "LogSheet", "SheetEvent"]

SCHEMA = "gladiator.colosseum.log-sheet"
SCHEMA_VERSION = 1

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


class LogSheet(SheetBoxes):
    """One gladiator's log sheet (§3): the entries made before play, and the match's marks."""

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
        i = area_index(area)
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
