"""Every worked example (EX-…), numeric note (NOTE-…) and numeric rule statement (R-…) of the
Colosseum Basic Game (§2–§18) in Part 4 of the structured rules reference, one test each, named by
its ID, with the given → when → then in its docstring.

Each test runs the code that implements the rule (a pure module with scripted dice, or the engine
with rigged dice) and checks the example's own figures; none restates a table value. Where Part 4
and the code could be read differently, the reading is said in the docstring.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from colosseum_helpers import (
    RiggedDice,
    ScriptedDice,
    duel,
    of_type,
    pause,
    place,
    play,
    sheet,
)
from gladiator.core.dice import Dice
from gladiator.core.hexgrid import Hex, Relation, neighbor, neighbor_at, rectangle
from gladiator.rules.colosseum.arena.combat_geometry import front_coords, positional_advantage
from gladiator.rules.colosseum.combat.cf_allocation import (
    Allocation,
    AllocationError,
    allocation_decision,
    parse_allocation,
)
from gladiator.rules.colosseum.combat.crt import CrtOutcome, crt_column, modified_cf, resolve_crt
from gladiator.rules.colosseum.combat.rounds import PhaseCombat
from gladiator.rules.colosseum.combat.sequence import attack_schedule, attack_sequence, duel_plans
from gladiator.rules.colosseum.hits.body_hits import CriticalRecord, body_hit
from gladiator.rules.colosseum.hits.shield_hits import shield_hit
from gladiator.rules.colosseum.hits.wounds import drop_check, stumbling_check
from gladiator.rules.colosseum.movement.collision_records import FigureState
from gladiator.rules.colosseum.movement.movement import resolve_movement
from gladiator.rules.colosseum.plots.plot_legality import PlotStatus, legal_plots
from gladiator.rules.colosseum.plots.plots import parse_plot, uses_movement_phase
from gladiator.rules.colosseum.sheet.logsheet_roll import roll_log_sheet
from gladiator.rules.colosseum.tables.tables import attack_rounds, crt_result
from gladiator.rules.colosseum.vocabulary import AREAS, Area

CRT = "§9.5.1"  # every CRT 3D6
N, NE, SE, S, SW, NW = range(6)


class Hits:
    """on_hit stub: the CF each call costs the defender, in order (0 once none is left)."""

    def __init__(self, *losses: int) -> None:
        self.losses = list(losses)

    def __call__(self, attacker: int, defender: int, area: Area, result: CrtOutcome) -> int:
        return self.losses.pop(0) if self.losses else 0


def phase(g: str, o: str, dice: ScriptedDice, hits: Hits) -> PhaseCombat:
    """A combat phase of G (side 0) against O (side 1), run to its end."""
    combat = PhaseCombat(
        duel_plans((parse_allocation(g, 20), parse_allocation(o, 20))), dice, hits, names=("G", "O")
    )
    combat.run()
    assert dice.done(), f"dice left over: {dice.script}"
    return combat


def outcome(combat: PhaseCombat, side: int, area: Area) -> CrtOutcome:
    return next(o for p, o in combat.outcomes if (p.side, p.area) == (side, area))


# --- 3.1 rulebook EXAMPLEs ----------------------------------------------------------------------


def test_EX_9_4_5_axe_rounds() -> None:
    """EX-9.4.5-axe-rounds (§9.4.5, §9.4.2, T10). Given a gladiator whose weapon has Spd +1 (the
    axe is an Advanced Game weapon, so the Spd is a parameter here) and attack CFs on exactly two
    body areas; when the attack sequence is computed; then his attacks fall in rounds 3 and 5
    (without the Spd, rounds 2 and 4)."""
    assert attack_schedule(2) == (2, 4)
    assert attack_schedule(2, speed=1) == (3, 5)
    axe = parse_allocation("A3:head A2:legs", 10)
    sword = parse_allocation("A4:chest", 10)
    steps = attack_sequence(duel_plans((axe, sword)), speeds=(1, 0))
    assert [(p.round, p.area) for s in steps for p in s.attacks if p.side == 0] == [
        (3, "head"),
        (5, "legs"),
    ]
    without = attack_sequence(duel_plans((axe, sword)))
    assert [p.round for s in without for p in s.attacks if p.side == 0] == [2, 4]


def test_EX_9_4_7_cf_loss_spills_to_defense() -> None:
    """EX-9.4.7-cf-loss-spills-to-defense (§9.4.6–§9.4.7). Given G with one unresolved attack of
    1 CF; when an enemy attack costs him 3 CF; then the 1-CF attack is cancelled (the sequence is
    not recalculated) and the remaining 2 CF come off the defense of his next body area attacked.

    O's head attack (round 2) costs G 3 CF before G's groin attack (round 3); O's chest attack
    (round 4) then meets 4 − 2 = 2 CF of chest defence."""
    dice = ScriptedDice((CRT, (5, 5, 5)), (CRT, (3, 3, 4)))
    g, o = "A1:groin D4:chest", "A4:head A3:chest"
    before = attack_sequence(duel_plans((parse_allocation(g, 20), parse_allocation(o, 20))))
    combat = phase(g, o, dice, Hits(3))
    assert combat.sequence == before
    assert combat.attack_status(0, "groin") == "cancelled"
    assert combat.attack_cf(0, "groin") == 0
    account = combat.accounts[0]
    assert (account.lost, account.off_attacks, account.off_defence) == (3, 1, 2)
    chest = outcome(combat, 1, "chest")
    assert (chest.defence_cf, chest.modified_cf) == (2, 1)
    assert combat.defence_cf(0, "chest") == 2
    assert [p.area for p, _ in combat.outcomes] == ["head", "chest"]  # G never struck


def test_EX_9_6_fumble_penalty() -> None:
    """EX-9.6-fumble-penalty (§9.6). Given G fumbled and rolled 4 for the penalty, with 3 CF of
    head defense; when the opponent makes a 2-CF head attack later that phase; then the modified
    CF is 2 − (3 − 4) = 3 and the attack is read in CRT column 3.

    G's first attack (1 CF, column 1) rolls 3: F. His second attack is cancelled; the 1D6 penalty
    is rolled when O's head attack comes."""
    dice = ScriptedDice((CRT, (1, 1, 1)), ("§9.6", 4), (CRT, (3, 3, 4)))
    combat = phase("A1:chest A1:groin D3:head", "A2:head", dice, Hits())
    assert combat.fumbled == [True, False]
    assert combat.attack_status(0, "groin") == "cancelled"
    head = outcome(combat, 1, "head")
    assert (head.defence_cf, head.modified_cf, head.column, head.column_drm) == (-1, 3, 3, 0)
    assert str(head.crt) == str(crt_result(3, 10))
    assert modified_cf(2, 3, fumble_penalty=4) == 3


def test_EX_10_3_1_1_first_wound_categories() -> None:
    """EX-10.3.1.1-first-wound-categories (§10.3.1, §10.3.1.1, T7a P1). Given W = 12 and no
    previous wounds; when the chest (area 2) takes 2 wounds, then boxes 12 and 11 are marked and
    CF drops by 1; when instead the head (area 1) takes the same 2 wounds, then CF drops by 2."""
    fresh = sheet(w=12)
    chest, events = fresh.with_wounds("chest", 2)
    assert fresh.current_cf - chest.current_cf == 1
    assert any("boxes 12-11 marked" in e.text for e in events)
    head, _ = fresh.with_wounds("head", 2)
    assert fresh.current_cf - head.current_cf == 2
    # §10.3.1.1: the first wound to any area costs 1 CF.
    assert all(fresh.current_cf - fresh.with_wounds(a, 1)[0].current_cf == 1 for a in AREAS)


def test_EX_10_3_3_1_negative_cf() -> None:
    """EX-10.3.3.1-negative-cf (§10.3.3, §10.3.3.1). Given a gladiator at permanent CF 0 with +3
    PA this phase, all 3 CF on one attack; when the opponent's attack resolves first and costs him
    1 CF; then his attack drops to 2 CF, his permanent CF becomes −1, and every later attack
    against him gets a +1 DRM.

    Through the engine: red (CF 0) stands in blue's right-rear hex (+3), so blue is turned to face
    him (§9.1.2). Blue's groin attack (round 2) wounds red once (a first wound: −1 CF); red's chest
    attack (round 3) goes in with 2 CF; blue's arms attack (round 4) rolls with +1."""
    state = duel(seed=5)
    state.gladiators["red"].sheet = sheet(id=1, name="red", cf_lost_other=13)
    state.gladiators["blue"].sheet = sheet(id=2, name="blue")
    blue_hex = Hex(8, 6)
    place(state, blue=(blue_hex, N), red=(neighbor(blue_hex, SE), NW))
    dice = RiggedDice(
        5,
        {
            # blue's groin H (col 4, 15); red's chest miss (col 1, 10 - 4 = 6); blue's arms
            # (col 4, 6 + 1 = 7)
            CRT: [(5, 5, 5), (3, 3, 4), (1, 2, 3)],
            # one wound to red's bare groin, no critical (1 + 1 + 1 = 3)
            "§10.1": [(3, 3, 3, 1, 1)],
        },
    )
    play(state, dice)  # X X: nobody moves
    red, blue = state.gladiators["red"], state.gladiators["blue"]
    assert state.step == "allocate"
    assert (red.pa, red.available, blue.facing) == (3, 3, SE)
    events = play(state, dice, red="A3:chest", blue="A4:groin A4:arms D5:chest")
    assert dice.spent()
    assert any(
        e["type"] == "attack_reduced" and e["side"] == 0 and "2 left" in e["text"] for e in events
    )
    assert any(e["type"] == "cf_lost" and "now -1" in e["text"] for e in events)
    crts = {(e["side"], e["area"]): e for e in of_type(events, "crt")}
    assert "2 CF against 5 defence" in crts[(0, "chest")]["text"]
    first, later = crts[(1, "groin")], crts[(1, "arms")]
    assert (first["roll"], first["total"]) == (15, 15)  # CF 0: no DRM yet
    assert (later["roll"], later["total"]) == (6, 7)  # CF −1: +1


def test_EX_10_5_1_double_stumbling() -> None:
    """EX-10.5.1-double-stumbling (§10.5.1, §10.5 STU, Q30). Given a gladiator with two STU
    critical results; when he tries to leave his hex in a phase; then the stumbling check uses
    2D6 instead of 1D6, and he stumbles if either die shows 1 (the reference's reading).

    Two leg hits reading STU (critical 13) add up on his record; the engine then throws two dice
    when he plots F."""
    record = CriticalRecord()
    hurt = sheet()
    for _ in range(2):  # WHITE 13 -> 3 wounds on bare flesh (BLACK 6 misses A3), 6 + 4 + 3 = 13
        dice = ScriptedDice(("§10.1", (5, 4, 4, 6, 4)))
        hurt, hit = body_hit(hurt, "legs", 0, dice, turn=1, phase=1)
        assert hit.criticals == ("STU",)
        record = record.after(hit)
    assert record.stu == 2
    for faces, stumbles in (((6, 1), True), ((1, 6), True), ((6, 6), False)):
        dice = ScriptedDice(*(("§10.5", f) for f in faces))
        assert stumbling_check(record.stu, dice) is stumbles
        assert len(dice.log) == 2
    state = duel(seed=2)
    state.gladiators["red"].crits = record
    dice = RiggedDice(2, {"§10.5": [6, 1]})
    events = play(state, dice, red="F")
    assert [r.rule for r in dice.log].count("§10.5") == 2
    assert [e["seat"] for e in of_type(events, "stumble")] == ["red"]


# --- 3.2 rulebook NOTEs with numbers ------------------------------------------------------------


def test_NOTE_9_4_1_max_attacks() -> None:
    """NOTE-9.4.1-max-attacks (§9.4.1, §9.3.2). An allocation with attack CFs on more than 5
    areas cannot happen: at most 5 attacks a phase, one per body area. More than 8 CF on one area
    is illegal (the team-fight exception, 27.5, is not a duel's)."""
    every = Allocation.of(40, attack={a: 8 for a in AREAS})
    assert len(every.attacks) == 5
    steps = attack_sequence(duel_plans((every, Allocation(0))))
    assert sorted(p.round for s in steps for p in s.attacks) == list(attack_rounds(5))
    with pytest.raises(ValueError):
        attack_rounds(6)
    with pytest.raises(AllocationError, match="named twice"):
        parse_allocation("A1:head A1:head", 10)
    with pytest.raises(AllocationError, match=r"§9\.3\.2"):
        parse_allocation("A9:head", 20)
    assert parse_allocation("A8:head", 20).attack_on("head") == 8
    decision = allocation_decision(20)
    assert all(s.maximum == 8 for s in decision.slots if s.name.startswith("A-"))


@pytest.mark.parametrize("code", ["P", "P*"])
def test_NOTE_13_1_1_weapon_drop(code: str) -> None:
    """NOTE-13.1.1-weapon-drop (§13.1.1). Given attacker ST 3, attack 4 CF, defender defense 2
    on that area, no CF lost from the defender's arms; when the result is P or P*; then he drops
    his weapon exactly when the 3D6 drop roll is at most 5 (3D6 − 2 − 3 − 0 < 1)."""
    cf = modified_cf(4, 2)
    for faces, drops in (((1, 1, 1), True), ((1, 1, 3), True), ((1, 2, 3), False)):
        dice = ScriptedDice(("§13.1.1", faces))
        assert drop_check(code, cf, 3, 0, dice) is drops, faces
        assert dice.done()


def test_NOTE_13_3_thrown_items() -> None:
    """NOTE-13.3-thrown-items (§13.3, §13.3.1.1, §9.5.3). A thrown sword has Thr 3 and attacks at
    CRT column 3. A thrown shield has Thr 3 and attacks at column 0, i.e. column 1 with a −1 DRM.
    (The throwing rules live in items.py, written alongside these tests.)"""
    assert crt_column(3) == (3, 0)
    assert crt_column(0) == (1, -1)
    items = pytest.importorskip("gladiator.rules.colosseum.hits.items")
    sword, shield = items.THROWN["weapon"], items.THROWN["shield"]
    assert (sword.thr, sword.crt, shield.thr, shield.crt) == (3, 3, 3, 0)
    for value, column, drm in ((sword.crt, 3, 0), (shield.crt, 1, -1)):
        dice = ScriptedDice(("§13.3.1.1", (3, 3, 4)))
        hit, _events = items.throw_crt(dice, value)
        assert (hit.column, hit.column_drm, hit.total) == (column, drm, 10 + drm)


def test_NOTE_7_4_free_stumble_pause() -> None:
    """NOTE-7.4-free-stumble-pause (§7.4 NOTE, §15.6 (2nd)). A Stumble (S) or Pause (X) plotted
    without rotation does not use one of the turn's movement phases; with a rotation it does."""
    for text, uses in (("S", False), ("X", False), ("S(R)", True), ("X(2L)", True), ("F", True)):
        assert uses_movement_phase(parse_plot(text)) is uses, text
    spent = PlotStatus(move_rate=5, moves_used=6)  # his rate and the §17.3 extra phase used
    offered = {str(p) for p in legal_plots(spent)}
    assert "X" in offered and not any(t.startswith("X(") for t in offered)
    stumbling = {str(p) for p in legal_plots(PlotStatus(5, moves_used=6, must_stumble=True))}
    assert stumbling == {"S"}


def test_NOTE_12_2_weakened_defender() -> None:
    """NOTE-12.2-weakened-defender (§12.2 NOTE, §9.4.7). Given a 4-CF attack against a defense
    driven to −2 (here by a fumble penalty of 5 off 3); then the CRT column is 6, but the
    shield-damage roll uses modified CF 4: the 2 from the weakened defense are ignored."""
    dice = ScriptedDice((CRT, (1, 1, 1)), ("§9.6", 5), (CRT, (1, 1, 2)))
    combat = phase("A1:chest A1:groin D3:head", "A4:head", dice, Hits())
    head = outcome(combat, 1, "head")
    assert (head.defence_cf, head.modified_cf, head.column) == (-2, 6, 6)
    assert head.code == "S" and head.unweakened_cf == 4
    shield_dice = ScriptedDice(("§12.2", (3, 4)))
    _sheet, shield = shield_hit(sheet(), head.result, 2, head.unweakened_cf, shield_dice)
    assert shield.damage_roll == 7 + 2 + 4


def test_NOTE_9_2_left_handed() -> None:
    """NOTE-9.2-left-handed (§9.2 NOTE, T11). For a left-handed defender every +1 becomes +2,
    +2 becomes +1, +3 becomes +4 and +4 becomes +3; 0 and +6 do not change."""
    defender = (Hex(0, 0), N)
    swapped = {0: 0, 1: 2, 2: 1, 3: 4, 4: 3, 6: 6}
    seen = set()
    for relation in Relation:
        attacker = (neighbor_at(Hex(0, 0), N, int(relation)), N)
        right = positional_advantage(attacker, defender)
        left = positional_advantage(attacker, defender, left_handed=True)
        assert left == swapped[right], relation
        seen.add(right)
    assert seen == set(swapped)


# --- 3.3 rule statements with numbers -----------------------------------------------------------


def test_R_2_5_1D3() -> None:
    """R-2.5-1D3 (§2.5): a 1D3 reads the die 1, 2 as 1; 3, 4 as 2; 5, 6 as 3. And the five dice
    are 1 BLACK, 1 RED and 3 WHITE, all thrown for a body hit (§10.1)."""
    read: dict[int, set[int]] = {}
    for seed in range(60):
        roll = Dice(seed).roll_detail("1D3", "R-2.5", "§2.5")
        read.setdefault(roll.faces[0], set()).add(roll.total)
    assert read == {1: {1}, 2: {1}, 3: {2}, 4: {2}, 5: {3}, 6: {3}}
    dice = ScriptedDice(("§10.1", (3, 3, 3, 1, 1)))
    body_hit(sheet(), "groin", 0, dice, turn=1, phase=1)
    assert Counter(dice.log[0].colours) == {"white": 3, "black": 1, "red": 1}


def test_R_3_11_2_derived() -> None:
    """R-3.11.2-derived (§3.11.2, §3.11.3). TR 10, ST 2, AG 1 give CF 13 and NF 11; AG then
    drops to 0: NF 10, CF stays 13."""
    eleven = (3, 4, 4)  # 3D6 = 11 reads TR 10, ST 2, AG 1 on T4
    dice = ScriptedDice(("§3.10", 2), *(("§3.11.1", eleven) for _ in range(5)))
    rolled = roll_log_sheet(dice, "medium", id=5, name="Spiculus")
    assert (rolled.tr, rolled.st, rolled.ag) == (10, 2, 1)
    assert (rolled.cf, rolled.nf) == (13, 11)
    weaker, _events = rolled.with_characteristic_loss("AG", 1)
    assert (weaker.current_ag, weaker.current_nf, weaker.cf, weaker.current_cf) == (0, 10, 13, 13)


def test_R_4_5_setup() -> None:
    """R-4.5-setup (§4.5): at the start the two gladiators face each other at hex distance 5
    (four empty hexes between them)."""
    for seed, classes in ((1, ["medium", "medium"]), (7, ["light", "heavy"])):
        state = duel(seed=seed, gladiators=classes)
        red, blue = state.gladiators["red"], state.gladiators["blue"]
        # Straight ahead at range 5 is 5·FL + 5·FR in each one's own frame.
        assert front_coords(red.hex, red.facing, blue.hex) == (5, 5)
        assert front_coords(blue.hex, blue.facing, red.hex) == (5, 5)


def test_R_5_4_1_stans_missus() -> None:
    """R-5.4.1-stans-missus (§5.4.1). No check at the end of turns 1–2. At the end of turn 3,
    1D6 = 6 → 9 > 8: stopped; 1D6 = 5 → 8: the fight goes on. At the end of turn 8 any roll stops
    the match (here 1: 9 > 8, after 1 + 7 = 8 let turn 7 go on)."""
    state = duel(seed=4)
    dice, _events = pause(state, 2, {})
    assert "§5.4.1" not in dice.rules()
    assert (state.turn, state.phase, state.step) == (3, 1, "plot")
    for roll, goes_on in ((6, False), (5, True)):
        state = duel(seed=4)
        dice, events = pause(state, 3, {"§5.4.1": [roll]})
        [check] = of_type(events, "stans_missus_roll")
        assert check["stopped"] is not goes_on
        assert (state.step == "over") is not goes_on
        assert (state.turn, state.phase) == ((4, 1) if goes_on else (3, 8))
    state = duel(seed=4)
    dice, events = pause(state, 8, {"§5.4.1": [1] * 6})
    assert [e["stopped"] for e in of_type(events, "stans_missus_roll")] == [False] * 5 + [True]
    assert state.step == "over" and state.end_method == "stans missus"


@pytest.mark.parametrize(
    ("attack", "defence", "faces", "column", "total", "cell"),
    [
        (3, 0, (3, 3, 4), 3, 10, "P"),  # column 3, roll 10
        (8, 0, (6, 6, 6), 8, 18, "H+3"),  # column 8, roll 18
        (1, 0, (1, 1, 1), 1, 3, "F"),  # column 1, roll 3
        (8, -2, (5, 5, 5), 8, 17, "H+3"),  # modified CF 10, roll 15 -> column 8, 17
        (1, 2, (4, 4, 4), 1, 10, "S*"),  # modified CF -1, roll 12 -> column 1, 10
        (1, 1, (5, 5, 5), 1, 14, "H-2"),  # the net toss's "0" column, roll 15 -> column 1, 14
    ],
)
def test_R_9_5_crt_lookup(
    attack: int, defence: int, faces: tuple[int, int, int], column: int, total: int, cell: str
) -> None:
    """R-9.5-crt-lookup (§9.5, §9.5.3, §9.5.4, T5 recommended): column 3, roll 10 → P; column 8,
    roll 18 → H+3; column 1, roll 3 → F; modified CF 10, roll 15 → column 8, roll 17 → H+3;
    modified CF −1, roll 12 → column 1, roll 10 → S*; the net toss's "0" column, roll 15 →
    column 1, roll 14 → H−2 (which ensnares: the net is the Advanced Game's)."""
    dice = ScriptedDice((CRT, faces))
    out, _events = resolve_crt(dice, attack, defence)
    assert (out.column, out.total, str(out.crt)) == (column, total, cell)


@pytest.mark.parametrize("variant", ["rules", "reference"])
def test_R_T5_shift_invariant(variant: Any) -> None:
    """R-T5-shift-invariant (§9.5, T5): for every roll r in 3…17 and column c in 1…7,
    CRT(r + 1, c) = CRT(r, c + 1), in the recommended and in the variant data file."""
    for roll in range(3, 18):
        for column in range(1, 8):
            assert crt_result(column, roll + 1, variant) == crt_result(column + 1, roll, variant)


@pytest.mark.parametrize(("black", "wounds"), [(4, 1), (5, 4)])
def test_R_10_2_armour(black: int, wounds: int) -> None:
    """R-10.2-armour (§10.1.1, §10.2, §10.2.2, T8): WHITE 3D6 = 14, H+1, an area with B4, BLACK 4
    → 14 + 1 − 6 = 9 → 1 wound. The same with BLACK 5 (armour missed) → 15 → 4 wounds."""
    dice = ScriptedDice(("§10.1", (5, 5, 4, black, 1)))
    _hurt, hit = body_hit(sheet(), "chest", 1, dice, turn=1, phase=1)  # chest: B4
    assert hit.armour == "B4"
    assert (hit.wound_roll, hit.base_wounds) == (14 + 1 + hit.armour_drm, wounds)
    assert hit.wound_roll == (9 if black == 4 else 15)


def test_R_10_4_crit() -> None:
    """R-10.4-crit (§10.4, §10.5 H, T9): 3 wounds to the head with RED + BLACK = 8 → 11 → H
    (helmet lost). BLACK 6 misses the A5 helmet, so WHITE 13 is 3 wounds."""
    dice = ScriptedDice(("§10.1", (5, 4, 4, 6, 2)))
    _hurt, hit = body_hit(sheet(), "head", 0, dice, turn=1, phase=1)
    assert (hit.base_wounds, hit.critical_roll, hit.critical_codes) == (3, 11, ("H",))
    assert hit.helmet_lost


def test_R_8_4_collision() -> None:
    """R-8.4-collision (§8.4, §8.4.3, T12, T7): heavy (+2), large shield (+2), moved 2 forward
    (+2), ST 1, AG 0, 1D6 = 3 → IF 10. The other side has IF 6. The defender rolls 2D6 + 4 on the
    Stun row: a 2D6 of 6 gives 10 → Stun 2."""
    board = rectangle(16, 12)
    c = board.centre()
    start = neighbor(neighbor(c, S), S)
    heavy = FigureState(gladiator_class="heavy", shield="large", st=1, ag=0)
    light = FigureState(gladiator_class="light")
    paths = {
        "A": [(start, N), (neighbor(start, N), N), (c, N)],
        "B": [(c, S)],
    }
    dice = ScriptedDice(("§8.4", 3), ("§8.4", 6), ("§8.4.3", (3, 3)), ("§15.2.1", 6))
    result = resolve_movement({"A": heavy, "B": light}, paths, dice, board=board)
    assert dice.done()
    [collision] = result.collisions
    assert [i.total for i in collision.impacts] == [10, 6]
    [stun] = collision.stun_rolls
    assert (stun.figure, stun.roll, stun.modifier, stun.total, stun.stun) == ("B", 6, 4, 10, 2)


def test_R_17_2_endurance() -> None:
    """R-17.2-endurance (§17.2, the text's formula): CN 3, medium (move 5), end of turn 2,
    1D6 = 5 → (3 + 5 − 4) − (5 + 2) = −3 → −3 CF, recorded on the plot record (§3.20). (At the end
    of turn 1 a die of 1 gives 4 − 2 = 2: no loss.)"""
    state = duel(seed=3)
    state.gladiators["red"].sheet = sheet(id=1, name="red", cn=3)
    dice, events = pause(state, 2, {"§17.2": [1, 6, 5, 6]})
    assert dice.spent()
    red = state.gladiators["red"]
    ends = [e for e in of_type(events, "endurance") if e["seat"] == "red"]
    assert [e["lost"] for e in ends] == [0, 3]
    assert red.sheet.cf_lost_to_endurance == 3
    assert [p.endurance_cf_lost for p in red.sheet.plot] == [0, 3]
    assert red.sheet.current_cf == red.sheet.cf - 3


def test_R_18_3_missus() -> None:
    """R-18.3-missus (§18.3, §18.3.1, §18.3.2, Q7): 2D6 = 7, performance +3 (after the chosen
    scaling: 30 attack CF less 0 defence, in tenths), PR 0 → 10 > 9: spared. With 2D6 = 6 → 9:
    killed. Both appeal when stans missus stops the match at the end of turn 3."""
    state = duel(seed=6)
    for g in state.gladiators.values():
        g.attack_used, g.defence_used = 30, 0
    dice, events = pause(state, 3, {"§5.4.1": [6], "§18.3": [(3, 4), (3, 3)]})
    assert dice.spent()
    appeals = {e["seat"]: e for e in of_type(events, "appeal")}
    assert (appeals["red"]["total"], appeals["red"]["spared"]) == (10, True)
    assert (appeals["blue"]["total"], appeals["blue"]["spared"]) == (9, False)
    assert state.winners == ("red",) and not state.gladiators["blue"].alive


def test_R_T11_pa() -> None:
    """R-T11-pa (§9.2, T11): an attacker directly behind the defender at range 1, 2 or 3 → +6;
    straight ahead → 0; in the defender's right-front hex → +1, left-front → +2, right-rear → +3,
    left-rear → +4 (a right-handed defender, the recommended side)."""
    d = Hex(0, 0)
    for facing in range(6):
        defender = (d, facing)
        ahead = behind = d
        for _ in range(3):
            ahead = neighbor(ahead, facing)
            behind = neighbor(behind, (facing + 3) % 6)
            assert positional_advantage((ahead, facing), defender) == 0
            assert positional_advantage((behind, facing), defender) == 6
        expected = {Relation.RIGHT_FRONT: 1, Relation.RIGHT_REAR: 3}
        expected |= {Relation.from_code("FL"): 2, Relation.from_code("RL"): 4}
        for relation, pa in expected.items():
            attacker = (neighbor_at(d, facing, int(relation)), facing)
            assert positional_advantage(attacker, defender) == pa, (facing, relation)
