"""The skirmish rules, section by section (docs/rules/skirmish.md §1–§10; the designed tables in
src/gladiator/rules/skirmish/data/).

Most tests build a position by hand (`state_of`, `fighter`), script the dice (`ScriptedDice`, which
checks that each die is thrown for the rule that calls for it) and play a whole turn through the
engine's own decisions (`run_turn`: every order is checked against `SkirmishRules.pending` before
`apply`). Every test that scripts dice checks that none is left over, so a die the rule does not
call for (a d20 for an attack out of reach, a fall die for a nick) fails the test.

Geometry: see tests/skirmish_helpers.py. Red at C = (0,0) facing N and blue at (0,-1) facing S
are "engaged": each stands in the other's zone A.
"""

from __future__ import annotations

import random
import tomllib
from pathlib import Path
from typing import Any

import pytest

from gladiator.core.decisions import ChooseOne, IllegalOrder, PickHex
from gladiator.core.hexgrid import Hex
from gladiator.core.match import Match, NotYourTurn
from gladiator.registry import get
from gladiator.rules.skirmish import combat, engine
from gladiator.rules.skirmish.state import Fighter, SkirmishState
from gladiator.rules.skirmish.tables import tables
from skirmish_helpers import (
    FALL,
    HIT,
    HP,
    INIT,
    NET,
    POLICIES,
    REROLL,
    RULES,
    C,
    PurposeDice,
    ScriptedDice,
    allowed_codes,
    facing_to,
    fighter,
    legal,
    run_turn,
    state_of,
    step,
)

N, NE, SE, S, SW, NW = 0, 1, 2, 3, 4, 5
FRONT = Hex(0, -1)  # zone A of a figure at C facing N
DATA = Path(__file__).resolve().parents[1] / "src/gladiator/rules/skirmish/data"
THRACIAN_MOVES = [m.code for m in tables().sheets["thracian"].moves]


def sheet_toml(name: str) -> dict[str, Any]:
    return tomllib.loads((DATA / "sheets" / f"{name}.toml").read_text())


def engaged(red_sheet: str = "thracian", blue_sheet: str = "thracian", **kw: Any) -> SkirmishState:
    """Red at C facing N, blue in red's front hex facing S: face to face."""
    red = fighter("red", C, N, red_sheet, **kw.pop("red", {}))
    blue = fighter("blue", FRONT, S, blue_sheet, **kw.pop("blue", {}))
    return state_of([red, blue], **kw)


def write_options(state: SkirmishState, seat: str) -> list[str]:
    return legal(RULES.pending(state)[seat])


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def at_act(state: SkirmishState, seat: str, written: str) -> list[str]:
    """The act decision of `seat` having written `written` (state put in the act phase)."""
    state.phase = "act"
    state.order = list(state.fighters)
    state.index = state.order.index(seat)
    state.chooser = seat
    for f in state.fighters.values():
        f.written = f.written or "ST"
    state.fighters[seat].written = written
    return legal(RULES.pending(state)[seat])


# -- §2 the character sheet ------------------------------------------------------------------------
@pytest.mark.parametrize(("red", "blue"), [((1, 1), (6, 6)), ((3, 4), (2, 5))])
def test_s2_6_hit_points_are_2d6_plus_6(red: tuple[int, int], blue: tuple[int, int]) -> None:
    """§2.6: each gladiator starts with 2D6 + 6 hit points (8 for double one, 18 for double six)."""
    dice = ScriptedDice([(HP, red), (HP, blue)])
    st, events = RULES.initial_state(RULES.normalise_options({}), dice)
    dice.assert_exhausted()
    assert (st.fighters["red"].hp, st.fighters["red"].max_hp) == (sum(red) + 6,) * 2
    assert (st.fighters["blue"].hp, st.fighters["blue"].max_hp) == (sum(blue) + 6,) * 2
    assert [e["hp"] for e in of_type(events, "gladiator")] == [sum(red) + 6, sum(blue) + 6]
    assert [r.notation for r in dice.log] == ["2D6+6", "2D6+6"]


def test_s2_6_hit_points_range_8_to_18_and_equal_the_recorded_roll() -> None:
    """§2.6: over seeded matches of either sheet, every HP is in 8..18 and is its roll's total."""
    seen = set()
    for seed in range(60):
        n = 2 + seed % 3
        sheets = ["thracian", "retiarius"] * 3
        m = Match(get("skirmish"), {"gladiators": sheets[seed % 2 : seed % 2 + n]}, seed=seed)
        rolls = {r.purpose: r for r in m.rolls if r.rule == HP}
        assert len(rolls) == n
        for f in m.state.fighters.values():
            r = rolls[f"{f.seat}'s hit points"]
            assert r.notation == "2D6+6" and len(r.faces) == 2
            assert f.hp == f.max_hp == sum(r.faces) + 6 == r.total
            assert 8 <= f.hp <= 18
            seen.add(f.hp)
    assert len(seen) >= 8


def test_s2_3_s9_2_protection_classes_of_the_sheets() -> None:
    """§2.3, §9.2: the Thracian is protected (P); the designed Retiarius is unarmoured (U)."""
    assert tables().sheets["thracian"].protection_class == "P"
    assert tables().sheets["retiarius"].protection_class == "U"
    assert tables().sheets["thracian"].basic_initiative == 5  # §9.1


@pytest.mark.parametrize(
    ("sheet", "row", "result"), [("thracian", "EMP", "C"), ("retiarius", "EMU", "C")]
)
def test_s2_3_the_targets_protection_class_picks_the_result_row(
    sheet: str, row: str, result: str
) -> None:
    """§2.3, §4.3.5: the result row ends in the target's protection class: a cut against a
    standing target (CU vs ST = EM) is read on EMP against a Thracian, EMU against a Retiarius."""
    st = engaged(blue_sheet=sheet)
    dice = ScriptedDice([(INIT, 4), (INIT, 1), (HIT, 15), (FALL, 1)])
    events = run_turn(st, dice, {"red": "CU", "blue": "ST"})
    dice.assert_exhausted()
    (attack,) = of_type(events, "attack")
    assert (attack["code"], attack["row"], attack["result"]) == ("EM", row, result)


# -- §2.5.1, §5.3, §5.4 stun turns -----------------------------------------------------------------
@pytest.mark.parametrize("sheet", ["thracian", "retiarius"])
def test_s2_5_1_s5_3_a_stun_turn_offers_only_stun_moves(sheet: str) -> None:
    """§2.5.1, §5.3: on a stun turn only the moves with Y in the S column may be written; a
    non-stun move is refused."""
    st = engaged(red_sheet=sheet)
    st.fighters["red"].stunned = True
    got = write_options(st, "red")
    moves = tables().sheets[sheet].moves
    want = [m.code for m in moves if m.stun and m.code not in ("GU", "RN")]
    assert got == want
    assert all(engine.move_of(st.fighters["red"], c).stun for c in got)
    non_stun = next(m.code for m in moves if not m.stun)
    with pytest.raises(IllegalOrder):
        RULES.pending(st)["red"].validate(non_stun)
    # the other, unstunned, seat may write anything (GU only from the floor, §7.2)
    assert write_options(st, "blue") == [m.code for m in tables().sheets["thracian"].moves][:-1]


def test_s5_4_a_stun_turn_converts_only_to_stun_moves() -> None:
    """§5.4: converting on a stun turn, "He can only convert to another stun move": a floored,
    stunned Thracian who wrote Get up (converted PA, SH, KI) is offered PA and SH, not the kick."""
    st = engaged()
    red = st.fighters["red"]
    red.floored = True
    assert at_act(st, "red", "GU") == ["GU", "PA", "SH", "KI"]  # not stunned: all three
    red.stunned = True
    assert at_act(st, "red", "GU") == ["GU", "PA", "SH"]
    # and through a whole turn: the stunned red performs the converted shield
    st = engaged(red={"floored": True, "stunned": True})
    dice = ScriptedDice([(INIT, 6), (INIT, 1)])
    trace: list[tuple[str, str, list[str]]] = []
    events = run_turn(st, dice, {"red": "GU", "blue": "ST"}, perform={"red": "SH"}, trace=trace)
    dice.assert_exhausted()
    assert ("act", "red", ["GU", "PA", "SH"]) in trace
    assert next(e["move"] for e in of_type(events, "perform")) == "SH"
    st2 = engaged(red={"floored": True, "stunned": True})
    at_act(st2, "red", "GU")
    with pytest.raises(IllegalOrder):
        RULES.pending(st2)["red"].validate("KI")


def test_s5_4_conversions_of_a_stunned_gladiator_drop_the_non_stun_ones() -> None:
    """§5.4 (the engine's conversion filter): of Slash's converted moves (CU, PA) a stunned
    gladiator keeps only the parry."""
    st = engaged()
    st.fighters["red"].written = "SL"
    assert [m.code for m in engine.conversions(st, st.fighters["red"])] == ["CU", "PA"]
    st.fighters["red"].stunned = True
    assert [m.code for m in engine.conversions(st, st.fighters["red"])] == ["PA"]


# -- §2.5.6 conversions, §2.5.7 prohibited ---------------------------------------------------------
@pytest.mark.parametrize(
    ("sheet", "code"),
    [("thracian", c) for c in THRACIAN_MOVES if c != "GU"]
    + [("retiarius", c) for c in ("TH", "JA", "CN", "KI", "PA", "ST", "RU", "RE", "SP")],
)
def test_s2_5_6_the_conversions_offered_are_the_written_moves_converted_list(
    sheet: str, code: str
) -> None:
    """§2.5.6, §4.3.1: at his turn a gladiator may perform his written move or any move of its
    converted column (nothing barring them), in the sheet's order."""
    st = engaged(red_sheet=sheet)
    move = tables().sheets[sheet].move(code)
    assert at_act(st, "red", code) == [code, *move.converted]


def test_s2_5_6_s2_5_7_a_prohibited_move_is_not_offered_as_a_conversion() -> None:
    """§2.5.6 with §2.5.7: a lunge converts to cut or stand, but after a parry (which bars SL and
    CU) only the stand is offered."""
    st = engaged(red={"prohibited": ("SL", "CU")})
    assert "CU" not in write_options(st, "red") and "SL" not in write_options(st, "red")
    assert at_act(st, "red", "LU") == ["LU", "ST"]


def test_s2_5_7_prohibited_moves_follow_the_move_actually_performed() -> None:
    """§2.5.7, §4.1, §4.3.1: the text's worked example. A Thracian writes Shield smash (which bars
    slash next turn) but converts to Parry during the turn; next turn both slash and cut are
    barred, the parry's prohibited moves."""
    st = engaged()
    dice = ScriptedDice([(INIT, 5), (INIT, 1)])
    run_turn(st, dice, {"red": "SS", "blue": "ST"}, perform={"red": "PA"})
    dice.assert_exhausted()
    assert st.turn == 2 and st.phase == "write"
    assert st.fighters["red"].prohibited == ("SL", "CU")
    options = write_options(st, "red")
    assert "SL" not in options and "CU" not in options and "SS" in options
    with pytest.raises(IllegalOrder):
        RULES.pending(st)["red"].validate("CU")


def test_s2_5_7_the_shield_smash_as_performed_bars_only_the_slash() -> None:
    """§2.5.7: the same turn with the Shield smash performed as written bars only the slash."""
    st = engaged()
    dice = ScriptedDice([(INIT, 5), (INIT, 1), (HIT, 1)])
    run_turn(st, dice, {"red": "SS", "blue": "ST"})
    dice.assert_exhausted()
    assert st.fighters["red"].prohibited == ("SL",)
    options = write_options(st, "red")
    assert "SL" not in options and "CU" in options
    assert st.fighters["blue"].prohibited == ()  # stand bars nothing


# -- §4.1 write move -------------------------------------------------------------------------------
def test_s4_1_every_living_seat_writes_a_secret_move() -> None:
    """§4.1: all players secretly write their move: the write decision is a secret ChooseOne for
    every living gladiator (none for the dead); the other decisions of the turn are open."""
    red = fighter("red", C, N)
    blue = fighter("blue", FRONT, S)
    green = fighter("green", Hex(3, 0), NW, alive=False, hp=0, cause="a D result")
    st = state_of([red, blue, green])
    pending = RULES.pending(st)
    assert set(pending) == {"red", "blue"}
    assert all(isinstance(d, ChooseOne) and d.secret for d in pending.values())
    m = Match(get("skirmish"), {"gladiators": ["thracian", "retiarius", "thracian"]}, seed=1)
    assert set(m.pending()) == set(m.seats)
    assert all(d.secret for d in m.pending().values())
    m.apply_step({s: "ST" for s in m.seats})
    assert m.state.phase == "act" and not any(d.secret for d in m.pending().values())


# -- §4.2 initiative -------------------------------------------------------------------------------
def test_s4_2_initiative_is_basic_plus_move_plus_1d6() -> None:
    """§4.2, §2.4, §2.5.2: basic initiative + the written move's initiative + 1D6; with wounds
    the basic is the wound track's (§2.7.2): two nicks give a Thracian 4."""
    st = engaged(red={"nicks": 2})
    dice = ScriptedDice([(INIT, 4), (INIT, 6)])
    events = step(st, dice, {"red": "CU", "blue": "PA"})
    dice.assert_exhausted()
    assert st.fighters["red"].initiative == 4 + 3 + 4
    assert st.fighters["blue"].initiative == 5 + 4 + 6
    assert [(e["seat"], e["total"]) for e in of_type(events, "initiative")] == [
        ("red", 11),
        ("blue", 15),
    ]
    assert st.order == ["blue", "red"] and st.chooser == "blue"


def test_s4_2_3_a_tie_goes_to_the_higher_basic_initiative_after_wounds() -> None:
    """§4.2.3: equal totals; the higher basic initiative "in that turn after wounds" goes first:
    blue (5) before the twice-nicked red (4), though red rolled higher. No re-roll."""
    # red 4 + 1 (lunge) + 6 = 11, blue 5 + 2 (slash) + 4 = 11
    st = engaged(red={"nicks": 2})
    dice = ScriptedDice([(INIT, 6), (INIT, 4)])
    step(st, dice, {"red": "LU", "blue": "SL"})
    dice.assert_exhausted()
    assert st.fighters["red"].initiative == st.fighters["blue"].initiative == 11
    assert st.order == ["blue", "red"] and st.chooser == "blue" and st.phase == "first"


def test_s4_2_3_then_the_higher_d6_goes_first() -> None:
    """§4.2.3: equal totals and basics: the higher six-sided roll goes first (red 5+3+3, blue
    5+2+4: blue's 4 beats red's 3)."""
    st = engaged()
    dice = ScriptedDice([(INIT, 3), (INIT, 4)])
    step(st, dice, {"red": "CU", "blue": "SL"})
    dice.assert_exhausted()
    assert st.fighters["red"].initiative == st.fighters["blue"].initiative == 11
    assert st.order == ["blue", "red"]


def test_s4_2_3_then_re_roll_until_one_is_higher() -> None:
    """§4.2.3: all equal: "re roll the dice until one gets higher than the other" (a tied re-roll
    is rolled again)."""
    st = engaged()
    dice = ScriptedDice([(INIT, 4), (INIT, 4), (REROLL, 2), (REROLL, 2), (REROLL, 3), (REROLL, 5)])
    step(st, dice, {"red": "SL", "blue": "SL"})
    dice.assert_exhausted()
    assert st.order == ["blue", "red"] and st.chooser == "blue"
    st = engaged()
    dice = ScriptedDice([(INIT, 4), (INIT, 4), (REROLL, 6), (REROLL, 1)])
    step(st, dice, {"red": "SL", "blue": "SL"})
    dice.assert_exhausted()
    assert st.order == ["red", "blue"]


@pytest.mark.parametrize(("choice", "acts_first"), [("FIRST", "red"), ("SECOND", "blue")])
def test_s4_2_1_with_two_gladiators_the_winner_chooses_first_or_second(
    choice: str, acts_first: str
) -> None:
    """§4.2.1: with two gladiators the highest total alone decides whether to go first or second;
    choosing second lets the other act first."""
    st = engaged()
    dice = ScriptedDice([(INIT, 6), (INIT, 1)])
    step(st, dice, {"red": "ST", "blue": "ST"})
    pending = RULES.pending(st)
    assert st.phase == "first" and list(pending) == ["red"]
    assert legal(pending["red"]) == ["FIRST", "SECOND"]
    step(st, dice, {"red": choice})
    dice.assert_exhausted()
    assert st.phase == "act" and list(RULES.pending(st)) == [acts_first]
    assert st.order[0] == acts_first


def test_s4_2_1_two_left_alive_of_three_also_choose() -> None:
    """§4.2.1: "either from the start or left alive": two living of three still choose."""
    red = fighter("red", C, N)
    blue = fighter("blue", FRONT, S)
    green = fighter("green", Hex(3, 0), NW, alive=False, hp=0, cause="a D result")
    st = state_of([red, blue, green])
    dice = ScriptedDice([(INIT, 1), (INIT, 6)])
    step(st, dice, {"red": "ST", "blue": "ST"})
    dice.assert_exhausted()
    assert st.phase == "first" and st.chooser == "blue"


def test_s4_2_2_with_three_gladiators_strict_order_and_no_choice() -> None:
    """§4.2.2: with more than two, turns go in strict order of total, highest first; nobody
    chooses to go first or second."""
    red = fighter("red", C, N)
    blue = fighter("blue", Hex(0, -3), S)
    green = fighter("green", Hex(3, 0), NW)
    st = state_of([red, blue, green])
    dice = ScriptedDice([(INIT, 1), (INIT, 6), (INIT, 3)])
    step(st, dice, {"red": "ST", "blue": "ST", "green": "ST"})
    dice.assert_exhausted()
    assert st.order == ["blue", "green", "red"]
    assert st.phase == "act" and list(RULES.pending(st)) == ["blue"]
    trace: list[tuple[str, str, list[str]]] = []
    st = state_of([fighter(s, f.hex, f.facing) for s, f in st.fighters.items()])
    dice = ScriptedDice([(INIT, 1), (INIT, 6), (INIT, 3)])
    run_turn(st, dice, {"red": "ST", "blue": "ST", "green": "ST"}, trace=trace)
    assert "first" not in [p for p, _, _ in trace]
    assert [s for p, s, _ in trace if p == "act"] == ["blue", "green", "red"]


# -- §4.3.2 movement -------------------------------------------------------------------------------
def test_s4_3_2_a_step_picks_a_free_hex_of_its_zone_and_keeps_the_facing() -> None:
    """§4.3.2, §2.5.3: a step goes into any free hex of its move zone (A B C E F G), chosen by
    the mover (PickHex); an occupied hex is not offered; the facing is kept during the move."""
    red = fighter("red", C, N)
    blue = fighter("blue", FRONT, S)  # occupies red's zone A
    st = state_of([red, blue])
    dice = ScriptedDice([(INIT, 6), (INIT, 1)])
    trace: list[tuple[str, str, list[str]]] = []
    events = run_turn(st, dice, {"red": "SP", "blue": "ST"}, hexes={"red": Hex(1, 0)}, trace=trace)
    dice.assert_exhausted()
    hex_steps = [(s, o) for p, s, o in trace if p == "hex"]
    assert hex_steps == [("red", ["1,-1", "-1,0", "1,0", "0,1", "-1,1"])]
    assert st.fighters["red"].hex == Hex(1, 0) and st.fighters["red"].facing == N
    assert of_type(events, "move")[0]["to"] == [1, 0]


def test_s4_3_2_the_step_decision_is_a_pickhex() -> None:
    """§4.3.2: the hex decision is a PickHex of the free hexes of the zone."""
    st = state_of([fighter("red", C, N), fighter("blue", Hex(0, -4), S)])
    dice = ScriptedDice([(INIT, 6), (INIT, 1)])
    step(st, dice, {"red": "SP", "blue": "ST"})
    step(st, dice, {"red": "FIRST"})
    step(st, dice, {"red": "SP"})
    decision = RULES.pending(st)["red"]
    assert isinstance(decision, PickHex) and len(decision.hexes) == 6
    assert set(decision.hexes) == {combat.zone_hex(st.fighters["red"], z) for z in "ABCEFG"}


@pytest.mark.parametrize(
    ("blockers", "end"),
    [
        ([Hex(0, -4), Hex(-1, -4)], Hex(1, -5)),  # one free hex: he goes there unasked
        ([Hex(0, -4), Hex(-1, -4), Hex(1, -5)], Hex(0, -5)),  # none free: he stays
    ],
)
def test_s4_3_2_a_step_with_one_or_no_free_hex(blockers: list[Hex], end: Hex) -> None:
    """§4.3.2: in the arena's corner (0,-5) facing S only three hexes of the step's zone are in
    the arena; with one left free he steps into it without a hex decision; with all occupied
    "the gladiator stays where he is"."""
    others = [fighter(s, h, N) for s, h in zip(("blue", "green", "yellow"), blockers, strict=False)]
    st = state_of([fighter("red", Hex(0, -5), S), *others])
    dice = ScriptedDice([(INIT, 6)] + [(INIT, k) for k in range(1, len(others) + 1)])
    trace: list[tuple[str, str, list[str]]] = []
    events = run_turn(st, dice, {"red": "SP"} | {f.seat: "ST" for f in others}, trace=trace)
    dice.assert_exhausted()
    assert not [t for t in trace if t[0] == "hex"]
    assert st.fighters["red"].hex == end and st.fighters["red"].facing == S
    assert bool(of_type(events, "blocked")) is (end == Hex(0, -5))


@pytest.mark.parametrize(
    ("move", "blocker", "end"),
    [
        ("RU", None, Hex(0, -2)),
        ("RU", Hex(0, -2), Hex(0, -1)),  # far hex blocked: one hex
        ("RU", Hex(0, -1), C),  # near hex blocked: he stays
        ("RE", None, Hex(0, 2)),
        ("RE", Hex(0, 2), Hex(0, 1)),
        ("RE", Hex(0, 1), C),
    ],
)
def test_s4_3_2_rush_and_retire_two_hexes_or_one_when_the_far_is_blocked(
    move: str, blocker: Hex | None, end: Hex
) -> None:
    """§4.3.2: a rush goes two hexes straight forward, a retire two straight back; when the hex
    two away is blocked he moves one; when the next hex is occupied he stays. The facing is
    kept."""
    red = fighter("red", C, N)
    blue = fighter("blue", blocker or Hex(4, -4), SW)
    st = state_of([red, blue])
    dice = ScriptedDice([(INIT, 6), (INIT, 1)])
    events = run_turn(st, dice, {"red": move, "blue": "ST"})
    dice.assert_exhausted()
    assert st.fighters["red"].hex == end and st.fighters["red"].facing == N
    if end == C:
        assert of_type(events, "blocked") and not of_type(events, "move")


@pytest.mark.parametrize(("start", "end"), [(Hex(0, -4), Hex(0, -5)), (Hex(0, -5), Hex(0, -5))])
def test_s4_3_2_a_rush_at_the_arena_edge(start: Hex, end: Hex) -> None:
    """§4.3.2, §1.3: a hex off the arena is no hex to move into: a rush toward the wall from two
    hexes away goes one; from the edge itself he stays."""
    st = state_of([fighter("red", start, N), fighter("blue", Hex(4, 0), NW)])
    dice = ScriptedDice([(INIT, 6), (INIT, 1)])
    run_turn(st, dice, {"red": "RU", "blue": "ST"})
    dice.assert_exhausted()
    assert st.fighters["red"].hex == end and st.fighters["red"].facing == N


# -- §4.3.3 attacks --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("attack", "where"),
    [("CU", Hex(-1, 0)), ("SL", Hex(0, 1)), ("KI", Hex(1, -1)), ("SS", Hex(1, -1))],
)
def test_s4_3_3_a_out_of_the_attack_zone_is_a_miss_without_a_d20(attack: str, where: Hex) -> None:
    """§4.3.3 (a), §2.5.5: an opponent outside the attack zone cannot be struck: a miss, and no
    d20 is rolled (a cut strikes A B, a slash A B C, a kick A, a shield smash A C)."""
    blue = fighter("blue", where, facing_to(where, C))
    st = state_of([fighter("red", C, N), blue])
    dice = ScriptedDice([(INIT, 6), (INIT, 1)])
    events = run_turn(st, dice, {"red": attack, "blue": "ST"})
    dice.assert_exhausted()  # no d20
    (attack_ev,) = of_type(events, "attack")
    assert attack_ev["result"] == "out of reach" and "d20" not in attack_ev
    assert st.fighters["blue"].hp == 14 and st.fighters["blue"].stun_bank == 0


def test_s4_3_3_a_a_lunge_reaches_two_hexes_ahead() -> None:
    """§4.3.3 (a), §2.5.5: the lunge strikes zone D, two hexes ahead (LU vs ST = FS)."""
    st = state_of([fighter("red", C, N), fighter("blue", Hex(0, -2), S)])
    dice = ScriptedDice([(INIT, 6), (INIT, 1), (HIT, 1)])
    events = run_turn(st, dice, {"red": "LU", "blue": "ST"})
    dice.assert_exhausted()
    assert of_type(events, "attack")[0]["row"] == "FSP"


def test_s4_3_3_b_against_a_target_who_has_not_acted_read_his_written_move() -> None:
    """§4.3.3 (b): "Cross reference your chosen type of attack, with your opponents chosen move,
    if he has not yet moved": blue wrote parry, red slashes first: SL vs PA = DL."""
    st = engaged()
    dice = ScriptedDice([(INIT, 6), (INIT, 1), (HIT, 1)])
    events = run_turn(st, dice, {"red": "SL", "blue": "PA"}, first="FIRST")
    dice.assert_exhausted()
    (a,) = of_type(events, "attack")
    assert "SL vs PA" in a["text"] and a["row"] == "DLP"


def test_s4_3_3_b_against_a_target_who_has_acted_read_his_performed_move() -> None:
    """§4.3.3 (b): once the opponent has moved, the move he performed (initial choice or
    converted): blue wrote parry but converted to stand and acted first: SL vs ST = FM."""
    st = engaged()
    dice = ScriptedDice([(INIT, 6), (INIT, 1), (HIT, 1)])
    events = run_turn(st, dice, {"red": "SL", "blue": "PA"}, first="SECOND", perform={"blue": "ST"})
    dice.assert_exhausted()
    (a,) = of_type(events, "attack")
    assert "SL vs ST" in a["text"] and a["row"] == "FMP"


@pytest.mark.parametrize("rear", [Hex(1, 0), Hex(0, 1), Hex(-1, 1)])
def test_s4_3_3_b_s4_3_4_attacks_from_the_rear_read_the_stand_column_one_level_easier(
    rear: Hex,
) -> None:
    """§4.3.3 (b), §4.3.4: attacks from the target's rear hexes E, F, G read the stand column
    whatever he does, and are one level easier: blue shields (SL vs SH would be a miss), but
    from behind SL vs ST = FM, behind: EM."""
    blue = fighter("blue", C, N)
    red = fighter("red", rear, facing_to(rear, C))
    assert combat.zone_of(blue, rear) in ("E", "F", "G")
    st = state_of([red, blue])
    dice = ScriptedDice([(INIT, 6), (INIT, 1), (HIT, 1)])
    events = run_turn(st, dice, {"red": "SL", "blue": "SH"})
    dice.assert_exhausted()
    (a,) = of_type(events, "attack")
    assert "SL vs ST" in a["text"] and a["code"] == "EM" and a["row"] == "EMP"


def test_s4_3_3_b_a_cut_against_a_lunge_is_a_miss() -> None:
    """§4.3.3 (b), §6.13: the matrix's black square: a cut against a lunge (CU vs LU is "-") is a
    miss, with no d20."""
    assert tables().matrix.matrix["CU"]["LU"] == "-"
    st = engaged()
    # red cuts first (miss, no die); blue's lunge then reads red's performed cut: LU vs CU = FM
    dice = ScriptedDice([(INIT, 6), (INIT, 1), (HIT, 1)])
    events = run_turn(st, dice, {"red": "CU", "blue": "LU"})
    dice.assert_exhausted()
    first, second = of_type(events, "attack")
    assert first["seat"] == "red" and first["result"] == "miss" and "d20" not in first
    assert second["seat"] == "blue" and second["row"] == "FMP"


# -- §4.3.4 modifiers ------------------------------------------------------------------------------
def pair(
    attacker: dict[str, Any] | None = None,
    target: dict[str, Any] | None = None,
    *,
    behind: bool = False,
) -> tuple[Fighter, Fighter]:
    tgt = fighter("blue", C, N, **(target or {}))
    at = Hex(0, 1) if behind else FRONT
    att = fighter("red", at, facing_to(at, C), **(attacker or {}))
    return att, tgt


@pytest.mark.parametrize(
    ("code", "attacker", "target", "behind", "want"),
    [
        ("FM", {}, {}, False, "FM"),
        ("DL", {}, {"floored": True}, False, "FM"),  # the text's example (§4.3.4)
        ("FM", {}, {}, True, "EM"),  # behind
        ("EM", {"converted": True}, {}, False, "FM"),  # converted attack (§2.5.6, §9.4)
        ("FM", {}, {"entangled": True}, False, "EM"),  # target entangled (§9.4)
        ("DL", {}, {"floored": True, "entangled": True}, False, "EM"),  # accumulative
        # caps: no easier than E, no harder than D, no more severe than S, no lighter than L
        ("EM", {}, {"entangled": True}, True, "EM"),
        ("ES", {}, {"floored": True}, False, "ES"),
        ("DL", {"converted": True}, {}, False, "DL"),
        ("DL", {"wounds": 1}, {}, False, "DL"),
    ],
)
def test_s4_3_4_modifiers(
    code: str, attacker: dict[str, Any], target: dict[str, Any], behind: bool, want: str
) -> None:
    """§4.3.4, §9.4: target on the floor 1 level easier and 1 more severe (DL -> FM, the text's
    example); behind 1 easier; converted attack 1 harder; target entangled 1 easier; all
    accumulative up to the table's ends (E/D, L/S)."""
    att, tgt = pair(attacker, target, behind=behind)
    assert combat.modified_code(code, att, tgt)[0] == want


@pytest.mark.parametrize(
    ("code", "attacker", "target", "want"),
    [
        ("FM", {"nicks": 2}, {}, "FM"),  # nicks change nothing
        ("FM", {"cuts": 1}, {}, "FM"),  # the Thracian's first cut has no hit modifier
        ("FM", {"cuts": 2}, {}, "DM"),  # §6.7: 2nd cut, his attacks one level harder
        ("FM", {"wounds": 1}, {}, "DL"),  # §6.9: harder and one level of damage less
        ("FM", {"wounds": 2}, {}, "DL"),  # §6.10
        ("FM", {}, {"wounds": 1}, "FM"),
        ("FM", {}, {"wounds": 2}, "EM"),  # §6.10: attacks against him one level easier
        ("FM", {"cuts": 2}, {"wounds": 2}, "FM"),
        # §6.12: not accumulative: a cut and a wound are the wound's level, not two levels
        ("EM", {"cuts": 2, "wounds": 1}, {}, "FL"),
        ("EM", {"nicks": 2, "cuts": 2, "wounds": 2}, {}, "FL"),
    ],
)
def test_s6_7_s6_12_wound_track_modifiers_are_the_highest_box_only(
    code: str, attacker: dict[str, Any], target: dict[str, Any], want: str
) -> None:
    """§2.7.3, §6.7, §6.9, §6.10, §6.12: the wound boxes modify hitting and damage; only the
    highest level marked counts (a cut and a wound is one level harder, the wound's)."""
    att, tgt = pair(attacker, target)
    assert combat.modified_code(code, att, tgt)[0] == want


def test_s4_3_4_floored_target_end_to_end_dl_becomes_fm() -> None:
    """§4.3.4, the text's example through a turn: a slash against a floored opponent who parries
    (SL vs PA = DL) is read as FM on the result table."""
    st = engaged(blue={"floored": True})
    dice = ScriptedDice([(INIT, 6), (INIT, 1), (HIT, 1)])
    events = run_turn(st, dice, {"red": "SL", "blue": "PA"})
    dice.assert_exhausted()
    (a,) = of_type(events, "attack")
    assert "SL vs PA" in a["text"] and a["code"] == "FM" and a["row"] == "FMP"


def test_s4_3_4_converted_attack_end_to_end_one_level_harder() -> None:
    """§4.3.4, §2.5.6: red wrote a slash and converts to a cut: CU vs ST = EM, converted: FM."""
    st = engaged()
    dice = ScriptedDice([(INIT, 6), (INIT, 1), (HIT, 1)])
    events = run_turn(st, dice, {"red": "SL", "blue": "ST"}, perform={"red": "CU"})
    dice.assert_exhausted()
    (perf, _), (a,) = of_type(events, "perform"), of_type(events, "attack")
    assert perf["converted"] and perf["move"] == "CU"
    assert "CU vs ST" in a["text"] and a["code"] == "FM"


# -- §4.3.5 the result table -----------------------------------------------------------------------
def test_s4_3_5_easy_medium_protected_is_the_sixth_row_and_15_is_a_cut() -> None:
    """§4.3.5: "An easy chance, giving a medium wound, against a protected opponent is the sixth
    row down"; a 15 on the d20 gives a cut."""
    results = tables().results
    assert list(results.rows)[5] == "EMP"
    assert results.lookup("EMP", 15) == "C"
    raw = tomllib.loads((DATA / "results.toml").read_text())
    assert list(raw["rows"])[5] == "EMP"


def test_s4_3_5_the_sixth_row_end_to_end_a_15_cuts() -> None:
    """§4.3.5 through a turn: CU vs ST is EM against the protected Thracian: row EMP; the
    scripted d20 of 15 marks a cut (2 HP, a stun next turn)."""
    st = engaged()
    dice = ScriptedDice([(INIT, 4), (INIT, 4), (HIT, 15), (FALL, 1)])
    events = run_turn(st, dice, {"red": "CU", "blue": "ST"})
    dice.assert_exhausted()
    (a,) = of_type(events, "attack")
    assert (a["row"], a["d20"], a["result"]) == ("EMP", 15, "C")
    blue = st.fighters["blue"]
    assert (blue.cuts, blue.hp, blue.stunned) == (1, 12, True)


def test_s4_3_5_every_row_covers_1_to_20_with_one_result() -> None:
    """§4.3.5, §4.3.6: the 36 rows (ease x severity x protection, in that order) each give one
    result for every d20 face, from blank up through S N C W D, in order."""
    results = tables().results
    rows = [e + s + p for e in "EFD" for s in "LMS" for p in "UPAH"]
    assert list(results.rows) == rows
    order = ["blank", "S", "N", "C", "W", "D"]
    for row in rows:
        got = [results.lookup(row, d) for d in range(1, 21)]
        assert got[0] == "blank", row
        assert [order.index(r) for r in got] == sorted(order.index(r) for r in got), row
        with pytest.raises(ValueError):
            results.lookup(row, 21)


# -- §4.3.6, §5 stun -------------------------------------------------------------------------------
def test_s4_3_6_s5_1_an_s_result_stuns_for_the_next_turn() -> None:
    """§4.3.6, §5.1, §5.3: an S result stuns the target for the next turn: only stun moves may
    be written then; the turn after he is free again."""
    st = engaged()
    dice = ScriptedDice([(INIT, 6), (INIT, 1), (HIT, 6)])  # EMP: S is 5..7
    events = run_turn(st, dice, {"red": "CU", "blue": "ST"})
    assert of_type(events, "attack")[0]["result"] == "S"
    blue = st.fighters["blue"]
    assert (blue.hp, blue.nicks, blue.stunned, blue.stun_bank) == (14, 0, True, 0)
    assert set(write_options(st, "blue")) == {"PA", "SH", "ST", "RE", "SP"}
    assert not st.fighters["red"].stunned
    dice.script += [(INIT, 6), (INIT, 1)]
    run_turn(st, dice, {"red": "ST", "blue": "ST"})
    dice.assert_exhausted()
    assert not st.fighters["blue"].stunned
    assert "SL" in write_options(st, "blue")


def test_s5_2_two_stuns_in_one_turn_carry_forward() -> None:
    """§5.2: two stun results in one turn are carried forward: stunned for two turns."""
    blue = fighter("blue", C, N)
    red = fighter("red", FRONT, S)
    green = fighter("green", Hex(1, -1), facing_to(Hex(1, -1), C))  # blue's front right
    st = state_of([red, blue, green])
    # red 5+3+6, green 5+3+5, blue 5+2+1: red, green, blue; two cuts on EMP rolling S (5..7)
    dice = ScriptedDice([(INIT, 6), (INIT, 1), (INIT, 5), (HIT, 5), (HIT, 7)])
    # green's cut could also reach red (his front right): he picks blue
    events = run_turn(st, dice, {"red": "CU", "blue": "ST", "green": "CU"}, hexes={"green": C})
    dice.assert_exhausted()
    assert [a["result"] for a in of_type(events, "attack")] == ["S", "S"]
    b = st.fighters["blue"]
    assert (b.stunned, b.stun_bank) == (True, 1)
    for turn in (2, 3):
        assert st.turn == turn and b.stunned
        dice.script += [(INIT, 6), (INIT, 1), (INIT, 5)]
        run_turn(st, dice, {"red": "ST", "blue": "ST", "green": "ST"})
        dice.assert_exhausted()
    assert (st.turn, b.stunned, b.stun_bank) == (4, False, 0)


@pytest.mark.parametrize(
    ("result", "bank", "track"),
    [
        ("blank", 0, (0, 0, 0)),
        ("S", 1, (0, 0, 0)),
        ("N", 1, (1, 0, 0)),
        ("C", 1, (0, 1, 0)),
        ("W", 1, (0, 0, 1)),
    ],
)
def test_s6_2_every_wound_also_stuns(result: str, bank: int, track: tuple[int, int, int]) -> None:
    """§6.2, §4.3.6: "All wounds received automatically cause a stun result, as well as any wound
    damage": N, C and W stun as S does; a blank does nothing."""
    st = engaged(blue={"hp": 30})
    f = st.fighters["blue"]
    dice = ScriptedDice([(FALL, 1)] if result in ("C", "W") else [])
    combat.apply_result(st, f, result, dice, [])
    dice.assert_exhausted()
    assert f.stun_bank == bank and (f.nicks, f.cuts, f.wounds) == track


# -- §6 wounds, §2.7 the wound track ---------------------------------------------------------------
@pytest.mark.parametrize("sheet", ["thracian", "retiarius"])
def test_s6_3_s6_10_the_wound_track_costs_and_initiatives_of_the_sheet(sheet: str) -> None:
    """§2.7.1, §2.7.2, §6.3–§6.10: marking nick, nick, cut, cut, wound, wound in turn costs the
    HP of each box of the sheet's wound track, and the basic initiative becomes the lowest one
    marked (read from the sheet file itself)."""
    raw = sheet_toml(sheet)
    track = raw["wound_track"]
    assert [b["box"] for b in track] == ["nick", "nick", "cut", "cut", "wound", "wound"]
    f = fighter("red", C, N, sheet, hp=40)
    hp = 40
    for i, box in enumerate(track):
        dice = ScriptedDice([(FALL, 1)] if box.get("fall", 0) else [])
        combat.mark(f, box["box"], dice, [])
        dice.assert_exhausted()
        hp -= box["hp"]
        assert f.hp == hp, (i, box)
        lowest = min([raw["basic_initiative"], *(b["initiative"] for b in track[: i + 1])])
        assert combat.basic_initiative(f) == lowest
        assert combat.level(f) == tables().sheets[sheet].wound_track[i]
    assert (f.nicks, f.cuts, f.wounds, f.alive) == (2, 2, 2, True)


def test_s6_3_s6_10_thracian_values() -> None:
    """§6.3–§6.10 on the Thracian sheet: nicks 1 HP each, cuts 2, wounds 4; initiative 5, 4,
    3, 3, 2, 1; the 2nd cut 1 harder; the wounds also 1 less severe; the 2nd 1 easier to hit."""
    track = tables().sheets["thracian"].wound_track
    assert [b.hp for b in track] == [1, 1, 2, 2, 4, 4]
    assert [b.initiative for b in track] == [5, 4, 3, 3, 2, 1]
    assert [b.hit for b in track] == [0, 0, 0, 1, 1, 1]
    assert [b.damage for b in track] == [0, 0, 0, 0, 1, 1]
    assert [b.against for b in track] == [0, 0, 0, 0, 0, 1]
    assert [b.bleeding for b in track] == [False] * 5 + [True]
    assert track[3].fall == 2  # §7.1: the second cut falls on 2/6


def test_s2_7_2_basic_initiative_is_the_lowest_marked() -> None:
    """§2.7.2: "The gladiators basic initiative is always the lowest one marked on the wound
    table" (a cut without nicks: 3; nicks only: 4)."""
    assert combat.basic_initiative(fighter("r", C, N)) == 5
    assert combat.basic_initiative(fighter("r", C, N, nicks=1)) == 5
    assert combat.basic_initiative(fighter("r", C, N, nicks=2)) == 4
    assert combat.basic_initiative(fighter("r", C, N, cuts=1)) == 3
    assert combat.basic_initiative(fighter("r", C, N, nicks=2, cuts=2, wounds=2)) == 1


def test_s2_7_5_s6_5_a_third_nick_marks_a_cut() -> None:
    """§2.7.5, §6.5: a third nick marks one cut level (and costs the cut box's HP)."""
    f = fighter("red", C, N, hp=20, nicks=2)
    dice = ScriptedDice([(FALL, 1)])  # the first cut's fall chance
    events: list[dict[str, Any]] = []
    combat.mark(f, "nick", dice, events)
    dice.assert_exhausted()
    assert (f.nicks, f.cuts, f.wounds, f.hp) == (2, 1, 0, 18)
    assert any("third nick marks a cut" in e["text"] for e in events)


def test_s2_7_5_s6_8_a_third_cut_marks_a_wound() -> None:
    """§2.7.5, §6.8: a third cut marks one wound level."""
    f = fighter("red", C, N, hp=20, cuts=2)
    dice = ScriptedDice([(FALL, 1)])
    combat.mark(f, "cut", dice, [])
    dice.assert_exhausted()
    assert (f.nicks, f.cuts, f.wounds, f.hp) == (0, 2, 1, 16)


def test_s2_7_5_two_of_each_is_finished_by_a_nick() -> None:
    """§2.7.5: "a gladiator with 2 nicks, 2 cuts, and 2 wounds [can] be finished off by another
    nick": the nick marks a cut, the cut a wound, the third wound kills (§6.11)."""
    f = fighter("red", C, N, hp=20, nicks=2, cuts=2, wounds=2)
    dice = ScriptedDice([])
    combat.mark(f, "nick", dice, [])
    dice.assert_exhausted()
    assert not f.alive and "third wound" in f.cause
    assert f.hp == 20  # killed by the track, not by hit points


def test_s6_11_death_by_a_d_result_and_s10_the_last_alive_wins() -> None:
    """§6.11, §4.3.6, §10: a D result kills whatever the hit points; the last alive wins. A lunge
    against a slash is ES (row ESP: 20 is D)."""
    st = engaged()
    dice = ScriptedDice([(INIT, 6), (INIT, 1), (HIT, 20)])
    events = run_turn(st, dice, {"red": "LU", "blue": "SL"})
    dice.assert_exhausted()
    blue = st.fighters["blue"]
    assert of_type(events, "attack")[0]["row"] == "ESP"
    assert not blue.alive and blue.hp == 14 and "D result" in blue.cause
    assert st.phase == "over" and st.winners == ("red",)
    assert RULES.outcome(st) is not None and RULES.outcome(st).winners == ("red",)
    assert RULES.pending(st) == {}
    # blue died before his turn: he never performed his slash
    assert [e["seat"] for e in of_type(events, "perform")] == ["red"]


def test_s6_11_death_by_a_third_wound() -> None:
    """§6.11: three wounds kill (through the result table: a W on a gladiator with two)."""
    f = fighter("red", C, N, hp=30, wounds=2)
    st = state_of([f, fighter("blue", FRONT, S)])
    combat.apply_result(st, f, "W", ScriptedDice([]), [])
    assert not f.alive and "third wound" in f.cause and f.wounds == 2


def test_s6_11_death_at_no_hit_points() -> None:
    """§2.6, §6.11: "When a gladiator has zero hit points left he is dead": a nick at 1 HP."""
    f = fighter("red", C, N, hp=1, max_hp=12)
    st = state_of([f, fighter("blue", FRONT, S)])
    combat.apply_result(st, f, "N", ScriptedDice([]), [])
    assert not f.alive and f.hp == 0 and "no hit points" in f.cause


def test_s2_7_4_s6_10_two_wounds_bleed_for_a_non_stun_move() -> None:
    """§2.7.4, §6.10: with two wounds he loses one hit point every turn he writes a non-stun move;
    a stun move costs nothing; one wound does not bleed."""

    def turn(wounds: int, written: str) -> tuple[int, list[dict[str, Any]]]:
        st = state_of([fighter("red", C, N), fighter("blue", Hex(0, -3), S, hp=10, wounds=wounds)])
        dice = ScriptedDice([(INIT, 6), (INIT, 1)])
        events = run_turn(st, dice, {"red": "ST", "blue": written})
        dice.assert_exhausted()
        return st.fighters["blue"].hp, events

    hp, events = turn(2, "SL")
    assert hp == 9 and len(of_type(events, "bleed")) == 1
    assert turn(2, "ST")[0] == 10
    assert turn(2, "PA")[0] == 10
    assert turn(1, "SL")[0] == 10


def test_s2_7_4_bleeding_to_death_ends_the_match() -> None:
    """§2.7.4, §6.11, §10: bleeding the last hit point kills; he bleeds when he performs the
    non-stun move he wrote (SR6), so his choice stays secret until then."""
    st = state_of([fighter("red", C, N), fighter("blue", Hex(0, -3), S, hp=1, wounds=2)])
    dice = ScriptedDice([(INIT, 6), (INIT, 1)])
    step(st, dice, {"red": "ST", "blue": "RU"})
    assert st.fighters["blue"].hp == 1  # nothing shows before he acts
    step(st, dice, {"red": "FIRST"})
    step(st, dice, {"red": "ST"})
    step(st, dice, {"red": "KEEP"})
    step(st, dice, {"blue": "RU"})
    dice.assert_exhausted()
    assert not st.fighters["blue"].alive and st.phase == "over" and st.winners == ("red",)


# -- §7 falling over -------------------------------------------------------------------------------
@pytest.mark.parametrize(("face", "falls"), [(5, True), (6, True), (4, False), (1, False)])
def test_s7_1_the_second_cut_falls_on_five_or_six(face: int, falls: bool) -> None:
    """§7.1: "The chance of falling on receiving your second cut is 2/6. If the gladiator rolls a
    five or six on a six sided dice, over he goes." (through a turn: CU vs ST, d20 15: C)."""
    st = engaged(blue={"cuts": 1, "hp": 16})
    dice = ScriptedDice([(INIT, 6), (INIT, 1), (HIT, 15), (FALL, face)])
    # SR10: once down, blue may no longer stand; he parries from the floor instead.
    run_turn(st, dice, {"red": "CU", "blue": "ST"}, perform={"blue": "PA"} if falls else None)
    dice.assert_exhausted()
    assert st.fighters["blue"].cuts == 2 and st.fighters["blue"].floored is falls


@pytest.mark.parametrize("sheet", ["thracian", "retiarius"])
def test_s7_1_the_fall_chance_of_each_box(sheet: str) -> None:
    """§7.1: on marking a box, he falls on 1D6 >= 7 - (its chance out of six); boxes with no
    chance (the nicks) throw no die; a floored gladiator throws none."""
    track = tables().sheets[sheet].wound_track
    start = {0: {}, 1: {"nicks": 1}, 2: {}, 3: {"cuts": 1}, 4: {}, 5: {"wounds": 1}}
    for i, box in enumerate(track):
        for face in range(1, 7):
            f = fighter("red", C, N, sheet, hp=40, **start[i])
            dice = ScriptedDice([(FALL, face)] if box.fall else [])
            combat.mark(f, box.box, dice, [])
            dice.assert_exhausted()
            assert f.floored is (box.fall > 0 and face >= 7 - box.fall), (i, face)
        f = fighter("red", C, N, sheet, hp=40, floored=True, **start[i])
        combat.mark(f, box.box, ScriptedDice([]), [])
    assert [b.fall for b in tables().sheets["thracian"].wound_track] == [0, 0, 1, 2, 3, 4]


@pytest.mark.parametrize(
    ("sheet", "want"), [("thracian", ["GU", "PA", "SH", "KI"]), ("retiarius", ["KI", "PA", "GU"])]
)
def test_s7_2_floored_only_get_up_parry_shield_kick(sheet: str, want: list[str]) -> None:
    """§7.2: "The only options for floored gladiators are :- Get up, Parry, Shield, or kick" (the
    Retiarius has no shield); Get up is offered only on the floor."""
    st = engaged(red_sheet=sheet, red={"floored": True})
    assert sorted(write_options(st, "red")) == sorted(want)
    assert "GU" not in write_options(st, "blue")
    with pytest.raises(IllegalOrder):
        RULES.pending(st)["red"].validate("ST")


def test_s7_2_getting_up() -> None:
    """§7.2: Get up puts him on his feet (and he may then turn, Get up allows three edges)."""
    st = state_of([fighter("red", C, N, floored=True), fighter("blue", Hex(0, -3), S)])
    dice = ScriptedDice([(INIT, 1), (INIT, 6)])
    trace: list[tuple[str, str, list[str]]] = []
    run_turn(st, dice, {"red": "GU", "blue": "ST"}, facing={"red": "RR"}, trace=trace)
    dice.assert_exhausted()
    red = st.fighters["red"]
    assert not red.floored and red.facing == SE
    assert ("facing", "red", ["KEEP", "R", "L", "RR", "LL", "RRR"]) in trace


def test_s7_3_a_floored_kick_reaches_any_adjacent_hex_and_he_cannot_turn() -> None:
    """§7.3: on the floor there is no front or rear: the kick can go into any adjacent hex (here
    behind him); no facing change is offered while he is floored."""
    red = fighter("red", C, N, floored=True)
    kick = tables().sheets["thracian"].move("KI")
    probe = state_of([red, fighter("blue", Hex(9, 9), N)])
    for h in [Hex(0, -1), Hex(1, -1), Hex(1, 0), Hex(0, 1), Hex(-1, 1), Hex(-1, 0)]:
        probe.fighters["blue"].hex = h
        assert [o.seat for o in engine.attack_targets(probe, red, kick)] == ["blue"]
    red.floored = False
    probe.fighters["blue"].hex = Hex(0, 1)
    assert engine.attack_targets(probe, red, kick) == []

    st = state_of([fighter("red", C, N, floored=True), fighter("blue", Hex(0, 1), N)])
    dice = ScriptedDice([(INIT, 6), (INIT, 1), (HIT, 1)])
    trace: list[tuple[str, str, list[str]]] = []
    events = run_turn(st, dice, {"red": "KI", "blue": "ST"}, trace=trace)
    dice.assert_exhausted()
    (a,) = of_type(events, "attack")
    assert a["seat"] == "red" and a["target"] == "blue" and "KI vs ST" in a["text"]
    assert not [t for t in trace if t[0] == "facing" and t[1] == "red"]
    assert st.fighters["red"].facing == N
    assert engine.facing_options(st, fighter("x", C, N, floored=True, performed="PA")) == ["KEEP"]


# -- §8 facing -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("code", "want"),
    [
        ("LU", ["KEEP"]),
        ("ST", ["KEEP", "R", "L", "RR", "LL"]),
        ("SS", ["KEEP", "L"]),
        ("CU", ["KEEP", "R"]),
        ("SL", ["KEEP", "R", "L"]),
        ("GU", ["KEEP", "R", "L", "RR", "LL", "RRR"]),  # three either way: RRR == LLL
    ],
)
def test_s8_s2_5_4_facing_changes_after_the_move(code: str, want: list[str]) -> None:
    """§8, §2.5.4: after his move he may turn as many hex edges as the F column allows, in the
    listed direction only where one is listed (lunge none, stand two either way, shield smash one
    to the left, cut one to the right); keeping the facing is always allowed."""
    f = fighter("red", C, N, performed=code)
    st = state_of([f, fighter("blue", Hex(0, -3), S)])
    assert engine.facing_options(st, f) == want


def test_s8_facing_is_optional_and_taken_at_the_end_of_the_turn() -> None:
    """§8: the facing change comes after the move, is optional (KEEP) and can be any allowed
    one; a cut may not turn left; a lunge offers no facing decision at all."""
    st = state_of([fighter("red", C, N), fighter("blue", Hex(0, -3), S)])
    dice = ScriptedDice([(INIT, 6), (INIT, 1)])
    trace: list[tuple[str, str, list[str]]] = []
    run_turn(st, dice, {"red": "CU", "blue": "LU"}, facing={"red": "R"}, trace=trace)
    dice.assert_exhausted()
    assert st.fighters["red"].facing == NE and st.fighters["blue"].facing == S
    assert ("facing", "red", ["KEEP", "R"]) in trace
    assert not [t for t in trace if t[0] == "facing" and t[1] == "blue"]
    st = state_of([fighter("red", C, N), fighter("blue", Hex(0, -3), S)])
    dice = ScriptedDice([(INIT, 6), (INIT, 1)])
    with pytest.raises(IllegalOrder):
        run_turn(st, dice, {"red": "CU", "blue": "LU"}, facing={"red": "L"})


# -- §10 to win ------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_s10_free_for_all_of_three_ends_with_one_winner(seed: int) -> None:
    """§10, §4.2.2: a free-for-all of three is fought until one alone is alive."""
    m = Match(
        get("skirmish"),
        {"gladiators": ["thracian", "retiarius", "thracian"], "arena_side": 4, "max_turns": 10_000},
        seed=seed,
        nonce="",
    )
    rng = random.Random(seed)
    pick = POLICIES["aggressive"]
    while not m.finished:
        assert len(m.steps) < 50_000
        for seat, decision in list(m.pending().items()):
            m.submit(seat, pick(m, seat, decision, rng))
    outcome = m.outcome
    assert outcome is not None and len(outcome.winners) == 1
    alive = [f.seat for f in m.state.fighters.values() if f.alive]
    assert list(outcome.winners) == alive


def test_s10_a_draw_after_max_turns() -> None:
    """SR9 with §10: with nobody dead after max_turns the match stops as a draw."""
    m = Match(get("skirmish"), {"max_turns": 2}, seed=5, nonce="")
    while not m.finished:
        m.apply_step(
            {s: "ST" if m.state.phase == "write" else legal(d)[0] for s, d in m.pending().items()}
        )
    assert m.outcome is not None and m.outcome.winners == () and m.outcome.method == "time"
    assert m.state.turn == 3


# -- the Retiarius sheet and the net (designed) ----------------------------------------------------
@pytest.mark.parametrize(("target_move", "ease"), [("ST", "E"), ("PA", "F"), ("SS", "D")])
@pytest.mark.parametrize("miss", [False, True])
def test_net_a_cast_entangles_at_or_below_entangle_on(
    target_move: str, ease: str, miss: bool
) -> None:
    """The net (matrix.toml [net]): a cast the matrix lets through entangles the target when the
    d20 is at or below entangle_on for the (modified) ease: CN vs ST = EL (14), CN vs PA = FL
    (10), CN vs SS = DL (6); above it the net falls in the target's hex. Either way it has left
    the Retiarius's hand."""
    need = tables().matrix.net.entangle_on[ease]
    st = engaged(red_sheet="retiarius")
    dice = ScriptedDice([(INIT, 6), (INIT, 1), (NET, need + 1 if miss else need)])
    # blue then parries rather than smash back (a shield smash converts to parry, §2.5.6)
    events = run_turn(
        st,
        dice,
        {"red": "CN", "blue": target_move},
        perform={"blue": "PA"} if target_move == "SS" else None,
    )
    dice.assert_exhausted()
    (net,) = of_type(events, "net")
    assert f"→ {ease}" in net["text"]
    red, blue = st.fighters["red"], st.fighters["blue"]
    assert not red.has_net
    if miss:
        assert not blue.entangled and st.nets == [FRONT] and net["result"] == "miss"
    else:
        assert blue.entangled and st.nets == [] and net["result"] == "entangled"
    assert not of_type(events, "wound") and blue.stun_bank == 0


def test_net_a_cast_out_of_reach_lands_in_front() -> None:
    """The net, §4.3.3 (a): a cast with nobody in reach misses without a die; the net lies in the
    hex in front of the Retiarius."""
    st = state_of([fighter("red", C, N, "retiarius"), fighter("blue", Hex(0, -4), S)])
    dice = ScriptedDice([(INIT, 6), (INIT, 1)])
    run_turn(st, dice, {"red": "CN", "blue": "ST"})
    dice.assert_exhausted()
    assert st.nets == [FRONT] and not st.fighters["red"].has_net
    assert "CN" not in write_options(st, "red")  # no net, no cast


@pytest.mark.parametrize(("net", "reach"), [(C, True), (Hex(1, 0), True), (Hex(0, -2), False)])
def test_net_s2_8_reclaim_from_own_or_adjacent_hex(net: Hex, reach: bool) -> None:
    """The net, §2.8: Reclaim net picks up a net lying in his own or an adjacent hex (and the
    "net reclaimed" box is marked); a net farther off cannot be reclaimed."""
    red = fighter("red", C, N, "retiarius", has_net=False)
    st = state_of([red, fighter("blue", Hex(3, -3), SW)])
    st.nets = [net]
    assert ("RN" in write_options(st, "red")) is reach
    if not reach:
        return
    dice = ScriptedDice([(INIT, 6), (INIT, 1)])
    run_turn(st, dice, {"red": "RN", "blue": "ST"})
    dice.assert_exhausted()
    assert st.nets == [] and red.has_net and red.nets_reclaimed == 1
    assert "CN" in write_options(st, "red")


@pytest.mark.parametrize("sheet", ["thracian", "retiarius"])
def test_net_an_entangled_gladiator_may_only_struggle_parry_stand_or_kick(sheet: str) -> None:
    """The net: "An entangled gladiator may only struggle, parry, stand or kick"."""
    st = engaged(red_sheet=sheet, red={"entangled": True})
    assert sorted(write_options(st, "red")) == sorted(tables().matrix.net.entangled_moves)
    assert sorted(tables().matrix.net.entangled_moves) == ["KI", "PA", "SG", "ST"]
    assert "SG" not in write_options(st, "blue")
    with pytest.raises(IllegalOrder):
        RULES.pending(st)["red"].validate("SL")


@pytest.mark.parametrize(("face", "free"), [(5, True), (6, True), (4, False), (1, False)])
def test_net_a_struggle_frees_on_five_or_more(face: int, free: bool) -> None:
    """The net: a struggle frees him on 1D6 at or above struggle_free_on (5); the net then lies
    in his hex."""
    assert tables().matrix.net.struggle_free_on == 5
    st = state_of(
        [
            fighter("red", C, N, entangled=True),
            fighter("blue", Hex(0, -3), S, "retiarius", has_net=False),
        ]
    )
    dice = ScriptedDice([(INIT, 6), (INIT, 1), (NET, face)])
    run_turn(st, dice, {"red": "SG", "blue": "ST"})
    dice.assert_exhausted()
    assert st.fighters["red"].entangled is not free
    assert st.nets == ([C] if free else [])


def test_net_a_cast_out_of_reach_at_the_wall_stays_in_the_arena() -> None:
    """The net, §1.3: a Retiarius at the edge facing the wall casts at nobody: the net falls, but
    inside the arena (the arena's hexes are the only ones in play)."""
    st = state_of([fighter("red", Hex(0, -5), N, "retiarius"), fighter("blue", C, N)])
    dice = ScriptedDice([(INIT, 6), (INIT, 1)])
    run_turn(st, dice, {"red": "CN", "blue": "ST"})
    dice.assert_exhausted()
    assert len(st.nets) == 1 and not st.fighters["red"].has_net
    assert all(h in engine.arena_of(st) for h in st.nets), st.nets


def test_net_a_second_net_on_an_entangled_gladiator_is_not_lost() -> None:
    """The net: every net cast is somewhere afterwards: in a hand, on the floor, or on an
    entangled gladiator. Green casts at red, already in blue's net (CN vs PA lets it through);
    when red struggles free both nets must lie on the floor (or the second never caught him
    and lies there already)."""
    red = fighter("red", C, N, entangled=True)
    blue = fighter("blue", Hex(0, -3), S, "retiarius", has_net=False)  # his net is on red
    green = fighter("green", FRONT, S, "retiarius")
    st = state_of([red, blue, green])
    faces = {"red's initiative": 1, "blue's initiative": 2, "green's initiative": 6}
    dice = PurposeDice({**faces, "net at": 1, "struggles": 5})
    run_turn(st, dice, {"red": "PA", "blue": "ST", "green": "CN"})
    assert not st.fighters["green"].has_net
    run_turn(st, dice, {"red": "SG", "blue": "ST", "green": "ST"})
    assert not st.fighters["red"].entangled
    nets = len(st.nets) + sum(f.has_net for f in st.fighters.values())
    assert nets == 2, st.nets


def test_net_an_entangled_target_is_one_level_easier_to_hit() -> None:
    """§9.4: target entangled, 1 attack level easier (through a turn: SL vs ST = FM -> EM)."""
    st = engaged(blue={"entangled": True})
    dice = ScriptedDice([(INIT, 6), (INIT, 1), (HIT, 1)])
    events = run_turn(st, dice, {"red": "SL", "blue": "ST"})
    dice.assert_exhausted()
    assert of_type(events, "attack")[0]["code"] == "EM"


# -- checked apply (Match) -------------------------------------------------------------------------
def test_checked_apply_an_illegal_order_raises_listing_the_legal_and_changes_nothing() -> None:
    """Through Match: an illegal order (a move not on the sheet, a barred one, nonsense) raises
    IllegalOrder listing the legal orders; the state, its hash, the steps and the dice are as
    they were."""
    m = Match(get("skirmish"), {"start": "engaged"}, seed=0, nonce="")
    rules = m.ruleset
    legal_now = legal(m.pending()["red"])
    assert legal_now == [c for c in THRACIAN_MOVES if c != "GU"]
    h, rolls = rules.state_hash(m.state), len(m.rolls)
    for bad in ("ZZ", "GU", "TH", "CN", "SL PA", ""):
        with pytest.raises(IllegalOrder) as info:
            m.submit("red", bad)
        assert isinstance(info.value, ValueError)
        assert info.value.legal == tuple(legal_now)
        assert all(t in str(info.value) for t in legal_now)
        with pytest.raises(IllegalOrder):
            m.apply_step({"red": bad, "blue": "ST"})
    assert rules.state_hash(m.state) == h and len(m.rolls) == rolls and m.steps == []
    assert m.waiting_for() == ["red", "blue"]
    # a barred move next turn (§2.5.7) is illegal in the same way
    m.apply_step({"red": "PA", "blue": "ST"})
    while m.state.phase != "write":
        m.apply_step({s: legal(d)[0] for s, d in m.pending().items()})
    h = rules.state_hash(m.state)
    with pytest.raises(IllegalOrder) as info:
        m.submit("red", "SL")
    assert "SL" not in info.value.legal and "CU" not in info.value.legal
    assert rules.state_hash(m.state) == h


def test_checked_apply_not_your_turn() -> None:
    """Through Match: a seat with nothing to decide is refused with NotYourTurn."""
    m = Match(get("skirmish"), {"start": "engaged"}, seed=0, nonce="")
    m.apply_step({"red": "ST", "blue": "ST"})
    chooser = m.state.chooser
    other = next(s for s in m.seats if s != chooser)
    h = m.ruleset.state_hash(m.state)
    with pytest.raises(NotYourTurn):
        m.submit(other, "FIRST")
    with pytest.raises(NotYourTurn):
        m.apply_step({other: "FIRST"})
    assert m.ruleset.state_hash(m.state) == h


# -- secrecy of the written move (§4.1) ------------------------------------------------------------
def test_s4_1_a_written_move_is_hidden_until_performed() -> None:
    """§4.1: the written move is secret: the other seat's view and the spectator's show it as
    None until it is performed; the writer sees his own."""
    st = state_of([fighter("red", C, N), fighter("blue", Hex(0, -3), S)])
    dice = ScriptedDice([(INIT, 6), (INIT, 1)])
    step(st, dice, {"red": "RU", "blue": "PA"})
    step(st, dice, {"red": "SECOND"})  # blue acts first

    def written(seat: str | None, of: str) -> Any:
        v = RULES.view(st, seat)
        return next(f for f in v["fighters"] if f["seat"] == of)["written"]

    assert written("red", "red") == "RU" and written("blue", "blue") == "PA"
    assert written("blue", "red") is None and written(None, "red") is None
    assert written("red", "blue") is None and written(None, "blue") is None
    step(st, dice, {"blue": "PA"})
    assert written("red", "blue") == "PA" and written(None, "blue") == "PA"
    assert written("blue", "red") is None


def test_s4_3_3_b_a_written_move_read_against_an_attack_is_revealed() -> None:
    """§4.3.3 (b): an attack on a gladiator who has not acted reads his written move, which is
    then known to all."""
    st = engaged()
    dice = ScriptedDice([(INIT, 6), (INIT, 1), (HIT, 1)])
    step(st, dice, {"red": "SL", "blue": "PA"})
    step(st, dice, {"red": "FIRST"})
    step(st, dice, {"red": "SL"})
    assert (
        next(f for f in RULES.view(st, "red")["fighters"] if f["seat"] == "blue")["written"] == "PA"
    )
    dice.assert_exhausted()


def test_s4_3_3_b_a_rear_attack_does_not_reveal_the_written_move() -> None:
    """§4.1, §4.3.3 (b): an attack from the rear hexes (E F G) is cross-referenced against the
    stand column "irrespective of their actual move": the target's written move is not read, so
    it stays secret until he performs it."""
    blue = fighter("blue", C, N)
    red = fighter("red", Hex(0, 1), N)  # blue's zone F, facing him
    st = state_of([red, blue])
    dice = ScriptedDice([(INIT, 6), (INIT, 1), (HIT, 1)])
    step(st, dice, {"red": "SL", "blue": "PA"})
    step(st, dice, {"red": "FIRST"})
    step(st, dice, {"red": "SL"})
    dice.assert_exhausted()
    assert st.phase == "facing" and st.fighters["blue"].performed == ""  # blue has not acted
    for seat in ("red", None):
        shown = next(f for f in RULES.view(st, seat)["fighters"] if f["seat"] == "blue")
        assert shown["written"] is None, seat


# -- the state invariants hold in hand-built play too ----------------------------------------------
def test_allowed_codes_helper_agrees_with_the_write_decision() -> None:
    """(Helper check) the sets used by the property tests agree with the engine on the simple
    cases: standing, stunned, floored, entangled."""
    for kw in ({}, {"stunned": True}, {"floored": True}, {"entangled": True}):
        st = engaged(red=dict(kw))
        red = st.fighters["red"]
        assert set(write_options(st, "red")) <= allowed_codes(st, red), kw


def test_s4_3_5_the_result_table_is_monotone() -> None:
    """§4.3.5 (designed): for every d20 roll, an easier or more severe code never gives a lesser
    result, and more protection never a greater one."""
    from gladiator.rules.skirmish.tables import RESULTS

    res = tables().results
    rank = {r: i for i, r in enumerate(RESULTS)}

    def at(e: str, s: str, p: str, roll: int) -> int:
        return rank[res.lookup(e + s + p, roll)]

    for roll in range(1, 21):
        for p in "UPAH":
            for s in "LMS":
                seq = [at(e, s, p, roll) for e in "DFE"]
                assert seq == sorted(seq), ("ease", roll, s, p)
            for e in "EFD":
                seq = [at(e, s, p, roll) for s in "LMS"]
                assert seq == sorted(seq), ("severity", roll, e, p)
        for e in "EFD":
            for s in "LMS":
                seq = [at(e, s, p, roll) for p in "HAPU"]
                assert seq == sorted(seq), ("protection", roll, e, s)


def test_sr2_the_greedy_bot_does_not_read_a_hidden_written_move() -> None:
    """§4.1, SR2: a look-ahead bot searches a copy in which the other seat's unrevealed written
    move is drawn afresh, so its choice cannot depend on what the other man really wrote."""
    import random as _random

    from gladiator.bots.greedy import GreedyBot

    def choices(red_wrote: str) -> list[str]:
        out = []
        for k in range(12):
            st = engaged()
            dice = ScriptedDice([(INIT, 1), (INIT, 6)])  # blue wins and acts first
            step(st, dice, {"red": red_wrote, "blue": "SL"})
            step(st, dice, {"blue": "FIRST"})
            decision = RULES.pending(st)["blue"]
            out.append(GreedyBot(samples=2).choose(RULES, st, "blue", decision, _random.Random(k)))
        return out

    assert choices("PA") == choices("KI") == choices("RE")
