"""§28 Gladiator vs beast (rulings B1-B9): the beast's counter, its movement and collisions, combat
round it, the end of a beast match, and whole seeded matches against each kind of beast."""

from __future__ import annotations

import random
from typing import Any

import pytest

from colosseum_helpers import RULES, RiggedDice, ScriptedDice, of_type
from gladiator.bots import make_bot
from gladiator.core.dice import Dice
from gladiator.core.hexgrid import DIRECTIONS, Hex, add, opposite
from gladiator.core.match import Match
from gladiator.rules.colosseum.beasts.beast_combat import beast_attacks, strikable
from gladiator.rules.colosseum.beasts.beast_movement import beast_moves
from gladiator.rules.colosseum.beasts.beasts import (
    beast_of,
    counter_hexes,
    gladiator_of,
    t25_critical,
)
from gladiator.rules.colosseum.combat.allocation import allocation_choice
from gladiator.rules.colosseum.combat.engage import engage
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.sim.runner import play_match

KINDS = ("bear", "leopard", "lion", "tiger", "wolf")


def hunt(kind: str = "lion", seed: int = 1, **extra: Any) -> ColosseumState:
    opts = {"advanced": True, "beasts": f"blue:{kind}", "styles": "red:bestiarius", **extra}
    state, _ = RULES.initial_state(RULES.normalise_options(opts), Dice(seed))
    return state


def pose(g: Gladiator, h: Hex, facing: int) -> None:
    g.hex, g.facing = h, facing


def ahead(h: Hex, facing: int, n: int = 1) -> Hex:
    for _ in range(n):
        h = add(h, DIRECTIONS[facing])
    return h


CENTRE = Hex(9, 4)


# --- the counter (§28.2.1, NOTE §28.3) ------------------------------------------------------------
def test_s28_3_note_wolf_is_one_hex_others_two() -> None:
    for kind in KINDS:
        b = beast_of(hunt(kind))
        assert b is not None
        hexes = counter_hexes(b)
        assert len(hexes) == (1 if kind == "wolf" else 2)
        if kind != "wolf":  # the body straight behind the head (§28.2.1)
            assert hexes[1] == add(b.hex, DIRECTIONS[opposite(b.facing)])


def test_s28_2_1_start_head_faces_gladiator_four_hexes_between() -> None:
    state = hunt("tiger")
    b, g = beast_of(state), gladiator_of(state)
    assert b is not None
    assert b.facing == opposite(g.facing)
    assert ahead(g.hex, g.facing, 5) == b.hex  # §4.5: four empty hexes between


def test_s28_gladiator_cannot_enter_the_beast_hexes() -> None:
    state = hunt("lion")
    b, g = beast_of(state), gladiator_of(state)
    assert b is not None
    pose(g, ahead(b.hex, b.facing, 2), opposite(b.facing))  # two hexes in front of its head
    dice = RiggedDice(3, {"§28.4.1": [(6, 6)]})  # it Pauses
    events = RULES.apply(state, {"red": "F F"}, dice)
    assert g.hex == ahead(b.hex, b.facing)  # stopped in the hex before the head (B2)
    assert not of_type(events, "collision") and not of_type(events, "beast_collision")


# --- options (B1) -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"beasts": "blue:lion"}, "set advanced = true"),
        ({"advanced": True, "beasts": "blue:dragon"}, "not a T21 beast"),
        ({"advanced": True, "beasts": "green:lion"}, "no seat"),
        ({"advanced": True, "beasts": "red:lion,blue:bear"}, "the gladiator is red"),
        ({"advanced": True, "styles": "red:venator"}, "fights beasts"),
        ({"advanced": True, "beasts": "blue:lion", "styles": "blue:myrmillo"}, "is a beast"),
    ],
)
def test_s28_beasts_option_refused_in_one_line(raw: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message) as exc:
        RULES.normalise_options(raw)
    assert "\n" not in str(exc.value)


def test_s28_random_beast_rolls_p3_and_rerolls_six() -> None:
    opts = RULES.normalise_options({"advanced": True, "beasts": "blue:random"})
    dice = RiggedDice(4, {"§30.2.1.1 P3": [6, 4]})
    state, _ = RULES.initial_state(opts, dice)
    b = beast_of(state)
    assert b is not None and b.beast is not None and b.beast.kind == "tiger"


def test_s28_beast_seat_has_no_decision() -> None:
    state = hunt("bear")
    assert set(RULES.pending(state)) == {"red"}


# --- movement (§28.4, T22) ---------------------------------------------------------------------
def test_s28_4_2_bear_rolling_2_rears_up_rather_than_moving_backward() -> None:
    for kind, reared in (("bear", True), ("lion", False)):
        state = hunt(kind)
        b = beast_of(state)
        assert b is not None and b.beast is not None
        start = b.hex
        events: list[dict[str, Any]] = []
        beast_moves(state, b, (0, 0), ScriptedDice(("§28.4.1", (1, 1))), events)
        assert b.beast.reared is reared
        assert (b.hex == start) is reared  # a lion steps back, the bear stays and rears
        if not reared:
            assert b.hex == add(start, DIRECTIONS[opposite(b.facing)])


def test_s28_4_q14_twelve_pauses_and_ten_eleven_turn_right() -> None:
    for faces, turned in (((6, 6), 0), ((5, 5), 1), ((5, 6), 1), ((1, 2), -1)):
        state = hunt("lion")
        b = beast_of(state)
        assert b is not None
        f0, h0 = b.facing, b.hex
        beast_moves(state, b, (0, 0), ScriptedDice(("§28.4.1", faces)), [])
        assert (b.hex, b.facing) == (h0, (f0 + turned) % 6)


def test_s28_4_note_beast_never_loses_cf_to_endurance() -> None:
    state = hunt("lion")
    g = gladiator_of(state)
    pose(g, Hex(1, 14), 0)  # far off, so nothing happens but the clock
    dice = RiggedDice(5, {"§28.4.1": [(6, 6)] * 8, "§17.2": [6, 6]})
    for _ in range(8):
        RULES.apply(state, {"red": "X"}, dice)
    b = beast_of(state)
    assert b is not None
    assert b.sheet.cf_lost_to_endurance == 0
    assert [r.purpose for r in dice.log if r.rule == "§17.2"] == ["red's endurance 1D6 + turn"]


# --- collisions (§28.5, T23) --------------------------------------------------------------------
def test_s28_5_collision_automatic_when_passing_through() -> None:
    state = hunt("lion")
    b, g = beast_of(state), gladiator_of(state)
    assert b is not None
    pose(g, ahead(b.hex, b.facing, 2), opposite(b.facing))
    events: list[dict[str, Any]] = []
    # 8: 3 hexes toward him; no 1D6 crossing roll (§8.1.1), straight to the Impact Factors.
    dice = RiggedDice(6, {"§28.4.1": [(4, 4)], "§28.5.1": [6], "§8.4": [1]})
    beast_moves(state, b, (0, 0), dice, events)
    (c,) = of_type(events, "beast_collision")
    assert c["beast_if"] == 6 + 3 + 2 * 2  # Lion +3, +2 per hex moved (B5)
    assert "§8.1.1" not in dice.rules()
    assert g.hex == ahead(b.hex, b.facing)  # pushed on, away from the head


def test_s28_5_gladiator_wins_collision_beast_goes_back() -> None:
    state = hunt("wolf")
    b, g = beast_of(state), gladiator_of(state)
    assert b is not None
    pose(g, ahead(b.hex, b.facing, 1), opposite(b.facing))
    before = b.hex
    events: list[dict[str, Any]] = []
    dice = RiggedDice(6, {"§28.4.1": [(3, 3)], "§28.5.1": [1], "§8.4": [6]})
    beast_moves(state, b, (0, 0), dice, events)
    assert b.hex == before and g.hex == ahead(before, b.facing)
    assert b.sheet.stun_in_effect >= 1  # the beast takes the Stun, nothing else (B5)


# --- combat (§28.6, T24) ------------------------------------------------------------------------
def test_s28_6_t24_areas_from_behind_and_the_sides() -> None:
    state = hunt("lion")
    b, g = beast_of(state), gladiator_of(state)
    assert b is not None
    back = opposite(b.facing)
    rear = ahead(b.hex, back, 2)
    pose(g, rear, b.facing)
    assert strikable(b, g) == ("legs",)
    pose(g, ahead(b.hex, b.facing), back)
    assert strikable(b, g) == ("head", "arms")  # head and paws from the front
    side = add(b.hex, DIRECTIONS[(b.facing + 2) % 6])  # touching head and body
    pose(g, side, (b.facing + 5) % 6)
    assert strikable(b, g) == ("head", "chest", "groin", "arms", "legs")


def test_s28_6_2_beast_never_turns_to_face_an_attacker() -> None:
    state = hunt("lion")
    b, g = beast_of(state), gladiator_of(state)
    assert b is not None
    pose(g, ahead(b.hex, opposite(b.facing), 2), b.facing)  # right behind its body
    facing = b.facing
    events: list[dict[str, Any]] = []
    assert engage(state, events)
    assert b.facing == facing and not b.may_attack
    assert g.may_attack and g.pa == 1  # T24: +1 behind
    d = allocation_choice(g, state)
    open_attacks = {s.name for s in d.slots if s.name.startswith("A-") and s.maximum}
    assert open_attacks == {"A-LEGS"}  # only the areas T24 allows are offered


def test_s28_6_gladiator_turns_to_face_a_beast_attacking_from_his_side() -> None:
    state = hunt("lion")
    b, g = beast_of(state), gladiator_of(state)
    assert b is not None
    pose(g, ahead(b.hex, b.facing), (b.facing + 1) % 6)  # in its front, the beast at his side
    engage(state, [])
    assert g.facing == opposite(b.facing) and g.pa == 0  # E1: turned, no PA


def test_s28_6_1_1_q38_attacks_split_evenly_earliest_first() -> None:
    state = hunt("lion")
    b = beast_of(state)
    assert b is not None
    b.available = 14
    # 1D3 = 3 attacks; areas 6 (re-rolled), 1, 1, 2: head gets 5 + 5, chest 4
    dice = ScriptedDice(("§28.6.1.1", 5), *[("§28.6.1.1", f) for f in (6, 1, 1, 2)])
    assert beast_attacks(b, dice, []) == (("head", 10), ("chest", 4))


def test_s28_6_1_reared_bear_strikes_only_head_chest_paws() -> None:
    state = hunt("bear")
    b = beast_of(state)
    assert b is not None and b.beast is not None
    beast_moves(state, b, (0, 0), ScriptedDice(("§28.4.1", (1, 1))), [])
    b.available = 12
    dice = ScriptedDice(("§28.6.1.1", 1), ("§28.6.1.1", 3), ("§28.6.1.1", 5), ("§28.6.1.1", 4))
    assert beast_attacks(b, dice, []) == (("arms", 12),)  # 3, 5 re-rolled; 12 CF on one (B7)


def test_s28_6_1_reared_bear_plus_four_cf_and_t11_pa() -> None:
    state = hunt("bear")
    b, g = beast_of(state), gladiator_of(state)
    assert b is not None
    beast_moves(state, b, (0, 0), ScriptedDice(("§28.4.1", (1, 1))), [])
    pose(g, ahead(b.hex, b.facing), opposite(b.facing))
    engage(state, [])
    assert b.available == 12 + 4
    assert len(strikable(b, g)) == 5 and g.pa == 0  # a gladiator face to face


def test_s28_6_3_t25_beast_criticals_not_t9() -> None:
    assert t25_critical("head", 10) == ("V",)
    assert t25_critical("arms", 15) == ("SA", "M")  # area 4 is the paws
    assert t25_critical("legs", 13) == ("LMP",)


def test_s28_6_1_2_s_results_against_a_beast_become_h() -> None:
    seen = 0
    for roll in range(3, 19):
        state = hunt("lion")
        b, g = beast_of(state), gladiator_of(state)
        assert b is not None
        pose(g, ahead(b.hex, b.facing), opposite(b.facing))
        faces = (roll - 12, 6, 6) if roll > 12 else ((1, 1, roll - 2) if roll > 8 else (1, 1, 1))
        if sum(faces) != roll or min(faces) < 1:
            continue
        dice = RiggedDice(7, {"§28.4.1": [(6, 6)], "§9.5": [faces], "§28.6.1.1": [1, 5]})
        RULES.apply(state, {"red": "X"}, dice)
        if state.step != "allocate":
            continue
        events = RULES.apply(state, {"red": "A-HEAD:6"}, dice)
        texts = [e["text"] for e in events]
        assert not of_type(events, "shield_damage")
        if any("§28.6.1.2" in t for t in texts):
            seen += 1
            assert any("wound roll" in t for t in texts)
    assert seen  # some roll gave an S-type that became an H


# --- whole matches ------------------------------------------------------------------------------
def _random_match(kind: str, seed: int) -> Match:
    opts = {"advanced": True, "beasts": f"blue:{kind}", "styles": "red:venator"}
    m = Match(RULES, opts, seed=seed, nonce="beast")
    bot = make_bot("random")
    rng = random.Random(seed)
    while not m.finished:
        m.apply_step({s: bot.choose(RULES, m.state, s, d, rng) for s, d in m.pending().items()})
    return m


@pytest.mark.parametrize("kind", KINDS)
def test_s28_seeded_beast_match_ends_and_replays(kind: str) -> None:
    m = _random_match(kind, 11)
    out = m.outcome
    assert out is not None and out.method in ("killed", "incapacitated", "time")
    again = Match.replay(m.record(), RULES)
    assert again.outcome == out
    scene = RULES.scene(m.state, None)
    (beast,) = [f for f in scene["figures"] if f.get("kind") == "beast"]
    assert beast["beast"] == kind and len(beast["hexes"]) == (1 if kind == "wolf" else 2)


def test_s28_sim_batch_with_the_default_bot_finishes() -> None:
    opts = {"advanced": True, "beasts": "blue:lion", "styles": "red:bestiarius"}
    for seed in range(6):
        s = play_match("colosseum", opts, seed, ["tactician"])
        assert s.method and s.labels["blue"] == "beast/Lion"
