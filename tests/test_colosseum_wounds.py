"""What a CRT result does to the defender's log sheet (wounds.py, body_hits.py, shield_hits.py).

Each test names the rule section it checks (shared/rules/colosseum.md Part 2 §7.6.1, §10, §11.5,
§12, §13.1-§13.2; tables T7, T7a/P1, T8, T9, T9b, T15, P2; Part 4's EX-10.3.1.1, EX-10.5.1,
NOTE-13.1.1, R-10.2 and R-10.4; Part 5's Q2, Q6, Q15, Q16, Q17, Q28, Q30).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from colosseum_helpers import sheet as hand
from gladiator.core.dice import Dice, Roll, parse_dice
from gladiator.rules.colosseum.hits.body_hits import CriticalRecord, HitOutcome, body_hit
from gladiator.rules.colosseum.hits.shield_hits import shield_hit
from gladiator.rules.colosseum.hits.wounds import (
    WOUND_COLOURS,
    drop_check,
    drop_location,
    illegal_order_stun,
    phases_since_stunned,
    severed_artery_bleeding,
    stumbling_check,
    stun_check,
    stun_recovery,
)
from gladiator.rules.colosseum.sheet.logsheet import LogSheet
from gladiator.rules.colosseum.sheet.logsheet_roll import roll_log_sheet
from gladiator.rules.colosseum.tables.tables import critical_result
from gladiator.rules.colosseum.vocabulary import AREAS


@dataclass
class ScriptedDice:
    """Dice with the interface wounds.py uses (`d`, `roll`, `coloured`). Each throw pops the next
    scripted (rule, faces) entry and fails if a die is asked for under another rule; coloured
    faces are scripted in the order of the colours asked for (WHITE, WHITE, WHITE, BLACK, RED)."""

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

    def coloured(self, colours: Sequence[str], purpose: str, rule: str) -> dict[str, list[int]]:
        faces = self._next(rule, f"{len(colours)}D6")
        assert len(faces) == len(colours) and all(1 <= f <= 6 for f in faces)
        self.log.append(
            Roll(len(self.log), "5D6", faces, sum(faces), purpose, rule, tuple(colours))
        )
        out: dict[str, list[int]] = {}
        for colour, face in zip(colours, faces, strict=True):
            out.setdefault(colour, []).append(face)
        return out

    def done(self) -> bool:
        return not self.script


def wound_throw(white: tuple[int, int, int], black: int, red: int) -> tuple[str, tuple[int, ...]]:
    return ("§10.1", (*white, black, red))


def hit(
    sheet: LogSheet,
    area: str,
    script: list[tuple[str, tuple[int, ...]]],
    h: int = 0,
    **kwargs: Any,
) -> tuple[LogSheet, HitOutcome, ScriptedDice]:
    dice = ScriptedDice(list(script))
    kwargs.setdefault("turn", 1)
    kwargs.setdefault("phase", 1)
    new, outcome = body_hit(sheet, area, h, dice, **kwargs)  # type: ignore[arg-type]
    assert dice.done(), f"dice left over: {dice.script}"
    return new, outcome, dice


# WHITE faces giving 1..7 wounds with no armour and H+0 (T7: 9, 11, 13, 15, 16, 17, 18).
WHITE_FOR = {
    1: (3, 3, 3),
    2: (4, 4, 3),
    3: (5, 4, 4),
    4: (5, 5, 5),
    5: (6, 5, 5),
    6: (6, 6, 5),
    7: (6, 6, 6),
}


def crit_throw(critical: int) -> tuple[int, tuple[str, tuple[int, ...]]]:
    """(base wounds, 5D6 throw) for a critical roll of `critical` with BLACK 6, which misses
    every partial armour of `hand()` (A5, B4, B4, A3; the groin is bare)."""
    base = max(1, critical - 12)
    red = critical - 6 - base
    assert 1 <= red <= 6, critical
    return base, wound_throw(WHITE_FOR[base], 6, red)


# --- §10.1 the throw, §10.2 armour -------------------------------------------------------------


def test_s10_1_one_coloured_5d6_throw_gives_wounds_armour_and_critical_dice() -> None:
    dice = Dice(11)
    _new, out = body_hit(hand(), "groin", 0, dice, turn=1, phase=1)
    first = dice.log[0]
    assert first.rule == "§10.1" and first.colours == WOUND_COLOURS
    assert out.white == first.faces[:3] and (out.black, out.red) == first.faces[3:]
    assert out.wound_roll == sum(out.white)  # the groin is bare, H+0
    for roll in dice.log:
        assert roll.rule.startswith("§") and roll.purpose
    for event in out.events:
        assert event["text"].endswith(f"({event['rule']})") and event["type"]


def test_r_10_2_partial_armour_applies_only_when_black_is_at_most_its_number() -> None:
    # WHITE 14, H+1, chest B4: BLACK 4 -> 14 + 1 - 6 = 9 -> 1 wound; BLACK 5 -> 15 -> 4 wounds.
    _s, on, _d = hit(hand(), "chest", [wound_throw((4, 5, 5), 4, 1)], h=1)
    assert (on.armour_drm, on.wound_roll, on.base_wounds) == (-6, 9, 1)
    _s, off, _d = hit(hand(), "chest", [wound_throw((4, 5, 5), 5, 1)], h=1)
    assert (off.armour_drm, off.wound_roll, off.base_wounds) == (0, 15, 4)


def test_s10_2_1_full_armour_always_applies_and_weapon_modifier_adds() -> None:
    sheet = hand(armour_roll=3)  # T2 roll 3: groin C (full)
    # BLACK 6 is above any coverage number, yet full armour applies: 9 + 1 + 2 - 3 = 9
    _s, out, _d = hit(sheet, "groin", [wound_throw((3, 3, 3), 6, 1)], h=1, weapon_modifier=2)
    assert out.armour_drm == -3 and out.wound_roll == 9
    assert out.base_wounds == 1 and out.criticals == ()  # critical 6 + 1 + 1 = 8: groin "-"


def test_s10_1_1_negative_h_modifier_lowers_the_wound_roll_q1() -> None:
    _s, out, _d = hit(hand(), "groin", [wound_throw((3, 3, 3), 1, 1)], h=-2)
    assert out.wound_roll == 7 and out.base_wounds == 0 and out.critical_roll is None


# --- §10.3 wound effects -----------------------------------------------------------------------


def test_ex_10_3_1_1_two_chest_wounds_cost_1_cf_two_head_wounds_cost_2() -> None:
    sheet = hand()  # W 12, CF 13
    # chest: BLACK 5 misses B4, WHITE 11 -> 2 wounds, critical 5 + 1 + 2 = 8 -> "-"
    chest, out, _d = hit(sheet, "chest", [wound_throw((4, 4, 3), 5, 1)])
    assert out.wounds_marked == 2 and out.criticals == ()
    assert out.cf_lost == out.cf_lost_to_wounds == 1 and chest.current_cf == 12
    # head: BLACK 1 under A5 (-8), WHITE 18 + H+1 -> 11 -> 2 wounds, critical 1 + 1 + 2 = 4
    head, out, _d = hit(sheet, "head", [wound_throw((6, 6, 6), 1, 1)], h=1)
    assert out.wounds_marked == 2 and out.criticals == ()
    assert out.cf_lost == 2 and head.current_cf == 11


def test_s10_3_2_death_when_an_area_fills() -> None:
    sheet = hand(w=9, cn=2, tr=7, st=-1, ag=-2)  # W 9
    # groin (bare): WHITE 18 -> 7 wounds; critical 1 + 1 + 7 = 9 -> groin "1" -> 8 wounds
    sheet, out, _d = hit(sheet, "groin", [wound_throw((6, 6, 6), 1, 1)])
    assert out.wounds == 8 and not out.killed and not sheet.killed
    sheet, out, _d = hit(sheet, "groin", [wound_throw((4, 4, 3), 1, 1)])  # 2 more, 1 box left
    assert out.wounds == 2 and out.wounds_marked == 1
    assert out.killed and out.killed_by == ("area full",) and sheet.killed
    assert any(e["type"] == "killed" and e["rule"] == "§10.3.2" for e in out.events)


def test_s10_3_3_cf_below_1_is_reported_not_resolved() -> None:
    sheet = hand(tr=7, st=-2, ag=-3, cn=1, w=9)  # CF 2
    # head bare-struck (BLACK 6 misses A5): WHITE 17 -> 6 wounds; critical 6 + 1 + 6 = 13 -> 2x+M
    sheet, out, _d = hit(sheet, "head", [wound_throw((6, 6, 5), 6, 1)])
    assert out.criticals == ("2x", "M") and out.wounds == 12 and out.wounds_marked == 9
    assert out.killed and out.mortal
    assert out.cf_after == sheet.current_cf < 1


def test_q28_a_t7_kill_kills_outright_skips_the_critical_and_marks_nothing() -> None:
    sheet = hand()
    new, out, _d = hit(sheet, "groin", [wound_throw((6, 6, 6), 6, 6)], h=1)  # 19 -> Kill
    assert out.wound_kill and out.killed and out.killed_by == ("T7 Kill",) and out.cleaving
    assert out.critical_roll is None and out.wounds_marked == 0 and new == sheet


def test_s10_4_no_critical_roll_without_wounds() -> None:
    _s, out, _d = hit(hand(), "groin", [wound_throw((2, 3, 3), 6, 6)])  # 8 -> no wound
    assert out.base_wounds == 0 and out.critical_roll is None and out.criticals == ()


# --- §10.4/§10.5 each critical code -------------------------------------------------------------


def test_s10_5_1_deep_cut_adds_a_wound_before_multipliers_q28() -> None:
    base, throw = crit_throw(9)  # chest 9 -> "1"
    _s, out, _d = hit(hand(), "chest", [throw])
    assert out.criticals == ("1",) and out.wounds == base + 1 == out.wounds_marked


@pytest.mark.parametrize(
    ("area", "critical", "codes", "factor"),
    [("chest", 12, ("2x",), 2), ("groin", 14, ("2x", "M"), 2), ("chest", 14, ("3x", "M"), 3)],
)
def test_s10_5_2x_3x_multiply_the_attacks_wounds(
    area: str, critical: int, codes: tuple[str, ...], factor: int
) -> None:
    base, throw = crit_throw(critical)
    _s, out, _d = hit(hand(), area, [throw])
    assert out.criticals == codes and out.wounds == base * factor
    assert out.mortal == ("M" in codes)


def test_s10_5_v_costs_1_cf_for_the_match() -> None:
    _base, throw = crit_throw(9)  # head 9 -> V
    new, out, _d = hit(hand(), "head", [throw])
    assert out.criticals == ("V",) and out.cf_lost_to_criticals == 1
    assert new.cf_lost_other == 1
    assert out.cf_lost == out.cf_lost_to_wounds + 1 == new.cf - new.current_cf


@pytest.mark.parametrize(("faces", "stun"), [((6, 6), 8), ((1, 2), 1)])
def test_s10_5_s_stun_is_2d6_minus_cn_at_least_1(faces: tuple[int, int], stun: int) -> None:
    _base, throw = crit_throw(10)  # head 10 -> S
    new, out, dice = hit(hand(), "head", [throw, ("§10.5", faces)], turn=2, phase=3)
    assert out.criticals == ("S",) and out.stun == stun and out.stun_roll == sum(faces)
    assert new.stun_in_effect == stun and new.last_stunned == (2, 3)
    assert dice.log[-1].purpose.startswith("critical S")
    assert out.unconscious == (stun > new.current_cf)


@pytest.mark.parametrize(("area", "code"), [("chest", "ST"), ("groin", "AG")])
def test_s10_5_2_st_ag_loss_does_not_lower_cf(area: str, code: str) -> None:
    _base, throw = crit_throw(11)
    new, out, _d = hit(hand(), area, [throw])
    assert out.criticals == (code,)
    assert (out.st_lost, out.ag_lost) == ((1, 0) if code == "ST" else (0, 1))
    assert (new.current_st, new.current_ag) == ((1, 1) if code == "ST" else (2, 0))
    assert out.cf_lost == out.cf_lost_to_wounds and out.cf_lost_to_criticals == 0


@pytest.mark.parametrize(("critical", "code", "item"), [(12, "WD", "weapon"), (13, "SD", "shield")])
def test_s10_5_wd_sd_drop_the_item_with_a_s13_2_location(
    critical: int, code: str, item: str
) -> None:
    _base, throw = crit_throw(critical)  # arms 12 -> WD, 13 -> SD
    # T15 direction 2 = FL (Q17); distance 1D6 4 - 1 = 3
    _s, out, _d = hit(hand(), "arms", [throw, ("§13.2.1", (2,)), ("§13.2.2", (4,))])
    assert out.criticals == (code,)
    drop = out.weapon_drop if item == "weapon" else out.shield_drop
    assert drop is not None and drop.item == item
    assert (drop.direction_roll, drop.direction, drop.distance) == (2, "FL", 3)
    other = out.shield_drop if item == "weapon" else out.weapon_drop
    assert other is None


def test_s10_5_wd_with_no_weapon_rolls_no_location() -> None:
    _base, throw = crit_throw(12)
    _s, out, _d = hit(hand(), "arms", [throw], has_weapon=False)
    assert out.criticals == ("WD",) and out.weapon_drop is None


def test_s13_2_drop_location_stays_in_his_hex_on_distance_0() -> None:
    dice = ScriptedDice([("§13.2.1", (6,)), ("§13.2.2", (1,))])
    drop, event = drop_location(dice, "shield", "test")
    assert (drop.direction, drop.distance) == ("FR", 0) and "stays" in event["text"]


@pytest.mark.parametrize(
    ("critical", "code", "field_name"), [(12, "LMP", "lmp"), (13, "STU", "stu")]
)
def test_s10_5_lmp_and_stu_are_counted(critical: int, code: str, field_name: str) -> None:
    _base, throw = crit_throw(critical)
    _s, out, _d = hit(hand(), "legs", [throw])
    assert out.criticals == (code,) and getattr(out, field_name) == 1


def test_ex_10_5_1_two_stu_results_roll_two_dice_q30() -> None:
    record = CriticalRecord()
    sheet = hand()
    for _ in range(2):
        _base, throw = crit_throw(13)  # legs 13 -> STU
        sheet, out, _d = hit(sheet, "legs", [throw])
        record = record.after(out)
    assert record.stu == 2
    assert stumbling_check(record.stu, ScriptedDice([("§10.5", (2,)), ("§10.5", (1,))]))
    dice = ScriptedDice([("§10.5", (2,)), ("§10.5", (3,))])
    assert not stumbling_check(record.stu, dice) and len(dice.log) == 2
    assert not stumbling_check(0, ScriptedDice([]))


def test_s10_5_sa_severs_an_artery_that_bleeds_each_later_phase() -> None:
    _base, throw = crit_throw(15)  # arms 15+ -> SA+M
    sheet, out, _d = hit(hand(), "arms", [throw])
    assert out.criticals == ("SA", "M") and out.severed_artery and out.mortal
    record = CriticalRecord().after(out)
    assert record.severed_arteries == ("arms",) and record.mortal
    before = sheet.wounds_in("arms")
    bled, events = severed_artery_bleeding(sheet, record.severed_arteries)
    assert bled.wounds_in("arms") == before + 1
    assert events[0]["type"] == "severed_artery" and events[0]["rule"] == "§10.5"


@pytest.mark.parametrize("area", ["head", "chest"])
def test_s10_5_k_kills_instantly(area: str) -> None:
    _base, throw = crit_throw(15)
    _s, out, _d = hit(hand(), area, [throw])
    assert out.criticals == ("K",) and out.killed and "critical K" in out.killed_by
    assert not out.cleaving  # only a T7 Kill cleaves (§26)


def test_r_10_4_helmet_lost_then_a_later_head_hit_has_no_armour_and_h_is_3xm() -> None:
    # 3 wounds to the head, RED + BLACK = 8 -> 11 -> H: helmet lost.
    sheet, out, _d = hit(hand(), "head", [wound_throw((5, 4, 4), 6, 2)])
    assert out.critical_roll == 11 and out.criticals == ("H",) and out.helmet_lost
    record = CriticalRecord().after(out)
    assert record.helmet_lost
    # Later: BLACK 1 would be under A5, but the helmet is gone: no armour DRM.
    sheet, out, _d = hit(
        sheet, "head", [wound_throw((5, 4, 4), 1, 1)], helmet_lost=record.helmet_lost
    )
    assert out.armour == "-" and out.armour_drm == 0 and out.base_wounds == 3
    # Another H with no helmet counts as 3x+M.
    sheet, out, _d = hit(
        sheet, "head", [wound_throw((3, 3, 3), 6, 4)], helmet_lost=record.helmet_lost
    )
    assert out.critical_codes == ("H",) and out.criticals == ("3x", "M")
    assert out.wounds == 3 and out.mortal and not out.helmet_lost


def test_s10_5_h_without_any_helmet_is_3xm() -> None:
    bare = hand(**{"class": "light", "armour_roll": 4, "shield": "large"})  # T1 roll 4: no armour
    _s, out, _d = hit(bare, "head", [wound_throw((5, 4, 4), 6, 2)])
    assert out.criticals == ("3x", "M") and out.wounds == 9


def test_s10_5_1_every_t9_cell_is_applied_in_full() -> None:
    """Whatever the cell, the applied codes are the cell's (H only swapped for 3x+M)."""
    for area in AREAS:
        for critical in range(8, 16):
            _base, throw = crit_throw(critical)
            script = [throw]
            cell = critical_result(area, critical)
            if "S" in cell:
                script.append(("§10.5", (3, 3)))
            if "WD" in cell or "SD" in cell:
                script += [("§13.2.1", (1,)), ("§13.2.2", (1,))]
            _s, out, _d = hit(hand(), area, script)
            assert out.critical_codes == cell
            assert out.criticals == tuple(c for c in cell if c != "-")


# --- §12 shield damage, P2 ---------------------------------------------------------------------


def test_s12_2_s12_2_1_shield_damage_marks_roll_minus_damage_points() -> None:
    sheet = hand()  # large: 14, 13, 12, P, 11, 10, H, 9, 8
    # 2D6 12 + ST 2 + modified CF 3 = 17 > 14: three boxes (14, 13, 12)
    dice = ScriptedDice([("§12.2", (6, 6))])
    sheet, out = shield_hit(sheet, "S", 2, 3, dice)
    assert (out.damage_roll, out.damage_points, out.boxes_marked) == (17, 14, 3)
    assert out.triggered == () and sheet.shield_damage_points == 11
    # 2D6 2 + 2 + 3 = 7, not greater than 11: no damage
    sheet2, out = shield_hit(sheet, "S", 2, 3, ScriptedDice([("§12.2", (1, 1))]))
    assert out.boxes_marked == 0 and sheet2 == sheet


def test_s12_3_1_p2_boxes_p_and_h_inflict_their_results() -> None:
    sheet = hand().model_copy(update={"shield_marked": 3})  # next: P, 11, 10, H, 9, 8
    # 2D6 11 + ST 2 + CF 3 = 16 > 11: 5 boxes: P, 11, 10, H, 9
    script = [
        ("§12.2", (6, 5)),
        ("§13.1.1", (1, 1, 1)),  # P: weapon drop 3 - 3 - 2 - 0 < 1 -> dropped
        ("§13.2.1", (4,)),
        ("§13.2.2", (2,)),
        wound_throw((3, 3, 3), 1, 1),  # H: chest B4 applies, 9 - 6 = 3 -> no wound
    ]
    dice = ScriptedDice(script)
    new, out = shield_hit(sheet, "S", 2, 3, dice, area="chest", turn=1, phase=4)
    assert dice.done()
    assert out.triggered == ("P", "H") and out.boxes_marked == 5 and not out.shield_useless
    assert out.weapon_drop_roll == 3 and out.weapon_drop is not None
    assert (out.weapon_drop.direction, out.weapon_drop.distance) == ("R", 1)
    assert out.body_hit is not None and out.body_hit.area == "chest"
    assert out.body_hit.h_modifier == 0 and out.body_hit.base_wounds == 0
    assert new.shield_damage_points == 8


def test_s12_3_1_an_h_box_without_an_area_is_left_pending_and_p_without_weapon_is_h() -> None:
    sheet = hand().model_copy(update={"shield_marked": 3})
    dice = ScriptedDice([("§12.2", (6, 5))])
    _new, out = shield_hit(sheet, "S", 2, 3, dice, has_weapon=False)
    assert out.triggered == ("P", "H") and out.body_hit_pending
    assert out.weapon_drop_roll is None
    assert any(e["rule"] == "§9.6" for e in out.events)


def test_s12_3_the_last_box_makes_the_shield_useless_and_it_takes_no_more_hits_q16() -> None:
    sheet = hand(armour_roll=1, shield=None)  # T2 roll 1: small shield 12, 11, P, 10, 9, H, 8
    sheet = sheet.model_copy(update={"shield_marked": 6})  # only box 8 left
    new, out = shield_hit(sheet, "S", 2, 3, ScriptedDice([("§12.2", (3, 3))]))  # 11 > 8
    assert out.boxes_marked == 1 and out.shield_useless and new.shield_useless
    with pytest.raises(ValueError, match="useless"):
        shield_hit(new, "S", 2, 3, ScriptedDice([]))


def test_s12_4_shield_edge_one_5d6_red_black_damage_white_drop() -> None:
    sheet = hand()
    # RED 6 + BLACK 5 = 11 + ST 2 + CF 3 + 1 = 17 > 14: 3 boxes. WHITE 2+2+2 = 6 - 3 - 2 - 0 = 1:
    # kept. The faces are scripted WHITE, WHITE, WHITE, BLACK, RED.
    dice = ScriptedDice([("§12.4", (2, 2, 2, 5, 6))])
    new, out = shield_hit(sheet, "S*", 2, 3, dice)
    assert out.damage_2d6 == 11 and out.damage_roll == 17 and out.boxes_marked == 3
    assert out.drop_roll == 6 and out.shield_drop is None and dice.done()
    # WHITE 1+2+2 = 5 -> 0: dropped, and placed (§13.2)
    dice = ScriptedDice([("§12.4", (1, 2, 2, 5, 6)), ("§13.2.1", (1,)), ("§13.2.2", (6,))])
    _n, out = shield_hit(sheet, "S*", 2, 3, dice)
    assert out.shield_drop is not None and out.shield_drop.item == "shield"
    assert (out.shield_drop.direction, out.shield_drop.distance) == ("F", 5)
    assert new.shield_marked == 3


def test_s12_2_note_drop_roll_may_use_another_modified_cf() -> None:
    # damage uses 4 (weakened defense ignored), the drop roll the full modified CF 6
    dice = ScriptedDice([("§12.4", (3, 3, 3, 1, 1))])
    _n, out = shield_hit(hand(), "S*", 0, 4, dice, drop_modified_cf=6)
    assert out.damage_roll == 2 + 0 + 4 + 1 and out.shield_drop is None
    dice = ScriptedDice([("§12.4", (2, 2, 2, 1, 1)), ("§13.2.1", (1,)), ("§13.2.2", (1,))])
    _n, out = shield_hit(hand(), "S*", 0, 4, dice, drop_modified_cf=6)  # 6 - 6 = 0 < 1
    assert out.shield_drop is not None


def test_s12_2_only_s_and_s_star_are_shield_hits() -> None:
    with pytest.raises(ValueError, match="shield hits"):
        shield_hit(hand(), "P", 2, 3, ScriptedDice([]))
    with pytest.raises(ValueError, match="turn and phase"):
        shield_hit(hand(), "S", 2, 3, ScriptedDice([]), area="chest")


# --- §13.1 drops -------------------------------------------------------------------------------


@pytest.mark.parametrize(("roll", "dropped"), [((1, 2, 2), True), ((2, 2, 2), False)])
@pytest.mark.parametrize("result", ["P", "P*"])
def test_note_13_1_1_st_3_four_cf_against_two_drops_on_5_or_less(
    result: str, roll: tuple[int, int, int], dropped: bool
) -> None:
    dice = ScriptedDice([("§13.1.1", roll)])
    assert drop_check(result, 4 - 2, 3, 0, dice) is dropped


def test_s13_1_1_cf_lost_from_the_arms_and_drm_make_drops_likelier() -> None:
    assert drop_check("P", 2, 3, 1, ScriptedDice([("§13.1.1", (2, 2, 2))]))
    assert drop_check("S*", 2, 3, 0, ScriptedDice([("§13.1.1", (2, 2, 2))]), drm=-1)
    assert not drop_check("S*", 2, 3, 0, ScriptedDice([("§13.1.1", (2, 2, 3))]))
    with pytest.raises(ValueError, match="drop roll"):
        drop_check("H", 2, 3, 0, ScriptedDice([]))


# --- §11.5 Stun recovery, §7.6.1 ------------------------------------------------------------


def stunned(total: int, turn: int = 1, phase: int = 3) -> LogSheet:
    sheet, _ = hand().with_stun(total, turn=turn, phase=phase)  # CN 4
    return sheet


@pytest.mark.parametrize(
    ("phases", "die", "removed"),
    [(0, 6, 0), (4, 6, 2), (2, 3, 3), (0, 1, 3), (5, 1, 5)],  # last: 4 - (1 - 5) = 8, cap 5
)
def test_s11_5_1_stun_removed_is_cn_minus_1d6_minus_phases_q6(
    phases: int, die: int, removed: int
) -> None:
    sheet = stunned(5)
    new, got = stun_recovery(sheet, phases, ScriptedDice([("§11.5.1", (die,))]))
    assert got == removed and new.stun_in_effect == 5 - removed
    if removed:
        assert new.last_stunned == (1, 3)  # §11.5.2: same phase number as before


def test_s11_5_2_recovery_is_capped_by_the_stun_at_the_start_of_the_movement_phase() -> None:
    sheet = stunned(5)
    new, got = stun_recovery(sheet, 4, ScriptedDice([("§11.5.1", (1,))]), start_of_phase_stun=2)
    assert got == 2 and new.stun_in_effect == 3


def test_s11_5_no_stun_no_die() -> None:
    sheet = hand()
    assert stun_recovery(sheet, 3, ScriptedDice([])) == (sheet, 0)


@given(st.integers(min_value=0, max_value=20), st.integers(min_value=1, max_value=6))
def test_q6_recovery_grows_with_phases_since_stunned(phases: int, die: int) -> None:
    sheet = stunned(9)
    _a, now = stun_recovery(sheet, phases, ScriptedDice([("§11.5.1", (die,))]))
    _b, later = stun_recovery(sheet, phases + 1, ScriptedDice([("§11.5.1", (die,))]))
    assert 0 <= now <= later <= 9


def test_q6_phases_since_stunned_counts_phase_boundaries() -> None:
    sheet = stunned(2, turn=1, phase=7)
    assert phases_since_stunned(sheet, 1, 7) == 0
    assert phases_since_stunned(sheet, 2, 1) == 2
    with pytest.raises(ValueError):
        phases_since_stunned(hand(), 1, 1)


@pytest.mark.parametrize(
    ("faces", "stun", "extra"), [((1, 1), 1, None), ((4, 4), 1, None), ((6, 6), 3, None)]
)
def test_s7_6_1_illegal_order_rolls_2d6_plus_0_on_the_stun_row_q2(
    faces: tuple[int, int], stun: int, extra: str | None
) -> None:
    dice = ScriptedDice([("§7.6.1", faces)])
    assert illegal_order_stun(dice) == (stun, extra)
    assert dice.log[0].notation == "2D6"


def test_t7_stun_row_extras_stand_in_their_own_column_q2() -> None:
    assert stun_check(ScriptedDice([("§8.4.3", (6, 6))]), 5, rule="§8.4.3") == (
        7,
        "weapon_drop",
    )
    assert stun_check(ScriptedDice([("§10.1", (6, 6))]), 7) == (9, "fall_prone")


# --- properties --------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    hits=st.lists(
        st.tuples(
            st.sampled_from(AREAS), st.integers(min_value=-2, max_value=3), st.sampled_from([0, 2])
        ),
        min_size=1,
        max_size=12,
    ),
)
def test_s10_3_wounds_never_exceed_w_and_cf_is_categories_plus_v(
    seed: int, hits: list[tuple[str, int, int]]
) -> None:
    dice = Dice(seed)
    sheet = roll_log_sheet(dice, "medium", id=1, name="Verus")
    record = CriticalRecord()
    v_losses = 0
    for phase, (area, h, weapon) in enumerate(hits, 1):
        turn, phase_in_turn = divmod(phase - 1, 8)
        before = sheet
        sheet, out = body_hit(
            sheet,
            area,  # type: ignore[arg-type]
            h,
            dice,
            weapon_modifier=weapon,
            turn=turn + 1,
            phase=phase_in_turn + 1,
            helmet_lost=record.helmet_lost,
        )
        record = record.after(out)
        v_losses += out.criticals.count("V")
        assert all(0 <= n <= sheet.w for n in sheet.wounds)
        assert out.wounds_marked <= out.wounds
        assert out.cf_lost == out.cf_lost_to_wounds + out.cf_lost_to_criticals
        assert out.cf_lost_to_wounds == sheet.cf_lost_to_wounds() - before.cf_lost_to_wounds()
        assert out.cf_after == sheet.current_cf
        assert out.killed == bool(out.killed_by)
        if sheet.killed:
            assert record.killed
        for event in out.events:
            assert event["text"].endswith(f"({event['rule']})")
    assert sheet.cf - sheet.current_cf == sheet.cf_lost_to_wounds() + v_losses
    assert sheet.cf_lost_other == v_losses
    assert all(r.rule.startswith("§") and r.purpose for r in dice.log)
