"""The quick rules, section by section (docs/rules/quick.md §1–§10, rulings QR1–QR12).

Most tests build a position by hand and script the dice (`ScriptedDice`), then call the engine
(`combat.strike`, `combat.cast_net`, `engine._start_turn`, `engine.legal_actions`,
`QuickRules().apply`). The scripted dice check that each die is thrown for the rule that calls for
it, and every test checks that no scripted die is left over, so a die thrown that the rule does not
call for (a save after a double, say) fails the test.

Geometry used throughout (flat-top axial hexes, directions clockwise from N):
N (0,-1), NE (1,-1), SE (1,0), S (0,1), SW (-1,1), NW (-1,0). A figure at (0,0) facing N has its
front at (0,-1), its sword side (right-front) at (1,-1), its shield side (left-front) at (-1,0),
and its back at (1,0), (0,1), (-1,1).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from gladiator.core import hexgrid as hg
from gladiator.core.decisions import ChooseOne, IllegalOrder
from gladiator.core.hexgrid import Hex, Relation
from gladiator.core.match import Match, NotYourTurn
from gladiator.registry import get
from gladiator.rules.quick import combat, engine
from gladiator.rules.quick.engine import QuickRules, arena_of, legal_actions
from gladiator.rules.quick.state import Fighter, QuickState
from quick_helpers import (
    AP,
    CLASS,
    CROWD,
    NET,
    ORDER,
    SAVE,
    STRENGTH,
    STRIKE,
    WHO_BREAKS,
    ScriptedDice,
    aggressive,
    attacker_at,
    check_invariants,
    fighter,
    state_of,
    texts,
    views_without,
)

C = Hex(0, 0)
N, NE, SE, S, SW, NW = 0, 1, 2, 3, 4, 5
FRONT_OF_C = Hex(0, -1)
RULES = QuickRules()


def orders(state: QuickState, seat: str | None = None) -> list[str]:
    return [o.text for o in legal_actions(state, seat or state.active)]


def strike(att: Fighter, dfn: Fighter, script: list[Any], *others: Fighter, **opts: Any):
    """Resolve one strike in a position holding `att`, `dfn` (and `others`); all dice used."""
    st = state_of([att, dfn, *others], active=att.seat, **opts)
    dice = ScriptedDice(list(script))
    events: list[dict[str, Any]] = []
    combat.strike(st, st.fighters[att.seat], st.fighters[dfn.seat], dice, events)
    dice.assert_exhausted()
    return st, events


def duel(red_cls: str = "medium", blue_cls: str = "light", **kw: Any) -> tuple[Fighter, Fighter]:
    """Blue at C facing N; red directly in front of him, facing him (blue is in red's front)."""
    blue = fighter("blue", blue_cls, C, N, **kw)
    red = attacker_at(blue, Relation.FRONT, "red", red_cls)
    return red, blue


# -- §3 strength, QR11 class, QR1 arena, QR2 order -----------------------------------------------
def test_s3_1_strength_is_the_2d6_total_of_the_dice() -> None:
    """§3.1: each gladiator's strength (and maximum) is the total of 2D6 thrown for it."""
    dice = ScriptedDice(
        [
            (STRENGTH, (5, 6)),
            (STRENGTH, (1, 1)),
            (ORDER, 3),
            (ORDER, 5),
            (AP, 4),
        ]
    )
    st, events = RULES.initial_state(
        RULES.normalise_options({"gladiators": ["heavy", "light"]}), dice
    )
    dice.assert_exhausted()
    assert (st.fighters["red"].strength, st.fighters["red"].max_strength) == (11, 11)
    assert (st.fighters["blue"].strength, st.fighters["blue"].max_strength) == (2, 2)
    assert [e["strength"] for e in events if e["type"] == "gladiator"] == [11, 2]
    # QR2: blue rolled 5 against red's 3, so blue moves first; light: 4 + 1 = 5 AP (§5.3.2).
    assert st.order == ["blue", "red"] and st.active == "blue" and st.ap == 5


def test_s3_1_strength_ranges_2_to_12_and_equals_the_recorded_2d6() -> None:
    """§3.1: over many seeded matches every strength is in 2..12 and is its 2D6 roll's total."""
    seen = set()
    for seed in range(60):
        n = 2 + seed % 3
        m = Match(get("quick"), {"gladiators": ["random"] * n}, seed=seed, nonce="")
        rolls = {r.purpose: r for r in m.rolls if r.rule == STRENGTH}
        assert len(rolls) == n
        for f in m.state.fighters.values():
            r = rolls[f"{f.seat}'s strength"]
            assert r.notation == "2D6" and len(r.faces) == 2
            assert f.strength == f.max_strength == sum(r.faces) == r.total
            assert 2 <= f.strength <= 12
            seen.add(f.strength)
    assert len(seen) >= 8  # the dice really vary


@pytest.mark.parametrize(
    ("face", "cls"), [(1, "heavy"), (2, "medium"), (3, "light"), (4, "retiarius")]
)
def test_qr11_random_class_is_rolled_on_1d4(face: int, cls: str) -> None:
    """QR11 (§1.1): class "random" is rolled on 1D4: heavy, medium, light, retiarius."""
    dice = ScriptedDice(
        [
            (CLASS, face),
            (STRENGTH, (3, 3)),
            (STRENGTH, (4, 4)),
            (ORDER, 6),
            (ORDER, 1),
            (AP, 3),
        ]
    )
    st, _ = RULES.initial_state(RULES.normalise_options({"gladiators": ["random", "medium"]}), dice)
    dice.assert_exhausted()
    assert st.fighters["red"].cls == cls
    assert st.fighters["blue"].cls == "medium"


@pytest.mark.parametrize(
    ("n", "where"),
    [
        (2, [Hex(0, -3), Hex(0, 3)]),
        (3, [Hex(0, -3), Hex(3, 0), Hex(-3, 3)]),
        (4, [Hex(0, -3), Hex(3, -2), Hex(0, 3), Hex(-3, 2)]),
    ],
)
def test_qr1_start_evenly_on_ring_3_facing_the_centre(n: int, where: list[Hex]) -> None:
    """QR1 (§2.1, §2.2): a hexagon arena of side 6; figures evenly on ring 3, facing the centre."""
    m = Match(get("quick"), {"gladiators": ["medium"] * n}, seed=11, nonce="")
    fs = list(m.state.fighters.values())
    assert [f.hex for f in fs] == where
    for f in fs:
        assert hg.distance(f.hex, C) == 3
        assert f.facing == hg.facing_toward(f.hex, C)
        # Facing the centre: the centre lies straight ahead or in the front cone.
        assert hg.in_cone(f.hex, f.facing, C, 3)
    assert len(arena_of(m.state)) == 91  # 3*6*5 + 1 hexes
    assert m.view(None)["arena"] == {"shape": "hexagon", "side": 6, "name": "hexagon-6"}


def test_qr1_arena_side_option_sets_the_sheet_size() -> None:
    """QR1: option arena_side sets the hexagon's side (4 → 37 hexes, radius 3)."""
    m = Match(get("quick"), {"gladiators": ["light", "light"], "arena_side": 4}, seed=1, nonce="")
    arena = arena_of(m.state)
    assert len(arena) == 37
    assert Hex(0, -3) in arena and Hex(0, -4) not in arena


def test_qr2_highest_roll_moves_first() -> None:
    """QR2 (§4.1): each rolls 1D6 for the turn order; the highest goes first."""
    assert engine._roll_turn_order(["red", "blue"], ScriptedDice([(ORDER, 2), (ORDER, 5)])) == [
        "blue",
        "red",
    ]


def test_qr2_ties_are_rerolled_among_the_tied_only() -> None:
    """QR2: red and green tie on 4 behind blue's 6 and roll again (only they): green 5, red 2."""
    dice = ScriptedDice([(ORDER, 4), (ORDER, 6), (ORDER, 4), (ORDER, 2), (ORDER, 5)])
    assert engine._roll_turn_order(["red", "blue", "green"], dice) == ["blue", "green", "red"]
    dice.assert_exhausted()
    assert [r.purpose for r in dice.log][3:] == [
        "red's roll for the turn order",
        "green's roll for the turn order",
    ]


def test_qr2_repeated_ties_keep_rerolling() -> None:
    """QR2: a tie rerolled into another tie is rolled again."""
    dice = ScriptedDice([(ORDER, 3), (ORDER, 3), (ORDER, 6), (ORDER, 6), (ORDER, 1), (ORDER, 6)])
    assert engine._roll_turn_order(["red", "blue"], dice) == ["blue", "red"]
    dice.assert_exhausted()


# -- §4.1 move / counter-move, QR12 ---------------------------------------------------------------
def far_pair(red_cls: str = "medium", blue_cls: str = "medium") -> QuickState:
    return state_of(
        [fighter("red", red_cls, C, N), fighter("blue", blue_cls, Hex(0, 4), N)], active="red", ap=3
    )


def test_s4_1_turns_alternate_move_and_counter_move() -> None:
    """§4.1: red ends, blue moves (rolling his AP), blue ends, red moves again in round 2."""
    st = far_pair()
    dice = ScriptedDice([(AP, 2), (AP, 6)])
    RULES.apply(st, {"red": "E"}, dice)
    assert (st.active, st.ap, st.round) == ("blue", 2, 1)
    RULES.apply(st, {"blue": "E"}, dice)
    assert (st.active, st.ap, st.round) == ("red", 6, 2)
    dice.assert_exhausted()
    assert [r.purpose for r in dice.log] == ["blue's action points", "red's action points"]


def test_s4_1_turn_passes_when_the_ap_are_spent() -> None:
    """§4.1, §5.1: spending the last AP ends the turn without an order to end it."""
    st = far_pair()
    st.ap = 1
    dice = ScriptedDice([(AP, 4)])
    RULES.apply(st, {"red": "F"}, dice)
    assert st.fighters["red"].hex == FRONT_OF_C
    assert (st.active, st.ap) == ("blue", 4)
    dice.assert_exhausted()


def test_s4_1_seats_out_of_the_fight_are_skipped() -> None:
    """§4.1, §7.7: in the turn order a dead gladiator has no turn; green follows red directly."""
    red = fighter("red", "medium", C, N)
    blue = fighter("blue", "medium", Hex(0, 4), N, strength=-3, max_strength=8, status="dead")
    green = fighter("green", "medium", Hex(4, -4), N)
    st = state_of([red, blue, green], active="red", ap=2)
    dice = ScriptedDice([(AP, 3)])
    RULES.apply(st, {"red": "E"}, dice)
    assert (st.active, st.ap) == ("green", 3)
    dice.assert_exhausted()


def test_qr12_max_rounds_stops_the_match_as_a_draw() -> None:
    """QR12: after max_rounds rounds without a decision the match is a draw."""
    m = Match(get("quick"), {"gladiators": ["heavy", "heavy"], "max_rounds": 2}, seed=5, nonce="")
    steps = 0
    while not m.finished:
        seat = m.waiting_for()[0]
        m.submit(seat, "E")
        steps += 1
    assert steps <= 4  # two rounds of two turns, each ended at once
    assert m.outcome is not None and m.outcome.winners == () and m.outcome.method == "time"
    # Every seat had exactly two turns (one AP roll each), and no third round was begun.
    assert [e["seat"] for e in m.events if e["type"] == "turn"] == m.state.order * 2
    assert m.state.phase == "over"


# -- §5.1, §5.3 action points ---------------------------------------------------------------------
def ap_after_roll(f: Fighter, die: int) -> int:
    st = state_of([f, fighter("blue", "medium", Hex(0, 4), N)], active=f.seat, ap=0)
    dice = ScriptedDice([(AP, die)])
    engine._start_turn(st, st.fighters[f.seat], dice, [])
    dice.assert_exhausted()
    return st.ap


def test_s5_1_action_points_are_1d6_for_an_unwounded_medium() -> None:
    """§5.1: AP = 1D6 (plus modifiers, none here)."""
    assert [ap_after_roll(fighter("red", "medium", C, N), d) for d in range(1, 7)] == [
        1,
        2,
        3,
        4,
        5,
        6,
    ]


def test_s5_3_1_heavy_minus_1_ap() -> None:
    """§5.3.1: heavy −1."""
    assert ap_after_roll(fighter("red", "heavy", C, N), 4) == 3


def test_s5_3_2_light_plus_1_ap() -> None:
    """§5.3.2: light +1."""
    assert ap_after_roll(fighter("red", "light", C, N), 4) == 5


def test_s10_3_retiarius_moves_as_a_medium_no_ap_modifier() -> None:
    """§10.3: the retiarius moves as a medium: no AP modifier."""
    assert ap_after_roll(fighter("red", "retiarius", C, N), 4) == 4


@pytest.mark.parametrize(("strength", "maximum"), [(11, 12), (6, 12), (4, 7)])
def test_s5_3_3_lightly_wounded_minus_1_ap(strength: int, maximum: int) -> None:
    """§5.3.3: any wound at all (down to exactly half, which is not "below 50%") costs 1 AP."""
    f = fighter("red", "medium", C, N, strength=strength, max_strength=maximum)
    assert ap_after_roll(f, 4) == 3


@pytest.mark.parametrize(("strength", "maximum"), [(5, 12), (3, 7), (1, 12), (5, 11)])
def test_s5_3_4_badly_wounded_minus_2_replaces_lightly_wounded_qr4(
    strength: int, maximum: int
) -> None:
    """§5.3.4, QR4: below half strength (strength*2 < max) is −2, instead of (not on top of) −1."""
    f = fighter("red", "medium", C, N, strength=strength, max_strength=maximum)
    assert ap_after_roll(f, 4) == 2


def test_s5_3_5_ensnared_minus_3_ap() -> None:
    """§5.3.5: ensnared in a net −3."""
    assert ap_after_roll(fighter("red", "medium", C, N, ensnared=True), 5) == 2


def test_s5_3_modifiers_add_up() -> None:
    """§5.3: heavy −1, lightly wounded −1, ensnared −3 together: 6 → 1."""
    f = fighter("red", "heavy", C, N, strength=10, max_strength=12, ensnared=True)
    assert ap_after_roll(f, 6) == 1


def test_qr3_action_points_never_below_zero() -> None:
    """QR3: heavy −1, badly wounded −2, ensnared −3, off balance −2 on a 6 is −2: floored at 0."""
    f = fighter("red", "heavy", C, N, strength=1, max_strength=12, ensnared=True, off_balance=True)
    assert ap_after_roll(f, 6) == 0


def test_s9_3_off_balance_minus_2_applies_once_on_the_next_turn_only() -> None:
    """§9.3/§9.4: off balance is −2 AP from the next move, and only that one."""
    st = state_of(
        [fighter("red", "medium", C, N, off_balance=True), fighter("blue", "medium", Hex(0, 4), N)],
        active="red",
        ap=0,
    )
    dice = ScriptedDice([(AP, 5), (AP, 5)])
    events: list[dict[str, Any]] = []
    engine._start_turn(st, st.fighters["red"], dice, events)
    assert st.ap == 3 and not st.fighters["red"].off_balance
    assert "off balance" in events[-1]["text"]
    engine._start_turn(st, st.fighters["red"], dice, events)
    assert st.ap == 5
    dice.assert_exhausted()


def test_s5_1_a_new_turn_resets_the_strike_and_cast_counts() -> None:
    """§5.2.4, QR8: the one strike and the net casts are counted per turn."""
    st = far_pair()
    st.strikes, st.casts = 1, 1
    engine._start_turn(st, st.fighters["red"], ScriptedDice([(AP, 2)]), [])
    assert (st.strikes, st.casts, st.ap) == (0, 0, 2)


# -- §5.2 costs -----------------------------------------------------------------------------------
def test_s5_2_1_step_forward_costs_1_and_keeps_facing() -> None:
    """§5.2.1: 1 AP to move directly forward."""
    st = far_pair()
    RULES.apply(st, {"red": "F"}, ScriptedDice([]))
    assert (st.fighters["red"].hex, st.fighters["red"].facing, st.ap) == (FRONT_OF_C, N, 2)


@pytest.mark.parametrize(
    ("facing", "code", "dest"),
    [
        (N, "SFR", Hex(1, -1)),
        (N, "SBR", Hex(1, 0)),
        (N, "B", Hex(0, 1)),
        (N, "SBL", Hex(-1, 1)),
        (N, "SFL", Hex(-1, 0)),
        (SE, "F", Hex(1, 0)),
        (SE, "SFR", Hex(0, 1)),
        (SE, "SBR", Hex(-1, 1)),
        (SE, "B", Hex(-1, 0)),
        (SE, "SBL", Hex(0, -1)),
        (SE, "SFL", Hex(1, -1)),
    ],
)
def test_s5_2_2_other_five_steps_cost_2_and_keep_facing(facing: int, code: str, dest: Hex) -> None:
    """§5.2.1/§5.2.2: each of the other five neighbours costs 2 AP and leaves the facing alone."""
    st = far_pair()
    st.fighters["red"].facing = facing
    RULES.apply(st, {"red": code}, ScriptedDice([]))
    red = st.fighters["red"]
    assert (red.hex, red.facing) == (dest, facing)
    assert st.ap == (2 if code == "F" else 1)


@pytest.mark.parametrize(("code", "facing"), [("L", NW), ("R", NE)])
def test_s5_2_3_pivot_one_face_costs_1(code: str, facing: int) -> None:
    """§5.2.3: 1 AP to pivot one hex face left or right; the figure stays in its hex."""
    st = far_pair()
    RULES.apply(st, {"red": code}, ScriptedDice([]))
    assert (st.fighters["red"].hex, st.fighters["red"].facing, st.ap) == (C, facing, 2)


def test_s5_2_4_strike_costs_1_and_at_most_one_per_turn() -> None:
    """§5.2.4: a strike costs 1 AP, and only one strike is allowed per turn."""
    red, blue = duel()
    st = state_of([red, blue], active="red", ap=4)
    assert "ST" in orders(st)
    dice = ScriptedDice([(STRIKE, 1), (STRIKE, 2)])  # 1 vs 2 at the front: a miss
    RULES.apply(st, {"red": "ST"}, dice)
    dice.assert_exhausted()
    assert (st.active, st.ap, st.strikes) == ("red", 3, 1)
    assert "ST" not in orders(st)
    assert {"L", "R", "E"} <= set(orders(st))


def test_s5_2_5_net_cast_costs_2_and_only_the_retiarius_has_one() -> None:
    """§5.2.5: 2 AP for the retiarius to cast his net; other classes have no net order."""
    st = state_of(
        [fighter("red", "retiarius", C, N), fighter("blue", "medium", Hex(0, -2), S)],
        active="red",
        ap=4,
    )
    assert "NET" in orders(st)
    dice = ScriptedDice([(NET, 3)])
    RULES.apply(st, {"red": "NET"}, dice)
    dice.assert_exhausted()
    assert (st.ap, st.casts, st.fighters["blue"].ensnared) == (2, 1, False)
    for cls in ("heavy", "medium", "light"):
        other = state_of(
            [fighter("red", cls, C, N), fighter("blue", "medium", Hex(0, -2), S)],
            active="red",
            ap=6,
        )
        assert not any(t.startswith("NET") for t in orders(other)), cls


def test_s5_2_unaffordable_actions_are_not_offered() -> None:
    """§5.2: with 0, 1 or 2 AP only what can be paid for is offered (steps 2, net 2, others 1)."""
    st = state_of(
        [fighter("red", "retiarius", C, N), fighter("blue", "medium", Hex(0, -2), S)],
        active="red",
        ap=0,
    )
    assert orders(st) == ["E"]
    st.ap = 1
    assert orders(st) == ["F", "L", "R", "E"]
    st.ap = 2
    assert orders(st) == ["F", "SFR", "SBR", "B", "SBL", "SFL", "L", "R", "NET", "E"]
    adjacent = state_of(
        [fighter("red", "medium", C, N), fighter("blue", "medium", FRONT_OF_C, S)],
        active="red",
        ap=1,
    )
    assert orders(adjacent) == ["L", "R", "ST", "E"]


def test_s5_2_end_aliases_are_accepted() -> None:
    """§5.2: a turn may be ended early; END and PASS are accepted for E."""
    m = Match(get("quick"), {"gladiators": ["light", "light"]}, seed=0, nonce="")
    decision = m.pending()[m.state.active]
    assert decision.validate("end") == "E" and decision.validate("PASS") == "E"


# -- §6 zones of control --------------------------------------------------------------------------
def test_s6_1_no_step_into_an_occupied_hex() -> None:
    """§6.1: one gladiator per hex: a figure in front (even a helpless one) bars the step F."""
    helpless = fighter(
        "blue", "medium", FRONT_OF_C, S, strength=0, max_strength=9, status="helpless"
    )
    st = state_of([fighter("red", "medium", C, N), helpless], active="red", ap=6)
    steps = [t for t in orders(st) if t in engine.STEPS]
    assert steps == ["SFR", "SBR", "B", "SBL", "SFL"]
    fighting = state_of(
        [fighter("red", "medium", C, N), fighter("blue", "medium", FRONT_OF_C, S)],
        active="red",
        ap=6,
    )
    assert "F" not in orders(fighting)


@pytest.mark.parametrize(("side", "at"), [(6, Hex(0, -5)), (4, Hex(0, -3))])
def test_s6_1_no_step_off_the_arena(side: int, at: Hex) -> None:
    """§2.1, §6.1: at the north edge facing north, only the three steps inwards are offered."""
    st = state_of(
        [fighter("red", "medium", at, N), fighter("blue", "medium", C, N)],
        active="red",
        ap=6,
        arena_side=side,
    )
    assert [t for t in orders(st) if t in engine.STEPS] == ["SBR", "B", "SBL"]


def test_s6_2_strike_only_at_an_adjacent_opponent() -> None:
    """§6.2: gladiators must be in adjacent hexes to strike."""
    near = state_of(
        [fighter("red", "medium", C, N), fighter("blue", "medium", FRONT_OF_C, S)], active="red"
    )
    far = state_of(
        [fighter("red", "medium", C, N), fighter("blue", "medium", Hex(0, -2), S)], active="red"
    )
    assert "ST" in orders(near)
    assert not any(t.startswith("ST") for t in orders(far))


@pytest.mark.parametrize("rel", list(Relation))
def test_qr5_strike_only_into_the_front_three_hexes(rel: Relation) -> None:
    """QR5 (§6.2): a strike goes into the attacker's front, right-front or left-front hex only."""
    red = fighter("red", "medium", C, N)
    blue = fighter("blue", "medium", hg.neighbor_at(C, N, rel), N)
    st = state_of([red, blue], active="red")
    front = rel in (Relation.FRONT, Relation.RIGHT_FRONT, Relation.LEFT_FRONT)
    assert ("ST" in orders(st)) is front


@pytest.mark.parametrize("rel", list(Relation))
def test_qr5_strike_arc_any_allows_all_six_neighbours(rel: Relation) -> None:
    """QR5: option strike_arc="any" lifts the front-only limit."""
    red = fighter("red", "medium", C, N)
    blue = fighter("blue", "medium", hg.neighbor_at(C, N, rel), N)
    st = state_of([red, blue], active="red", strike_arc="any")
    assert "ST" in orders(st)


def test_s6_2_strike_names_the_target_when_several_are_in_reach() -> None:
    """§6.2, §5.2.4: with two opponents in reach the strike order names its target."""
    st = state_of(
        [
            fighter("red", "medium", C, N),
            fighter("blue", "medium", FRONT_OF_C, S),
            fighter("green", "medium", Hex(1, -1), SW),
        ],
        active="red",
    )
    assert [t for t in orders(st) if t.startswith("ST")] == ["ST>blue", "ST>green"]


@pytest.mark.parametrize(
    ("at", "offered"),
    [(Hex(0, -1), True), (Hex(0, -2), True), (Hex(0, -3), False), (Hex(1, -2), True)],
)
def test_s6_2_net_cast_adjacent_or_across_one_gap(at: Hex, offered: bool) -> None:
    """§6.2, §10.2: the net reaches an adjacent target or one with one hex between, no further."""
    st = state_of(
        [fighter("red", "retiarius", C, N), fighter("blue", "medium", at, S)], active="red"
    )
    assert ("NET" in orders(st)) is offered


@pytest.mark.parametrize("at", [Hex(2, -1), Hex(0, 2), Hex(-2, 1), Hex(1, 0)])
def test_qr7_net_cast_only_into_the_front_cone(at: Hex) -> None:
    """QR7: a cast goes into the front cone: not to the side, behind, or at an adjacent back hex."""
    st = state_of(
        [fighter("red", "retiarius", C, N), fighter("blue", "medium", at, S)], active="red"
    )
    assert "NET" not in orders(st)


def test_qr7_gap_cast_blocked_only_when_every_line_hex_is_occupied() -> None:
    """QR7: across the gap, the line (0,0)→(-1,-1) runs between (0,-1) and (-1,0); one figure on
    it does not block the cast, two do."""
    assert {w[1] for w in hg.lines_between(C, Hex(-1, -1))} == {Hex(0, -1), Hex(-1, 0)}
    red = fighter("red", "retiarius", C, N)
    blue = fighter("blue", "medium", Hex(-1, -1), S)
    one = state_of([red, blue, fighter("green", "medium", Hex(0, -1), S)], active="red")
    assert "NET>blue" in orders(one) and "NET>green" in orders(one)
    two = state_of(
        [
            red,
            blue,
            fighter("green", "medium", Hex(0, -1), S),
            fighter("yellow", "medium", Hex(-1, 0), S),
        ],
        active="red",
    )
    nets = [t for t in orders(two) if t.startswith("NET")]
    assert nets == ["NET>green", "NET>yellow"]


def test_qr7_straight_gap_cast_blocked_by_the_one_hex_between() -> None:
    """QR7: straight ahead the line has one hex between; a figure there blocks the cast."""
    st = state_of(
        [
            fighter("red", "retiarius", C, N),
            fighter("blue", "medium", Hex(0, -2), S),
            fighter(
                "green", "medium", FRONT_OF_C, S, strength=0, max_strength=9, status="helpless"
            ),
        ],
        active="red",
    )
    assert not any(t.startswith("NET") for t in orders(st))


def test_s6_3_cannot_step_from_directly_in_front_to_the_sword_side() -> None:
    """§6.3: from directly in front of blue, red may not step to blue's sword-side hex (nor to
    any other hex next to blue): the only steps offered lead away from him."""
    blue = fighter("blue", "medium", C, N)
    red = attacker_at(blue, Relation.FRONT, "red")  # at (0,-1) facing S
    st = state_of([red, blue], active="red", ap=6)
    sword_side = hg.neighbor_at(C, N, Relation.RIGHT_FRONT)
    assert sword_side == Hex(1, -1)
    # For red facing S, (1,-1) is the left-front hex (SFL).
    assert hg.neighbor_at(red.hex, red.facing, Relation.LEFT_FRONT) == sword_side
    assert [t for t in orders(st) if t in engine.STEPS] == ["SBR", "B", "SBL"]


def test_s6_3_can_reach_the_sword_side_after_stepping_back() -> None:
    """§6.3: stepping back first (an empty hex between) red can walk round to blue's sword side."""
    blue = fighter("blue", "medium", C, N)
    red = attacker_at(blue, Relation.FRONT, "red")
    st = state_of([red, blue], active="red", ap=6)
    for code, where in (("B", Hex(0, -2)), ("SFL", Hex(1, -2)), ("F", Hex(1, -1))):
        assert code in orders(st)
        RULES.apply(st, {"red": code}, ScriptedDice([]))
        assert st.fighters["red"].hex == where
    assert st.ap == 1  # 2 + 2 + 1 spent
    assert hg.relation_of(C, N, st.fighters["red"].hex) is Relation.RIGHT_FRONT


# -- §7 swordplay ---------------------------------------------------------------------------------
def test_s7_2_a_double_is_a_special_event_with_no_damage_or_save() -> None:
    """§7.2: equal dice are a special event (§9) instead: no difference, no save, no wound."""
    red, blue = duel(blue_cls="heavy")
    st, events = strike(red, blue, [(STRIKE, 4), (STRIKE, 4)])  # no save die scripted
    assert st.fighters["blue"].strength == 12
    assert [e["type"] for e in events] == ["special"]


def test_s7_3_defender_roll_subtracted_from_attacker_roll() -> None:
    """§7.3, §7.5: 5 against 2 at the front is 3 off the defender's strength (light: no save)."""
    red, blue = duel()
    st, events = strike(red, blue, [(STRIKE, 5), (STRIKE, 2)])
    assert st.fighters["blue"].strength == 9
    assert events[-1]["damage"] == 3 and events[-1]["result"] == "wound"


@pytest.mark.parametrize(
    ("a", "d", "rel"), [(2, 4, Relation.FRONT), (3, 5, Relation.RIGHT_FRONT), (1, 4, Relation.REAR)]
)
def test_s7_3_no_harm_when_the_modified_difference_is_not_positive(
    a: int, d: int, rel: Relation
) -> None:
    """§7.3/§7.4: a difference of 0 or less does nothing, and no save is thrown."""
    blue = fighter("blue", "heavy", C, N)
    red = attacker_at(blue, rel, "red")
    st, events = strike(red, blue, [(STRIKE, a), (STRIKE, d)])
    assert st.fighters["blue"].strength == 12 and events[-1]["result"] == "miss"


@pytest.mark.parametrize(("save", "saved"), [(1, False), (4, False), (5, True), (6, True)])
def test_s7_4_1_heavy_saved_on_5_or_6(save: int, saved: bool) -> None:
    """§7.4.1: a wounded heavy is saved on 1D6 5-6."""
    red, blue = duel(blue_cls="heavy")
    st, _ = strike(red, blue, [(STRIKE, 5), (STRIKE, 2), (SAVE, save)])
    assert st.fighters["blue"].strength == (12 if saved else 9)


@pytest.mark.parametrize(("save", "saved"), [(1, False), (5, False), (6, True)])
def test_s7_4_2_medium_saved_on_6(save: int, saved: bool) -> None:
    """§7.4.2: a wounded medium is saved on 1D6 6 only."""
    red, blue = duel(blue_cls="medium")
    st, _ = strike(red, blue, [(STRIKE, 5), (STRIKE, 2), (SAVE, save)])
    assert st.fighters["blue"].strength == (12 if saved else 9)


def test_s7_4_3_light_has_no_save() -> None:
    """§7.4.3: a light gladiator throws no save (no third die is scripted)."""
    red, blue = duel(blue_cls="light")
    st, _ = strike(red, blue, [(STRIKE, 6), (STRIKE, 5)])
    assert st.fighters["blue"].strength == 11


def test_s7_5_strength_reduced_by_the_modified_difference() -> None:
    """§7.5, §8.4: 4 against 2 from behind (+3) takes 5 strength."""
    blue = fighter("blue", "light", C, N)
    red = attacker_at(blue, Relation.REAR, "red")
    st, _ = strike(red, blue, [(STRIKE, 4), (STRIKE, 2)])
    assert st.fighters["blue"].strength == 7


@pytest.mark.parametrize(("before", "after"), [(5, 0), (4, -1), (3, -2)])
def test_s7_6_helpless_at_0_to_minus_2_and_the_victor_decides(before: int, after: int) -> None:
    """§7.6, QR6: strength 0 to −2 leaves him helpless; in a duel the victor turns the thumbs."""
    red, blue = duel()
    blue.strength = blue.max_strength = before
    st, events = strike(red, blue, [(STRIKE, 6), (STRIKE, 1)])
    assert st.fighters["blue"].strength == after
    assert st.fighters["blue"].status == "helpless"
    assert st.phase == "fate" and st.fate is not None
    assert (st.fate.helpless, st.fate.victor, st.fate.deciders) == ("blue", "red", ("red",))
    pending = RULES.pending(st)
    assert list(pending) == ["red"]
    decision = pending["red"]
    assert isinstance(decision, ChooseOne) and texts(decision) == ["UP", "DOWN"]
    assert not decision.secret
    assert [e["type"] for e in events] == ["strike", "helpless", "awaiting_thumbs"]


def test_s7_7_dead_below_minus_2() -> None:
    """§7.7: strength below −2 is dead; no thumbs are asked for; the match is won."""
    red, blue = duel()
    blue.strength = blue.max_strength = 2
    st = state_of([red, blue], active="red", ap=3)
    RULES.apply(st, {"red": "ST"}, ScriptedDice([(STRIKE, 6), (STRIKE, 1)]))
    assert st.fighters["blue"].strength == -3 and st.fighters["blue"].status == "dead"
    assert st.fate is None and st.phase == "over"
    outcome = RULES.outcome(st)
    assert outcome is not None and outcome.winners == ("red",) and outcome.method == "dead"


# -- §8 combat modifiers --------------------------------------------------------------------------
def hexside_damage(rel: Relation, **blue_kw: Any) -> int:
    """Damage of a 3-against-2 strike on a light blue from his `rel` hexside (base difference 1)."""
    blue = fighter("blue", blue_kw.pop("cls", "light"), C, N, **blue_kw)
    red = attacker_at(blue, rel, "red")
    before = blue.strength
    st, _ = strike(red, blue, [(STRIKE, 3), (STRIKE, 2)])
    return before - st.fighters["blue"].strength


def test_s8_front_hexside_no_modifier() -> None:
    """§8 (§2.3): an attack on the front gets no modifier: 3 − 2 = 1."""
    assert hexside_damage(Relation.FRONT) == 1
    blue = fighter("blue", "light", C, N)
    assert combat.side_struck(blue, attacker_at(blue, Relation.FRONT)) == "front"


def test_s8_1_shield_hexside_plus_1() -> None:
    """§8.1: left-front (the shield side) +1."""
    assert hexside_damage(Relation.LEFT_FRONT) == 2
    blue = fighter("blue", "light", C, N)
    assert combat.side_struck(blue, attacker_at(blue, Relation.LEFT_FRONT)) == "shield"


def test_s8_3_sword_hexside_plus_2() -> None:
    """§8.3: right-front (the sword side) +2."""
    assert hexside_damage(Relation.RIGHT_FRONT) == 3
    blue = fighter("blue", "light", C, N)
    assert combat.side_struck(blue, attacker_at(blue, Relation.RIGHT_FRONT)) == "sword"


@pytest.mark.parametrize("rel", [Relation.RIGHT_REAR, Relation.REAR, Relation.LEFT_REAR])
def test_s8_4_each_of_the_three_back_hexsides_plus_3(rel: Relation) -> None:
    """§8.4: right-rear, rear and left-rear are the back: +3."""
    assert hexside_damage(rel) == 4
    blue = fighter("blue", "light", C, N)
    assert combat.side_struck(blue, attacker_at(blue, rel)) == "back"


def test_s8_hexside_follows_the_defender_facing() -> None:
    """§8, §2.3: the hexside is the defender's own: blue facing S is struck from (0,-1) in the
    back (+3), from (0,1) in the front (0)."""
    for at, dmg in ((Hex(0, -1), 4), (Hex(0, 1), 1), (Hex(-1, 1), 3), (Hex(1, 0), 2)):
        blue = fighter("blue", "light", C, S)
        red = fighter("red", "medium", at, hg.facing_toward(at, C))
        st, _ = strike(red, blue, [(STRIKE, 3), (STRIKE, 2)])
        assert 12 - st.fighters["blue"].strength == dmg, at


@pytest.mark.parametrize(("rel", "dmg"), [(Relation.FRONT, 2), (Relation.REAR, 5)])
def test_s8_2_ensnared_target_plus_1(rel: Relation, dmg: int) -> None:
    """§8.2: +1 on a target ensnared in a net, on top of the hexside modifier."""
    assert hexside_damage(rel, ensnared=True) == dmg


# -- §9 special events ----------------------------------------------------------------------------
def test_s9_1_double_6_kills_the_defender_outright() -> None:
    """§9.1: double 6 kills the defender, full strength and armour notwithstanding."""
    red, blue = duel(blue_cls="heavy")
    st = state_of([red, blue], active="red", ap=3)
    RULES.apply(st, {"red": "ST"}, ScriptedDice([(STRIKE, 6), (STRIKE, 6)]))
    assert st.fighters["blue"].status == "killed" and st.fighters["blue"].strength == 12
    outcome = RULES.outcome(st)
    assert outcome is not None and outcome.winners == ("red",) and outcome.method == "killed"


def test_s9_2_double_5_defender_loses_his_shield() -> None:
    """§9.2: double 5: the defender loses his shield; another double 5 finds nothing to lose."""
    red, blue = duel(blue_cls="medium")
    st, events = strike(red, blue, [(STRIKE, 5), (STRIKE, 5)])
    assert not st.fighters["blue"].has_off_hand and st.fighters["blue"].strength == 12
    assert events[-1]["effect"] == "loses_off_hand"
    st2, _ = strike(st.fighters["red"], st.fighters["blue"], [(STRIKE, 5), (STRIKE, 5)])
    assert not st2.fighters["blue"].has_off_hand


@pytest.mark.parametrize(("save", "saved"), [(4, False), (5, False), (6, True)])
def test_s9_2_2_heavy_without_shield_saves_like_a_medium(save: int, saved: bool) -> None:
    """§9.2.2: a heavy without his shield is saved on 6 only."""
    red, blue = duel(blue_cls="heavy")
    blue.has_off_hand = False
    st, _ = strike(red, blue, [(STRIKE, 5), (STRIKE, 2), (SAVE, save)])
    assert st.fighters["blue"].strength == (12 if saved else 9)


def test_s9_2_2_medium_without_shield_has_no_save() -> None:
    """§9.2.2: a medium without his shield gets no save (no save die is scripted)."""
    red, blue = duel(blue_cls="medium")
    blue.has_off_hand = False
    st, _ = strike(red, blue, [(STRIKE, 5), (STRIKE, 2)])
    assert st.fighters["blue"].strength == 9


def test_s9_2_3_missing_shield_side_counts_as_the_rear() -> None:
    """§9.2.3: once the shield is gone, the shield hexside is attacked as the rear (+3)."""
    assert hexside_damage(Relation.LEFT_FRONT, has_off_hand=False) == 4
    assert hexside_damage(Relation.RIGHT_FRONT, has_off_hand=False) == 3  # sword side unchanged


def test_s9_2_1_double_5_takes_the_retiarius_net_no_more_casts() -> None:
    """§9.2, §9.2.1: a retiarius losing his net by a double 5 can cast no more."""
    blue = fighter("blue", "retiarius", C, N)
    red = attacker_at(blue, Relation.FRONT, "red")
    st, _ = strike(red, blue, [(STRIKE, 5), (STRIKE, 5)])
    assert not st.fighters["blue"].has_off_hand
    st.turn_index = st.order.index("blue")
    st.ap, st.strikes = 6, 0
    assert "ST" in orders(st)
    assert not any(t.startswith("NET") for t in orders(st))
    assert not engine.can_cast(st, st.fighters["blue"])


def test_s9_2_3_retiarius_lost_net_side_counts_as_the_rear() -> None:
    """§9.2.3 with §10.4: the net side counts like the sword side (+2) until the net is lost,
    then as the rear (+3)."""
    for has_net, left in ((True, 9), (False, 8)):
        blue = fighter("blue", "retiarius", C, N, has_off_hand=has_net)
        red = attacker_at(blue, Relation.LEFT_FRONT, "red")
        st, _ = strike(red, blue, [(STRIKE, 3), (STRIKE, 2), (SAVE, 1)])
        assert st.fighters["blue"].strength == left


def test_qr9_retiarius_keeps_the_medium_save_after_losing_the_net() -> None:
    """QR9 (§10.3): a retiarius without his net still saves on a 6 (a 5 fails)."""
    for save, left in ((6, 12), (5, 9)):
        red, blue = duel(blue_cls="retiarius")
        blue.has_off_hand = False
        st, _ = strike(red, blue, [(STRIKE, 5), (STRIKE, 2), (SAVE, save)])
        assert st.fighters["blue"].strength == left


def test_s9_3_double_4_defender_off_balance_on_his_next_turn() -> None:
    """§9.3: double 4: the defender loses 2 AP from his next turn, and only that one."""
    red, blue = duel(blue_cls="medium")
    st = state_of([red, blue], active="red", ap=3)
    dice = ScriptedDice([(STRIKE, 4), (STRIKE, 4), (AP, 5), (AP, 4), (AP, 5)])
    RULES.apply(st, {"red": "ST"}, dice)
    assert st.fighters["blue"].off_balance and not st.fighters["red"].off_balance
    assert (st.active, st.ap) == ("red", 2)  # the attacker's own turn is not touched
    RULES.apply(st, {"red": "E"}, dice)
    assert (st.active, st.ap) == ("blue", 3)  # 5 − 2
    RULES.apply(st, {"blue": "E"}, dice)
    RULES.apply(st, {"red": "E"}, dice)
    assert (st.active, st.ap) == ("blue", 5)  # over after one turn
    dice.assert_exhausted()


def test_s9_4_double_3_attacker_off_balance_on_his_next_turn() -> None:
    """§9.4: double 3: the attacker loses 2 AP from his next turn (not the rest of this one)."""
    red, blue = duel(blue_cls="medium")
    st = state_of([red, blue], active="red", ap=3)
    dice = ScriptedDice([(STRIKE, 3), (STRIKE, 3), (AP, 4), (AP, 4), (AP, 4)])
    RULES.apply(st, {"red": "ST"}, dice)
    assert st.fighters["red"].off_balance and not st.fighters["blue"].off_balance
    assert (st.active, st.ap) == ("red", 2)
    RULES.apply(st, {"red": "E"}, dice)
    assert (st.active, st.ap) == ("blue", 4)
    RULES.apply(st, {"blue": "E"}, dice)
    assert (st.active, st.ap) == ("red", 2)  # 4 − 2
    RULES.apply(st, {"red": "E"}, dice)
    RULES.apply(st, {"blue": "E"}, ScriptedDice([(AP, 4)]))
    assert (st.active, st.ap) == ("red", 4)


def test_s9_5_double_2_decks_the_defender_helpless_at_full_strength() -> None:
    """§9.5: double 2: the defender is decked: helpless at any strength, awaiting the thumbs."""
    red, blue = duel(blue_cls="heavy")
    st, events = strike(red, blue, [(STRIKE, 2), (STRIKE, 2)])
    b = st.fighters["blue"]
    assert (b.status, b.strength) == ("helpless", 12)
    assert st.phase == "fate" and st.fate is not None and st.fate.deciders == ("red",)
    assert [e["type"] for e in events] == ["special", "awaiting_thumbs"]
    # Helpless, he is no target and exerts no zone of control, but still fills his hex (§6.1).
    st.ap = 3
    st.phase, st.fate = "act", None
    assert not any(t.startswith("ST") for t in orders(st, "red"))
    assert "F" not in orders(st, "red")


@pytest.mark.parametrize("who_roll", [1, 2, 3, 4, 5, 6])
def test_s9_6_double_1_weapon_breaks_defender_on_1_to_3_attacker_on_4_to_6(who_roll: int) -> None:
    """§9.6: double 1: roll 1D6: 1-3 the defender's weapon breaks, 4-6 the attacker's."""
    red, blue = duel(blue_cls="heavy")
    st, events = strike(red, blue, [(STRIKE, 1), (STRIKE, 1), (WHO_BREAKS, who_roll)])
    broken = "blue" if who_roll <= 3 else "red"
    whole = "red" if broken == "blue" else "blue"
    assert not st.fighters[broken].has_weapon and st.fighters[whole].has_weapon
    assert events[-1]["broken"] == broken
    assert st.fighters["blue"].strength == 12


def test_s9_6_1_disarmed_still_strikes_but_at_minus_3() -> None:
    """§9.6.1: a fighter with a broken weapon may still strike in his turn, at −3."""
    red, blue = duel()
    red.has_weapon = False
    st = state_of([red, blue], active="red")
    assert "ST" in orders(st)
    st, _ = strike(red, blue, [(STRIKE, 6), (STRIKE, 1)])
    assert st.fighters["blue"].strength == 10  # 6 − 3 − 1 = 2
    red, blue = duel()
    red.has_weapon = False
    st, events = strike(red, blue, [(STRIKE, 4), (STRIKE, 1)])
    assert st.fighters["blue"].strength == 12 and events[-1]["result"] == "miss"  # 4 − 3 − 1 = 0


def test_s9_6_1_knuckle_sandwich_is_the_attackers_not_the_defenders() -> None:
    """§9.6.1: "during his turn": a disarmed defender suffers no −3 when he is struck."""
    red, blue = duel()
    blue.has_weapon = False
    st, _ = strike(red, blue, [(STRIKE, 5), (STRIKE, 2)])
    assert st.fighters["blue"].strength == 9


def test_s9_6_2_sword_side_of_a_disarmed_fighter_counts_as_the_rear() -> None:
    """§9.6.2: with the weapon broken, an attack on the sword hexside is +3 (rear), not +2."""
    assert hexside_damage(Relation.RIGHT_FRONT, has_weapon=False) == 4
    assert hexside_damage(Relation.LEFT_FRONT, has_weapon=False) == 2  # shield side unchanged


# -- §10 the retiarius ----------------------------------------------------------------------------
def test_s10_1_trident_strikes_like_a_sword() -> None:
    """§10.1: the retiarius' trident strikes just like a sword (no modifier of its own)."""
    red, blue = duel(red_cls="retiarius")
    st, _ = strike(red, blue, [(STRIKE, 5), (STRIKE, 2)])
    assert st.fighters["blue"].strength == 9


def test_s10_1_trident_side_is_a_sword_side() -> None:
    """§10.1 with §8.3 and §9.6.2: the trident side is +2, +3 once the trident is broken."""
    for has_weapon, dmg in ((True, 3), (False, 4)):
        blue = fighter("blue", "retiarius", C, N, has_weapon=has_weapon)
        red = attacker_at(blue, Relation.RIGHT_FRONT, "red")
        st, _ = strike(red, blue, [(STRIKE, 3), (STRIKE, 2), (SAVE, 1)])
        assert 12 - st.fighters["blue"].strength == dmg


@pytest.mark.parametrize(("roll", "caught"), [(1, False), (4, False), (5, True), (6, True)])
def test_s10_2_1_gap_cast_ensnares_on_5_or_6(roll: int, caught: bool) -> None:
    """§10.2.1: across a one-hex gap the net ensnares on 5-6."""
    st = state_of(
        [fighter("red", "retiarius", C, N), fighter("blue", "medium", Hex(0, -2), S)], active="red"
    )
    dice = ScriptedDice([(NET, roll)])
    combat.cast_net(st, st.fighters["red"], st.fighters["blue"], dice, [])
    dice.assert_exhausted()
    assert st.fighters["blue"].ensnared is caught
    assert st.fighters["red"].net_cast is caught


@pytest.mark.parametrize(("roll", "caught"), [(1, False), (5, False), (6, True)])
def test_s10_2_2_adjacent_cast_ensnares_on_6_only(roll: int, caught: bool) -> None:
    """§10.2.2: at an adjacent target the net ensnares on a 6 only."""
    st = state_of(
        [fighter("red", "retiarius", C, N), fighter("blue", "medium", FRONT_OF_C, S)], active="red"
    )
    dice = ScriptedDice([(NET, roll)])
    combat.cast_net(st, st.fighters["red"], st.fighters["blue"], dice, [])
    assert st.fighters["blue"].ensnared is caught


def test_s10_3_retiarius_saves_on_6() -> None:
    """§10.3: the retiarius is a medium gladiator for the save: 6 only."""
    for save, left in ((6, 12), (5, 9), (1, 9)):
        red, blue = duel(blue_cls="retiarius")
        st, _ = strike(red, blue, [(STRIKE, 5), (STRIKE, 2), (SAVE, save)])
        assert st.fighters["blue"].strength == left


def test_s10_4_net_side_counts_like_the_sword_side() -> None:
    """§10.4: an attack from the retiarius' net side (left-front) is +2, like the sword side."""
    blue = fighter("blue", "retiarius", C, N)
    red = attacker_at(blue, Relation.LEFT_FRONT, "red")
    assert combat.side_struck(blue, red) == "sword"
    st, _ = strike(red, blue, [(STRIKE, 3), (STRIKE, 2), (SAVE, 1)])
    assert st.fighters["blue"].strength == 9


def test_qr10_successful_cast_leaves_the_net_on_the_victim() -> None:
    """QR10: once the net has ensnared someone it stays on him: no more casts, ever, but the net
    side still counts as the sword side (+2)."""
    red = fighter("red", "retiarius", C, N)
    st = state_of(
        [red, fighter("blue", "medium", Hex(0, -2), S), fighter("green", "medium", Hex(1, -2), S)],
        active="red",
        ap=6,
        net_casts_per_turn=3,
    )
    RULES.apply(st, {"red": "NET>blue"}, ScriptedDice([(NET, 6)]))
    assert st.fighters["blue"].ensnared and st.fighters["red"].net_cast
    assert not any(t.startswith("NET") for t in orders(st))  # green is still in reach
    engine._start_turn(st, st.fighters["red"], ScriptedDice([(AP, 6)]), [])
    assert not any(t.startswith("NET") for t in orders(st))
    r = st.fighters["red"]
    attacker = attacker_at(r, Relation.LEFT_FRONT, "green")
    assert combat.side_struck(r, attacker) == "sword"
    # A double 5 cannot take a net that is not in his hand.
    st2, events = strike(attacker, r, [(STRIKE, 5), (STRIKE, 5)])
    assert st2.fighters["red"].net_cast and "no net left" in events[-1]["text"]


def test_qr10_missed_cast_keeps_the_net_for_the_next_turn() -> None:
    """QR10: a missed cast is drawn back; next turn he may cast again (QR8 limits this turn)."""
    st = state_of(
        [fighter("red", "retiarius", C, N), fighter("blue", "medium", Hex(0, -2), S)],
        active="red",
        ap=6,
    )
    RULES.apply(st, {"red": "NET"}, ScriptedDice([(NET, 4)]))
    red = st.fighters["red"]
    assert red.has_off_hand and not red.net_cast and not st.fighters["blue"].ensnared
    assert "NET" not in orders(st)  # QR8: one cast a turn
    engine._start_turn(st, red, ScriptedDice([(AP, 3)]), [])
    assert "NET" in orders(st)


def test_qr8_net_casts_per_turn_option() -> None:
    """QR8: option net_casts_per_turn=2 allows a second cast in the same turn, not a third."""
    st = state_of(
        [fighter("red", "retiarius", C, N), fighter("blue", "medium", Hex(0, -2), S)],
        active="red",
        ap=6,
        net_casts_per_turn=2,
    )
    dice = ScriptedDice([(NET, 1), (NET, 2)])
    RULES.apply(st, {"red": "NET"}, dice)
    assert "NET" in orders(st)
    RULES.apply(st, {"red": "NET"}, dice)
    assert st.ap == 2 and "NET" not in orders(st)
    dice.assert_exhausted()


def test_s10_5_once_netted_you_do_not_get_out() -> None:
    """§10.5: the ensnared stays ensnared turn after turn (−3 AP each turn, +1 to be hit), and
    no second net can be cast at him."""
    blue = fighter("blue", "medium", Hex(0, -2), S, ensnared=True)
    red = fighter("red", "retiarius", C, N, net_cast=True)
    green = fighter("green", "retiarius", Hex(-2, 0), NE)
    st = state_of([red, blue, green], active="blue", ap=0)
    dice = ScriptedDice([(AP, 6), (AP, 6)])
    engine._start_turn(st, st.fighters["blue"], dice, [])
    assert st.ap == 3
    engine._start_turn(st, st.fighters["blue"], dice, [])
    assert st.ap == 3 and st.fighters["blue"].ensnared
    st.turn_index = st.order.index("green")
    st.ap = 6
    assert hg.distance(green.hex, blue.hex) == 2 and hg.in_cone(green.hex, NE, blue.hex, 2)
    nets = [o for o in legal_actions(st, "green") if o.text.startswith("NET")]
    assert [o.hex for o in nets] == [red.hex]  # red may be netted, blue not again


# -- QR6 fate -------------------------------------------------------------------------------------
def helpless_blue(n: int = 2, fate: str = "auto", ap: int = 3) -> QuickState:
    """Red strikes blue (light, strength 1) down to 0 in front of him: blue is helpless."""
    red, blue = duel()
    blue.strength = blue.max_strength = 1
    others = [fighter("green", "medium", Hex(0, 4), N), fighter("yellow", "medium", Hex(4, 0), N)]
    st = state_of([red, blue, *others[: n - 2]], active="red", ap=ap, fate=fate)
    RULES.apply(st, {"red": "ST"}, ScriptedDice([(STRIKE, 3), (STRIKE, 2)]))
    assert st.fighters["blue"].status == "helpless"
    return st


@pytest.mark.parametrize(("thumb", "status"), [("UP", "spared"), ("DOWN", "slain")])
def test_qr6_in_a_duel_the_victor_decides(thumb: str, status: str) -> None:
    """QR6 (§7.6, §9.5): in a duel (fate auto) the victor alone turns the thumbs."""
    st = helpless_blue()
    assert list(RULES.pending(st)) == ["red"] and not RULES.pending(st)["red"].secret
    RULES.apply(st, {"red": thumb}, ScriptedDice([]))
    assert st.fighters["blue"].status == status
    outcome = RULES.outcome(st)
    assert outcome is not None and outcome.winners == ("red",) and outcome.method == status


def test_qr6_auto_with_three_is_a_secret_vote_of_all_the_others() -> None:
    """QR6: with three or more, fate auto is a secret vote of every other seat (victor too)."""
    st = helpless_blue(3)
    pending = RULES.pending(st)
    assert sorted(pending) == ["green", "red"]
    assert all(d.secret for d in pending.values())


@pytest.mark.parametrize(
    ("votes", "status"), [(("UP", "UP", "DOWN"), "spared"), (("DOWN", "UP", "DOWN"), "slain")]
)
def test_qr6_vote_majority_decides(votes: tuple[str, ...], status: str) -> None:
    """QR6: with four gladiators the three others vote; the majority decides, no crowd die."""
    st = helpless_blue(4)
    assert sorted(RULES.pending(st)) == ["green", "red", "yellow"]
    RULES.apply(st, dict(zip(["red", "green", "yellow"], votes, strict=True)), ScriptedDice([]))
    assert st.fighters["blue"].status == status
    assert st.phase == "act" and RULES.outcome(st) is None  # three still fight


@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
def test_qr6_tied_vote_goes_to_the_crowd_die_4_up_spares(face: int) -> None:
    """QR6: a tied vote is settled by the crowd's 1D6: 4+ spares."""
    st = helpless_blue(3)
    dice = ScriptedDice([(CROWD, face)])
    RULES.apply(st, {"red": "DOWN", "green": "UP"}, dice)
    dice.assert_exhausted()
    assert st.fighters["blue"].status == ("spared" if face >= 4 else "slain")


@pytest.mark.parametrize("face", [1, 3, 4, 6])
def test_qr6_crowd_mode_the_die_decides_at_once(face: int) -> None:
    """QR6: fate "crowd": nobody is asked; the crowd's 1D6 decides at once (4+ spares)."""
    red, blue = duel()
    blue.strength = blue.max_strength = 1
    green = fighter("green", "medium", Hex(0, 4), N)
    st = state_of([red, blue, green], active="red", ap=3, fate="crowd")
    dice = ScriptedDice([(STRIKE, 3), (STRIKE, 2), (CROWD, face)])
    RULES.apply(st, {"red": "ST"}, dice)
    dice.assert_exhausted()
    assert st.fighters["blue"].status == ("spared" if face >= 4 else "slain")
    assert st.phase == "act" and st.active == "red" and st.ap == 2


def test_qr6_victor_mode_with_three_only_the_victor_decides() -> None:
    """QR6: fate "victor" in a three-way fight asks the victor alone, openly."""
    st = helpless_blue(3, fate="victor")
    pending = RULES.pending(st)
    assert list(pending) == ["red"] and not pending["red"].secret


def test_qr6_after_the_thumbs_the_attacker_finishes_his_turn() -> None:
    """QR6, §5.2.4: the fate settled, the striker goes on with his AP left (but strikes no more)."""
    st = helpless_blue(3, ap=4)
    RULES.apply(st, {"red": "UP", "green": "UP"}, ScriptedDice([]))
    assert st.fighters["blue"].status == "spared" and not st.fighters["blue"].on_board
    assert (st.phase, st.active, st.ap, st.strikes) == ("act", "red", 3, 1)
    assert "F" in orders(st)  # blue's hex is free again


def fate_match(fate: str = "vote") -> Match:
    """A real three-seat Match whose state is replaced (before anything was asked of it) by the
    position in which blue lies helpless and red and green must vote."""
    m = Match(
        get("quick"), {"gladiators": ["medium", "light", "medium"], "fate": fate}, seed=3, nonce=""
    )
    st = helpless_blue(3, fate=fate)
    st.options = dict(m.options)
    m.state = st
    return m


def test_qr6_vote_is_secret_in_the_match_views() -> None:
    """QR6: the vote is simultaneous and secret. Orders can only be UP or DOWN (which appear as
    options in every voter's decision), so instead of a canary string the test checks that what
    green and the spectator see after red voted is the same whether red voted UP or DOWN, and
    that no view but red's own holds an order of red's."""
    seen: dict[str, dict[Any, str]] = {}
    for vote in ("UP", "DOWN"):
        m = fate_match()
        assert sorted(m.waiting_for()) == ["green", "red"]
        before = {s: json.dumps(m.view(s), sort_keys=True) for s in (None, "green", "blue")}
        assert m.submit("red", vote) == []
        after = {s: json.dumps(m.view(s), sort_keys=True) for s in (None, "green", "blue")}
        for s in (None, "green", "blue"):
            v = json.loads(after[s])
            assert "my_order" not in v
            assert v["submitted"] == ["red"] and v["waiting_for"] == ["green"]
            assert views_without(v, "submitted", "waiting_for") == views_without(
                json.loads(before[s]), "submitted", "waiting_for"
            )
            for word in ("UP", "DOWN"):
                assert after[s].count(f'"{word}"') == before[s].count(f'"{word}"')
        assert m.view("red")["my_order"] == vote
        seen[vote] = after
    assert seen["UP"] == seen["DOWN"]


def test_qr6_vote_resolves_when_all_are_in_and_a_second_vote_is_refused() -> None:
    """QR6: nothing happens until the last vote is in; a seat may not vote twice."""
    m = fate_match()
    m.submit("green", "down")
    with pytest.raises(NotYourTurn):
        m.submit("green", "UP")
    assert m.state.fighters["blue"].status == "helpless"
    events = m.submit("red", "DOWN")
    assert m.state.fighters["blue"].status == "slain"
    assert any(e["type"] == "fate" and "green DOWN, red DOWN" in e["text"] for e in events)


# -- checked apply (Match) ------------------------------------------------------------------------
def test_s5_2_checked_apply_illegal_order_raises_listing_the_legal_and_changes_nothing() -> None:
    """§5.2 through Match: an illegal order raises IllegalOrder (a ValueError) listing the legal
    orders, and leaves the state, its hash, the steps and the dice as they were."""
    m = Match(get("quick"), {"gladiators": ["medium", "medium"]}, seed=0, nonce="")
    rules = m.ruleset
    seat = m.state.active
    legal = texts(m.pending()[seat])
    assert legal == ["F", "SFR", "SBR", "B", "SBL", "SFL", "L", "R", "E"]
    h, rolls = rules.state_hash(m.state), len(m.rolls)
    for bad in ("ZZ", "ST", "NET", "SFR SFR"):
        with pytest.raises(IllegalOrder) as info:
            m.submit(seat, bad)
        assert isinstance(info.value, ValueError)
        assert "legal:" in str(info.value)
        assert all(t in str(info.value) for t in legal)
        assert info.value.legal == tuple(legal)
    assert rules.state_hash(m.state) == h and len(m.rolls) == rolls and m.steps == []


def test_s4_1_checked_apply_not_your_turn() -> None:
    """§4.1 through Match: a seat that has nothing to decide is refused with NotYourTurn."""
    m = Match(get("quick"), {"gladiators": ["medium", "medium"]}, seed=0, nonce="")
    other = next(s for s in m.seats if s != m.state.active)
    h = m.ruleset.state_hash(m.state)
    with pytest.raises(NotYourTurn):
        m.submit(other, "E")
    with pytest.raises(NotYourTurn):
        m.submit("purple", "E")
    with pytest.raises(NotYourTurn):
        m.apply_step({other: "E"})
    assert m.ruleset.state_hash(m.state) == h


# -- free-for-all ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("n", "seed", "fate"),
    [(3, 1, "auto"), (3, 2, "crowd"), (4, 3, "auto"), (4, 4, "vote"), (3, 5, "victor")],
)
def test_s9_5_qr6_free_for_all_runs_to_a_single_winner(n: int, seed: int, fate: str) -> None:
    """§9.5, QR6: a free-for-all of 3-4 gladiators is fought until one alone is standing."""
    m = Match(
        get("quick"),
        {"gladiators": ["random"] * n, "fate": fate, "max_rounds": 2000},
        seed=seed,
        nonce="",
    )
    rng = random.Random(seed)
    arena = arena_of(m.state)
    while not m.finished:
        for seat, decision in list(m.pending().items()):
            m.submit(seat, aggressive(m.state, seat, decision, rng))
        check_invariants(m.state, arena)
    outcome = m.outcome
    assert outcome is not None and len(outcome.winners) == 1, outcome
    standing = [f.seat for f in m.state.fighters.values() if f.fighting]
    assert standing == list(outcome.winners)
    assert all(not f.on_board for f in m.state.fighters.values() if f.seat not in standing)


# -- decision counts ("perft") --------------------------------------------------------------------
def test_s5_2_perft_initial_position_of_seed_0() -> None:
    """§5.2, QR1: seed 0, two mediums. Red (0,-3) facing S and blue (0,3) facing N stand six hexes
    apart on a side-6 arena (radius 5), so no zone of control, strike or net applies and all six
    neighbours of red lie on the map. Red won the order roll 4-3 and rolled 5 AP, so he may take
    any of the 6 steps (1 or 2 AP), pivot L or R, or end: 6 + 2 + 1 = 9 orders. With 1 AP (seed 3:
    red again first, rolling a 1) only F, L, R, E remain: 4."""
    m = Match(get("quick"), {"gladiators": ["medium", "medium"]}, seed=0, nonce="")
    red, blue = m.state.fighters["red"], m.state.fighters["blue"]
    assert (red.hex, red.facing, blue.hex, blue.facing) == (Hex(0, -3), S, Hex(0, 3), N)
    assert (m.state.active, m.state.ap) == ("red", 5)
    assert len(texts(m.pending()["red"])) == 9
    m3 = Match(get("quick"), {"gladiators": ["medium", "medium"]}, seed=3, nonce="")
    assert (m3.state.active, m3.state.ap) == ("red", 1)
    assert texts(m3.pending()["red"]) == ["F", "L", "R", "E"]


def test_s5_2_s6_perft_hand_built_crowded_position() -> None:
    """§5.2, §6.1-§6.3, QR5, QR7: a retiarius at (0,0) facing N with 3 AP; blue adjacent in front
    at (0,-1), green across the gap at (1,-2) (the line to him passes between (0,-1) and (1,-1),
    only one of them taken), yellow behind at (0,2).
    Steps: F into blue's hex no (§6.1); SFR to (1,-1) and SFL to (-1,0) are both next to blue, from
    a hex next to blue: no (§6.3); SBR, B, SBL yes: 3. Pivots L, R: 2. Strike: blue only (green and
    yellow are two hexes off): 1. Net: blue and green (yellow is behind): 2. End: 1. Total 9.
    With 1 AP: L, R, ST, E = 4.
    With purple added at (1,-1) (red's sword side, in his front): the cast at green is blocked
    (both line hexes taken); purple can be struck and netted; and SBR to (1,0), now next to
    purple, is barred (§6.3): B, SBL, L, R, ST>blue, ST>purple, NET>blue, NET>purple, E = 9."""
    red = fighter("red", "retiarius", C, N)
    blue = fighter("blue", "medium", Hex(0, -1), S)
    green = fighter("green", "medium", Hex(1, -2), S)
    yellow = fighter("yellow", "medium", Hex(0, 2), N)
    st = state_of([red, blue, green, yellow], active="red", ap=3)
    assert orders(st) == ["SBR", "B", "SBL", "L", "R", "ST", "NET>blue", "NET>green", "E"]
    st.ap = 1
    assert orders(st) == ["L", "R", "ST", "E"]
    purple = fighter("purple", "medium", Hex(1, -1), SW)
    st5 = state_of([red, blue, green, yellow, purple], active="red", ap=3)
    got = orders(st5)
    assert [t for t in got if t.startswith("NET")] == ["NET>blue", "NET>purple"]
    assert [t for t in got if t.startswith("ST")] == ["ST>blue", "ST>purple"]
    assert got == ["B", "SBL", "L", "R", "ST>blue", "ST>purple", "NET>blue", "NET>purple", "E"]


# -- QR3 and the first turn -----------------------------------------------------------------------
def test_qr3_a_first_turn_with_zero_ap_is_passed_like_any_other() -> None:
    """QR3, §5.1: a heavy rolling 1 has 0 AP; later turns like that are skipped without a
    decision, and so should the very first turn of the match be."""
    dice = ScriptedDice(
        [
            (STRENGTH, (4, 4)),
            (STRENGTH, (4, 4)),
            (ORDER, 6),
            (ORDER, 1),
            (AP, 1),
            (AP, 3),
        ]
    )
    st, _ = RULES.initial_state(RULES.normalise_options({"gladiators": ["heavy", "heavy"]}), dice)
    assert (st.active, st.ap) == ("blue", 2)


def test_qr3_later_turns_with_zero_ap_are_passed() -> None:
    """QR3, §5.1: a turn with 0 AP (a heavy rolling 1) passes without asking for an order."""
    st = far_pair("heavy", "heavy")
    dice = ScriptedDice([(AP, 1), (AP, 4)])
    RULES.apply(st, {"red": "E"}, dice)
    dice.assert_exhausted()
    assert (st.active, st.ap, st.round) == ("red", 3, 2)
