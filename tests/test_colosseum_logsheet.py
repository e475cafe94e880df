"""The Colosseum Edition's gladiator log sheet (§3): rolling, the marks of a match, plain data.

Each test names the rule section it checks (shared/rules/colosseum.md Part 2 §3, §9.3.1, §10.3,
§11, §12, §17; tables T1-T4, T7a/P1, P2; Part 4's EX-10.3.1.1 and R-3.11.2).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gladiator.core.dice import Dice, Roll, parse_dice
from gladiator.rules.colosseum.sheet.logsheet import SCHEMA, LogSheet, SheetEvent
from gladiator.rules.colosseum.sheet.logsheet_input import log_sheet_from_dict
from gladiator.rules.colosseum.sheet.logsheet_render import render_text
from gladiator.rules.colosseum.sheet.logsheet_roll import roll_log_sheet
from gladiator.rules.colosseum.tables.sheet_tables import Armour
from gladiator.rules.colosseum.tables.tables import armour_row, tables
from gladiator.rules.colosseum.vocabulary import AREAS

CLASSES = ("light", "medium", "heavy")


@dataclass
class ScriptedDice:
    """Dice with the interface roll_log_sheet uses (`d`, `roll`); each throw pops the next
    scripted (rule, faces) entry and fails if the sheet asks for a die under another rule."""

    script: list[tuple[str, tuple[int, ...]]]
    log: list[Roll] = field(default_factory=list)

    def _next(self, rule: str, notation: str) -> tuple[int, ...]:
        assert self.script, f"unscripted {notation} asked for {rule!r}"
        want, faces = self.script.pop(0)
        assert rule == want, f"die thrown for {rule!r}, the script expected {want!r}"
        return faces

    def d(self, sides: int, purpose: str, rule: str) -> int:
        (face,) = self._next(rule, f"1D{sides}")
        assert 1 <= face <= sides
        self.log.append(Roll(len(self.log), f"1D{sides}", (face,), face, purpose, rule))
        return face

    def roll(self, notation: str, purpose: str, rule: str) -> int:
        expr = parse_dice(notation)
        faces = self._next(rule, notation)
        assert len(faces) == expr.count and all(1 <= f <= expr.sides for f in faces)
        total = sum(faces) + expr.modifier
        self.log.append(Roll(len(self.log), str(expr), faces, total, purpose, rule))
        return total


def scripted(armour: int, *characteristics: tuple[int, int, int]) -> ScriptedDice:
    return ScriptedDice([("§3.10", (armour,)), *(("§3.11.1", faces) for faces in characteristics)])


def same_rolls(armour: int, faces: tuple[int, int, int]) -> ScriptedDice:
    return scripted(armour, *([faces] * 5))


def sheet(
    gladiator_class: str = "medium",
    armour: int = 2,
    faces: tuple[int, int, int] = (4, 4, 4),
    **kwargs: Any,
) -> LogSheet:
    return roll_log_sheet(
        same_rolls(armour, faces), gladiator_class, id=5, name="Spiculus", **kwargs
    )


def t4(total: int) -> Any:
    return tables().physical.t4.row(total)


def kinds(events: list[SheetEvent]) -> list[str]:
    return [e.kind for e in events]


# --- §3.10, §3.11.1 rolling -----------------------------------------------------------------------


def test_s3_10_s3_11_1_a_rolled_sheet_uses_exactly_the_scripted_dice_and_reads_t4() -> None:
    dice = scripted(2, (1, 4, 6), (6, 6, 6), (1, 1, 1), (2, 3, 4), (5, 5, 2))
    s = roll_log_sheet(dice, "medium", id=6, name="Priscus")
    assert not dice.script
    assert [(r.notation, r.total, r.rule) for r in dice.log] == [
        ("1D6", 2, "§3.10"),
        ("3D6", 11, "§3.11.1"),
        ("3D6", 18, "§3.11.1"),
        ("3D6", 3, "§3.11.1"),
        ("3D6", 9, "§3.11.1"),
        ("3D6", 12, "§3.11.1"),
    ]
    assert [r.purpose for r in dice.log[1:]] == [
        "TR (T4)",
        "ST (T4)",
        "AG (T4)",
        "CN (T4)",
        "W (T4)",
    ]
    # T4: TR at 11 is 10, ST at 18 is +5, AG at 3 is -3, CN at 9 is 3, W at 12 is 12.
    assert (s.tr, s.st, s.ag, s.cn, s.w) == (10, 5, -3, 3, 12)
    assert (s.tr, s.st, s.ag, s.cn, s.w) == (t4(11).tr, t4(18).st, t4(3).ag, t4(9).cn, t4(12).w)
    # T2 roll 2: A5, B4, -, B4, A3, Large.
    assert [str(a) for a in s.armour] == ["A5", "B4", "-", "B4", "A3"]
    assert (s.shield, s.armour_roll, s.id, s.name) == ("large", 2, 6, "Priscus")


@pytest.mark.parametrize(
    ("total", "faces", "want"),
    [
        (3, (1, 1, 1), (7, -2, -3, 1, 9)),
        (4, (1, 1, 2), (7, -2, -3, 1, 9)),
        (7, (1, 2, 4), (8, 0, -1, 2, 9)),
        (12, (4, 4, 4), (10, 2, 1, 4, 12)),
        (16, (6, 6, 4), (12, 4, 3, 5, 14)),
        (18, (6, 6, 6), (13, 5, 4, 6, 15)),
    ],
)
def test_s3_11_1_t4_rows_for_every_characteristic(
    total: int, faces: tuple[int, int, int], want: tuple[int, ...]
) -> None:
    assert sum(faces) == total
    s = sheet(faces=faces)
    assert (s.tr, s.st, s.ag, s.cn, s.w) == want


@pytest.mark.parametrize("gladiator_class", CLASSES)
@pytest.mark.parametrize("roll", range(1, 7))
def test_s3_10_armour_and_shield_come_from_one_roll_on_the_class_table(
    gladiator_class: str, roll: int
) -> None:
    s = sheet(gladiator_class, roll)
    row = armour_row(gladiator_class, roll)  # type: ignore[arg-type]
    assert s.armour == tuple(row.area(a) for a in AREAS)
    assert s.shield == row.shield and s.armour_roll == roll


@pytest.mark.parametrize(
    ("gladiator_class", "roll", "armour", "shield"),
    [
        ("light", 1, ["A2", "-", "-", "-", "-"], "large"),
        ("light", 6, ["A4", "-", "C", "-", "-"], "small"),
        ("medium", 5, ["A", "C3", "-", "C4", "B4"], "large"),
        ("heavy", 4, ["A", "B4", "A2", "B4", "A4"], "large"),
        ("heavy", 6, ["A", "C4", "C", "B4", "A4"], "large"),
    ],
)
def test_s3_10_1_partial_coverage_numbers_as_in_t1_t3(
    gladiator_class: str, roll: int, armour: list[str], shield: str
) -> None:
    s = sheet(gladiator_class, roll)
    assert [str(s.armour_of(n)) for n in range(1, 6)] == armour
    assert s.shield == shield
    if armour[0] == "A4":
        head = s.armour_of("head")
        assert (head.letter, head.coverage) == ("A", 4) and head == Armour.model_validate("A4")


@pytest.mark.parametrize("seed", [0, 1, 2, 99])
def test_s3_11_1_real_dice_log_six_rolls_and_the_sheet_reads_them(seed: int) -> None:
    dice = Dice(seed)
    s = roll_log_sheet(dice, "heavy", id=9, name="Flamma")
    assert [r.rule for r in dice.log] == ["§3.10"] + ["§3.11.1"] * 5
    assert [r.notation for r in dice.log] == ["1D6"] + ["3D6"] * 5
    assert s.armour_roll == dice.log[0].total
    names = ["tr", "st", "ag", "cn", "w"]
    rolled = [getattr(t4(r.total), c) for r, c in zip(dice.log[1:], names, strict=True)]
    assert [s.tr, s.st, s.ag, s.cn, s.w] == rolled


def test_s3_4_an_unknown_class_is_refused_before_any_die() -> None:
    dice = ScriptedDice([])
    with pytest.raises(ValueError, match="class 'gaul' is not light, medium or heavy"):
        roll_log_sheet(dice, "gaul", id=1, name="X")  # type: ignore[arg-type]


# --- §3.5 move, §3.11.2 CF and NF, §3.10.2 --------------------------------------------------------


@pytest.mark.parametrize(("gladiator_class", "move"), [("light", 6), ("medium", 5), ("heavy", 4)])
def test_s3_5_move_rate_by_class(gladiator_class: str, move: int) -> None:
    s = sheet(gladiator_class)
    assert s.move == move == getattr(tables().actions.move_rates, gladiator_class)


@pytest.mark.parametrize("faces", [(1, 1, 1), (2, 3, 4), (4, 4, 4), (6, 6, 5), (6, 6, 6)])
def test_s3_11_2_cf_is_tr_st_ag_and_nf_is_tr_ag(faces: tuple[int, int, int]) -> None:
    s = sheet(faces=faces)
    assert s.cf == s.tr + s.st + s.ag == s.current_cf
    assert s.nf == s.tr + s.ag == s.current_nf


def hand(**changes: Any) -> dict[str, Any]:
    """R-3.11.2-derived: TR 10, ST 2, AG 1 -> CF 13, NF 11; a medium gladiator, T2 roll 2."""
    data: dict[str, Any] = {
        "id": 5,
        "name": "Spiculus",
        "class": "medium",
        "tr": 10,
        "st": 2,
        "ag": 1,
        "cn": 4,
        "w": 12,
        "armour": {"head": "A5", "chest": "B4", "groin": "-", "arms": "B4", "legs": "A3"},
        "shield": "large",
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def test_r_3_11_2_derived_and_s3_11_3_ag_loss_lowers_nf_not_cf() -> None:
    s = log_sheet_from_dict(hand())
    assert (s.cf, s.nf) == (13, 11)
    s2, events = s.with_characteristic_loss("AG", 1)
    assert (s2.current_ag, s2.current_nf, s2.current_cf) == (0, 10, 13)
    assert (s2.ag, s2.nf, s2.cf) == (1, 11, 13)  # the rolled ratings stay on the sheet
    assert kinds(events) == ["characteristic_lost"] and events[0].rule == "§3.11.3"


def test_s3_11_3_s10_5_2_st_loss_does_not_lower_cf_or_nf() -> None:
    s, _ = log_sheet_from_dict(hand()).with_characteristic_loss("st", 2)
    assert (s.current_st, s.current_cf, s.current_nf, s.available_cf()) == (0, 13, 11, 13)
    with pytest.raises(ValueError, match="only ST and AG"):
        s.with_characteristic_loss("TR", 1)


def test_s3_10_2_a_retiarius_opponent_carries_a_small_shield_whatever_the_roll() -> None:
    for roll in range(1, 7):  # every heavy roll gives a Large shield (T3)
        s = sheet("heavy", roll, opponent_is_retiarius=True)
        assert s.shield == "small" and s.armour_roll == roll
        assert s.shield_track == tuple(tables().shield_damage.p2.tracks["small"])
    assert sheet("light", 1).shield == "large"
    assert sheet("light", 1, opponent_is_retiarius=True).shield == "small"
    with pytest.raises(ValueError, match=r"small shield, not large \(§3.10.2\)"):
        log_sheet_from_dict(hand(opponent_is_retiarius=True))
    assert log_sheet_from_dict(hand(opponent_is_retiarius=True, shield="small")).shield == "small"


# --- §3.12 wound boxes, §10.3 wounds and CF categories (P1) ---------------------------------------


@pytest.mark.parametrize("w_faces", [(1, 1, 1), (1, 3, 4), (2, 3, 4), (4, 4, 4), (6, 6, 6)])
def test_s3_12_each_area_has_w_boxes_grouped_in_p1_categories(
    w_faces: tuple[int, int, int],
) -> None:
    s = sheet(faces=w_faces)
    p1 = tables().wound_categories.t7a.categories
    for area in AREAS:
        cats = s.wound_categories(area)
        assert [b for cat in cats for b in cat] == list(range(s.w, 0, -1))
        # §3.12.1: the boxes above W are blacked out; the rest keep P1's grouping.
        assert cats == tuple(
            tuple(b for b in cat if b <= s.w) for cat in p1[area] if any(b <= s.w for b in cat)
        )


def test_s3_12_1_boxes_above_w_are_blacked_out_of_the_first_category() -> None:
    s = log_sheet_from_dict(hand())  # W 12
    assert s.wound_categories("head")[:2] == ((12,), (11, 10))
    assert s.wound_categories("chest")[0] == (12, 11, 10)
    assert s.wound_categories(5) == ((12, 11, 10), (9, 8, 7), (6, 5, 4), (3, 2, 1))


def test_ex_10_3_1_1_first_wound_categories() -> None:
    """EX-10.3.1.1: W 12; 2 chest wounds mark boxes 12 and 11, costing 1 CF; 2 head wounds, 2."""
    s = log_sheet_from_dict(hand())
    chest, events = s.with_wounds("chest", 2)
    assert chest.current_cf == 12 and chest.wounds_in(2) == 2
    assert kinds(events) == ["wounds", "cf_lost"]
    assert "boxes 12-11" in events[0].text and events[1].amount == 1 and events[1].area == "chest"
    head, events = s.with_wounds(1, 2)
    assert head.current_cf == 11 and events[1].amount == 2 and events[1].rule == "§10.3.1"


@pytest.mark.parametrize("area", AREAS)
@pytest.mark.parametrize("w_faces", [(1, 1, 1), (4, 4, 4), (6, 6, 6)])
def test_s10_3_1_cf_lost_as_boxes_fill_one_by_one(area: str, w_faces: tuple[int, int, int]) -> None:
    s = sheet(faces=w_faces)
    p1 = tables().wound_categories.t7a.categories[area]  # type: ignore[index]
    category_of = {box: i for i, cat in enumerate(p1) for box in cat}
    reached: set[int] = set()
    for k in range(1, s.w + 1):
        box = s.w - k + 1  # §10.3: marked from box W downwards
        new = category_of[box] not in reached
        reached.add(category_of[box])
        s, events = s.with_wounds(area, 1)  # type: ignore[arg-type]
        lost = sum(e.amount for e in events if e.kind == "cf_lost")
        assert lost == (1 if new else 0), (area, box)
        assert s.cf - s.current_cf == len(reached) == s.cf_lost_to_wounds(area)  # type: ignore[arg-type]
    assert len(reached) == len(s.wound_categories(area))  # type: ignore[arg-type]


def test_s10_3_2_a_full_area_kills_and_extra_wounds_are_not_marked() -> None:
    s = log_sheet_from_dict(hand(w=9, cn=2, tr=7, st=-1, ag=-2))
    s, events = s.with_wounds("legs", 8)
    assert not s.killed and "killed" not in kinds(events)
    s, events = s.with_wounds("legs", 5)
    assert s.killed and s.wounds_in("legs") == 9
    # Box 1 is in the category {3, 2, 1} already reached by box 2: no CF lost, but killed.
    assert kinds(events) == ["wounds", "killed"] and events[0].amount == 1
    assert events[1].rule == "§10.3.2" and events[1].area == "legs"
    same, events = s.with_wounds("legs", 2)
    assert same == s and events == []
    with pytest.raises(ValueError, match="body area 6"):
        s.with_wounds(6, 1)


def test_s10_3_3_cf_may_fall_below_1_without_unconsciousness() -> None:
    s = log_sheet_from_dict(hand(tr=7, st=-2, ag=-3))  # CF 2
    s, _ = s.with_wounds("head", 4)
    assert s.current_cf == -1 and not s.unconscious and s.available_cf(3) == 2


# --- §9.3.1 available CF, §11 stun --------------------------------------------------------------


def test_s9_3_1_available_cf_is_current_cf_plus_pa_minus_stun() -> None:
    s = log_sheet_from_dict(hand())
    assert s.available_cf() == 13 and s.available_cf(3) == 16
    s, _ = s.with_wounds("chest", 1)
    s, events = s.with_stun(4, turn=2, phase=3)
    assert kinds(events) == ["stun"] and s.stun_in_effect == 4
    assert s.available_cf(0) == 12 - 4 and s.available_cf(6) == 12 + 6 - 4


def test_s11_2_s11_5_2_stun_boxes_keep_the_phase_of_the_stun() -> None:
    s, _ = log_sheet_from_dict(hand()).with_stun(2, turn=1, phase=7)
    s, _ = s.with_stun(3, turn=2, phase=1)
    assert s.stun_in_effect == 5 and s.last_stunned == (2, 1)
    s, events = s.with_stun_removed(2)
    assert kinds(events) == ["stun_removed"] and s.stun_in_effect == 3
    assert [(e.total, e.turn, e.phase) for e in s.stun] == [(2, 1, 7), (5, 2, 1), (3, 2, 1)]
    s, events = s.with_stun_removed(9)  # never more than he has
    assert s.stun_in_effect == 0 and events[0].amount == 3
    assert s.with_stun_removed(1) == (s, [])
    with pytest.raises(ValueError, match="before the last Stun box"):
        s.with_stun(1, turn=1, phase=8)


def test_s11_4_stun_exceeding_cf_is_unconsciousness() -> None:
    s = log_sheet_from_dict(hand(tr=7, st=0, ag=-1))  # CF 6
    s, events = s.with_stun(6, turn=1, phase=1)
    assert not s.unconscious and kinds(events) == ["stun"]
    s, events = s.with_wounds("arms", 1)  # CF 5 < Stun 6
    assert s.unconscious and kinds(events) == ["wounds", "cf_lost", "unconscious"]
    assert events[-1].rule == "§11.4"


# --- §12 shield damage (P2) ---------------------------------------------------------------------


def test_s12_2_1_s12_3_shield_damage_marks_boxes_on_the_p2_track() -> None:
    s = log_sheet_from_dict(hand())  # large: 14, 13, 12, P, 11, 10, H, 9, 8
    assert s.shield_track == (14, 13, 12, "P", 11, 10, "H", 9, 8)
    assert s.shield_damage_points == 14
    assert s.with_shield_damage(14) == (s, [])  # not greater than the damage points
    s, events = s.with_shield_damage(17)
    assert s.shield_marked == 3 and s.shield_damage_points == 11
    assert kinds(events) == ["shield_damaged"] and events[0].amount == 3
    s, events = s.with_shield_damage(13)  # marks P and 11
    assert kinds(events) == ["shield_damaged", "shield_result"] and events[1].result == "P"
    assert s.shield_damage_points == 10
    s, events = s.with_shield_damage(30)
    assert s.shield_useless and s.shield_damage_points is None
    assert kinds(events) == ["shield_damaged", "shield_result", "shield_useless"]
    assert events[1].result == "H" and events[0].amount == 4
    with pytest.raises(ValueError, match="already battered useless"):
        s.with_shield_damage(20)


def test_s3_17_p2_small_shield_track() -> None:
    s = sheet("medium", 1)  # T2 roll 1: Small
    assert s.shield == "small" and s.shield_track == (12, 11, "P", 10, 9, "H", 8)
    s, events = s.with_shield_damage(15)
    assert s.shield_marked == 3 and events[-1].result == "P" and s.shield_damage_points == 10


# --- §3.20 plot record, §17 endurance, §10.5 CF loss ----------------------------------------------


def test_s3_20_the_plot_record_starts_empty_and_takes_orders_and_endurance() -> None:
    s = log_sheet_from_dict(hand())
    assert s.plot == () and s.stun == () and s.wounds == (0,) * 5 and s.prestige == 0
    s = s.with_phase_plot(1, 1, "F F(R)").with_phase_plot(1, 8, "X")
    assert s.plot[0].phases == ("F F(R)", "", "", "", "", "", "", "X")
    s, events = s.with_endurance_loss(1, 2)
    assert s.current_cf == 11 and s.cf_lost_to_endurance == 2 and events[0].rule == "§17.2"
    s = s.with_phase_plot(2, 3, "C")
    assert [p.turn for p in s.plot] == [1, 2]
    with pytest.raises(ValueError, match="turn 4"):
        s.with_phase_plot(4, 1, "F")
    with pytest.raises(ValueError, match="phase 9"):
        s.with_phase_plot(2, 9, "F")


def test_s10_5_critical_v_lowers_cf_for_the_match() -> None:
    s, events = log_sheet_from_dict(hand()).with_cf_loss(1)
    assert s.current_cf == 12 and s.cf_lost_other == 1 and events[0].rule == "§10.5"


# --- hand-entered sheets ------------------------------------------------------------------------


def test_s3_hand_entered_sheet_reads_and_checks_derived_values() -> None:
    s = log_sheet_from_dict(hand(move=5, cf=13, nf=11, schema=SCHEMA, schema_version=1))
    assert s == log_sheet_from_dict(hand())
    assert s.armour_roll is None
    # With only the armour roll, armour and shield come from the class's table.
    by_roll = log_sheet_from_dict(hand(armour=None, shield=None, armour_roll=2))
    assert by_roll.armour == s.armour and by_roll.shield == "large" and by_roll.armour_roll == 2
    retiarius = log_sheet_from_dict(
        hand(armour=None, shield=None, armour_roll=2, opponent_is_retiarius=True)
    )
    assert retiarius.shield == "small"


AREA_ARMOUR = {"head": "A5", "chest": "B4", "groin": "-", "arms": "B4", "legs": "A3"}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"class": "gaul"}, "class 'gaul' is not light, medium or heavy (§3.4)"),
        ({"class": None}, "class is missing"),
        ({"tr": 14}, "TR 14 is not on T4 (7 to 13, §3.11.1)"),
        ({"st": -3}, "ST -3 is not on T4 (-2 to 5, §3.11.1)"),
        ({"ag": 5}, "AG 5 is not on T4 (-3 to 4, §3.11.1)"),
        ({"cn": 0}, "CN 0 is not on T4 (1 to 6, §3.11.1)"),
        ({"w": 16}, "W 16 is not on T4 (9 to 15, §3.11.1)"),
        ({"tr": "10"}, "tr: Input should be a valid integer"),
        ({"tr": None}, "tr is missing"),
        ({"armour": {**AREA_ARMOUR, "chest": "D4"}}, "armour chest 'D4' is not '-' or A, B or C"),
        ({"armour": {**AREA_ARMOUR, "chest": "B6"}}, "armour chest 'B6' is not '-'"),
        ({"armour": {**AREA_ARMOUR, "chest": 4}}, "armour chest 4 is not"),
        ({"armour": {**AREA_ARMOUR, "tail": "A"}}, "needs exactly the areas"),
        ({"armour": ["A5", "B4", "-", "B4", "A3"]}, "armour must map each body area"),
        ({"armour": {**AREA_ARMOUR, "legs": "A4"}}, "is not a row of T2 (§3.10)"),
        ({"shield": "small"}, "with a small shield is not a row of T2"),
        ({"shield": "tower"}, "shield: Input should be 'large' or 'small'"),
        ({"armour_roll": 3}, "armour head A5 is not T2 roll 3's A (§3.10)"),
        ({"armour_roll": 7}, "armour_roll: Input should be less than or equal to 6"),
        ({"wounds": {a: 0 for a in AREAS} | {"chest": 13}}, "wounds chest 13 are not 0 to W 12"),
        ({"wounds": {"chest": 1}}, "wounds needs exactly the areas"),
        ({"cf": 14}, "CF 14 is not TR + ST + AG = 13 (§3.11.2)"),
        ({"nf": 12}, "NF 12 is not TR + AG = 11 (§3.11.2)"),
        ({"move": 6}, "move 6 is not the medium rate 5 (§3.5)"),
        ({"colour": "red"}, "unknown field 'colour'"),
        ({"schema": "gladiator.quick-state"}, "schema 'gladiator.quick-state' is not"),
        ({"schema_version": 2}, "schema_version 2 is not supported"),
        ({"name": ""}, "name: String should have at least 1 character"),
        ({"id": 0}, "id: Input should be greater than or equal to 1"),
        ({"shield_marked": 10}, "shield_marked 10 is more than the large track's 9 boxes"),
        (
            {"stun": [{"total": 2, "turn": 2, "phase": 1}, {"total": 3, "turn": 1, "phase": 5}]},
            "stun entries must follow the phases in order (§11.2)",
        ),
        ({"stun": [{"total": 2, "turn": 1, "phase": 9}]}, "stun.0.phase: Input should be less"),
        ({"plot": [{"turn": 2}]}, "plot turns must be 1, 2, 3... in order (§3.20)"),
        ({"ag_lost": -1}, "ag_lost: Input should be greater than or equal to 0"),
    ],
)
def test_s3_hand_entered_bad_sheets_fail_with_one_line(
    changes: dict[str, Any], message: str
) -> None:
    data = hand(**{k: v for k, v in changes.items() if v is not None})
    for key in (k for k, v in changes.items() if v is None):
        data.pop(key, None)
    with pytest.raises(ValueError) as info:
        log_sheet_from_dict(data)
    text = str(info.value)
    assert "\n" not in text and text.startswith("log sheet"), text
    assert message in text, text


def test_s3_hand_entered_sheet_must_be_an_object() -> None:
    with pytest.raises(ValueError, match="must be a JSON object, not list"):
        log_sheet_from_dict([1, 2])  # type: ignore[arg-type]


# --- plain data round trip ----------------------------------------------------------------------


def play(s: LogSheet, data: st.DataObject) -> LogSheet:
    """A few random marks of a match, through the pure methods."""
    for _ in range(data.draw(st.integers(0, 8))):
        op = data.draw(st.sampled_from(["wounds", "stun", "unstun", "shield", "ag", "cf", "plot"]))
        if op == "wounds":
            s, _ = s.with_wounds(data.draw(st.integers(1, 5)), data.draw(st.integers(0, 6)))
        elif op == "stun":
            turn, phase = s.last_stunned or (1, 1)
            s, _ = s.with_stun(data.draw(st.integers(1, 4)), turn=turn + 1, phase=phase)
        elif op == "unstun":
            s, _ = s.with_stun_removed(data.draw(st.integers(0, 3)))
        elif op == "shield" and not s.shield_useless:
            s, _ = s.with_shield_damage(data.draw(st.integers(2, 30)))
        elif op == "ag":
            s, _ = s.with_characteristic_loss(data.draw(st.sampled_from(["ST", "AG"])))
        elif op == "cf":
            s, _ = s.with_cf_loss(data.draw(st.integers(0, 2)))
        elif op == "plot":
            turn = data.draw(st.integers(1, len(s.plot) + 1))
            s = s.with_phase_plot(turn, data.draw(st.integers(1, 8)), "F F(L)")
            s, _ = s.with_endurance_loss(turn, data.draw(st.integers(0, 2)))
    return s


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**63),
    gladiator_class=st.sampled_from(CLASSES),
    retiarius=st.booleans(),
    prestige=st.integers(-3, 6),
    data=st.data(),
)
def test_s3_to_dict_round_trips_rolled_and_marked_sheets_exactly(
    seed: int, gladiator_class: str, retiarius: bool, prestige: int, data: st.DataObject
) -> None:
    s = roll_log_sheet(
        Dice(seed),
        gladiator_class,  # type: ignore[arg-type]
        id=seed % 12 + 1,
        name=f"Gladiator {seed}",
        opponent_is_retiarius=retiarius,
        prestige=prestige,
    )
    for sheet_ in (s, play(s, data)):
        plain = json.loads(json.dumps(sheet_.to_dict()))
        assert plain["schema"] == SCHEMA and plain["schema_version"] == 1
        back = log_sheet_from_dict(plain)
        assert back == sheet_
        assert back.to_dict() == plain


# --- rendering ----------------------------------------------------------------------------------


def test_s3_render_text_shows_the_key_figures() -> None:
    s = log_sheet_from_dict(hand(armour=None, shield=None, armour_roll=2))
    s, _ = s.with_wounds("chest", 2)
    s, _ = s.with_stun(3, turn=1, phase=4)
    s, _ = s.with_shield_damage(17)
    s, _ = s.with_characteristic_loss("AG")
    text = render_text(s)
    lines = text.splitlines()
    assert "#5 Spiculus" in lines[0] and "medium" in lines[0] and "move 5" in lines[0]
    for figure in ("TR 10", "ST 2", "AG 1→0", "CN 4", "W 12", "CF 13→12", "NF 11→10"):
        assert figure in lines[1], figure
    assert "stun 3" in lines[2] and "available 9" in lines[2]
    assert "T2 roll 2" in text and "shield large (Clipeus)" in text
    chest = next(line for line in lines if "2 Chest" in line)
    assert "B4" in chest and "□□□ □□□ □□□ □■■" in chest and "2/12" in chest
    for number, area in enumerate(("Head", "Chest", "Groin", "Arms", "Legs"), 1):
        row = next(line for line in lines if f"{number} {area}" in line)
        assert row.count("□") + row.count("■") == 12  # boxes above W are not drawn
    assert "■14 ■13 ■12 □P □11" in text and "damage points 11" in text
    assert "3@1.4" in text
