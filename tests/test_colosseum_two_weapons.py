"""§24 two-handed fighting, a weapon in each hand (Advanced Game): the pair's CF bonus and Spd
(§24.2.1, §24.2.2, A15, F9), each attack's own weapon (Q44, F9), the −2 drop DRM of an untrained
pair, §24.3's conversions in both readings (option `two_weapon_results`, F11), and the pairs
§24.4 forbids (A23)."""

from __future__ import annotations

from typing import Any

from colosseum_helpers import RiggedDice, of_type, play
from colosseum_styles_helpers import HERE, arena, to_combat
from gladiator.rules.colosseum.kit.weapons import may_pick_up
from gladiator.rules.colosseum.state import GroundItem

CRT = "§9.5.1"


def available(events: list[dict[str, Any]], seat: str) -> dict[str, Any]:
    return next(e for e in of_type(events, "available") if e["seat"] == seat)


def test_s24_2_1_a_dimachaeri_with_two_swords_gets_plus_4_cf_and_minus_1_spd() -> None:
    """§24.2.1: CF 13 + 4 = 17 available; two attacks strike in rounds 1 and 3 (T10's 2 and 4,
    −1 Spd)."""
    state = arena("dimachaeri", "secutor")
    events = to_combat(state)
    assert state.gladiators["red"].available == 17
    assert "two weapons +4 (§24.2.1)" in available(events, "red")["text"]
    events = play(
        state, RiggedDice(1, {CRT: [(1, 1, 3), (1, 1, 3)]}), red="A2:head A2:chest", blue="D5:arms"
    )
    assert [e["round"] for e in of_type(events, "crt") if e["side"] == 0] == [1, 3]


def test_s24_2_1_with_two_different_weapons_only_plus_2_and_each_keeps_its_spd() -> None:
    """§24.2.1, A15, Q44, F9: sword and axe: +2 CF; his first attack is the sword's (round 2),
    his second the axe's (+1: round 5)."""
    state = arena("dimachaeri", "secutor", weapons=("sword,axe", ""))
    to_combat(state)
    assert state.gladiators["red"].available == 15
    events = play(
        state, RiggedDice(1, {CRT: [(1, 1, 3), (1, 1, 3)]}), red="A2:head A2:chest", blue="D5:arms"
    )
    assert [e["round"] for e in of_type(events, "crt") if e["side"] == 0] == [2, 5]


def test_s24_2_1_a_pair_of_daggers_halves_every_attack_and_strikes_two_rounds_early() -> None:
    """F9, F10: two daggers: −1 (dagger) −1 (pair) Spd, half CF each: 4 CF → 2, round 3 − 2 = 1."""
    state = arena("dimachaeri", "secutor", weapons=("dagger,dagger", ""))
    to_combat(state)
    events = play(state, RiggedDice(1, {CRT: [(1, 1, 3)]}), red="A4:head", blue="D5:arms")
    (attack,) = [e for e in of_type(events, "crt") if e["side"] == 0]
    assert attack["round"] == 1 and "2 CF against 0" in attack["text"]


def test_s24_2_2_anyone_else_with_two_identical_weapons_gets_plus_2_and_a_worse_drop_roll() -> None:
    """§24.2.2: a Myrmillo without a shield with two swords: +2 CF; a P against him (column 4,
    8) has a −2 drop DRM: 3D6 9 − 4 − ST 2 − 0 − 2 = 1: kept; 3D6 8 gives 0: he drops one of
    the pair (without the −2 he would keep it, 2) and fights on with the other (F5)."""
    state = arena("myrmillo", "secutor")
    red = state.gladiators["red"]
    red.has_shield, red.weapons = False, ("sword", "sword")
    events = to_combat(state)
    assert red.available == 15 and "+2 (§24.2.2)" in available(events, "red")["text"]
    dice = RiggedDice(1, {CRT: [(2, 3, 3)], "§13.1.1": [(3, 3, 3)]})
    play(state, dice, red="D5:arms", blue="A4:groin")
    assert red.weapons == ("sword", "sword")
    state = arena("myrmillo", "secutor")
    red = state.gladiators["red"]
    red.has_shield, red.weapons = False, ("sword", "sword")
    to_combat(state)
    dice = RiggedDice(1, {CRT: [(2, 3, 3)], "§13.1.1": [(3, 3, 2)], "§13.2.1": [1], "§13.2.2": [1]})
    play(state, dice, red="D5:arms", blue="A4:groin")
    assert red.weapons == ("sword",) and red.has_weapon
    assert [(i.item, i.kind) for i in state.items] == [("weapon", "sword")]


def test_s24_3_a_pair_wielders_shield_hits_are_parries_and_his_p_star_a_body_hit() -> None:
    """§24.3 (F11, "defence"): against the Dimachaeri, an S (column 4, 6) is a P and a P* (10)
    an H, as a man without a shield takes them (§9.6)."""
    state = arena("secutor", "dimachaeri")
    to_combat(state)
    dice = RiggedDice(1, {CRT: [(1, 2, 3)], "§13.1.1": [(6, 6, 6)]})
    events = play(state, dice, red="A4:groin", blue="D5:arms")
    assert any("S becomes P" in e["text"] for e in of_type(events, "conversion"))
    state = arena("secutor", "dimachaeri")
    to_combat(state)
    dice = RiggedDice(1, {CRT: [(3, 3, 4)], "§10.1": [(1, 1, 1, 1, 1)]})
    events = play(state, dice, red="A4:groin", blue="D5:arms")
    assert any("P* becomes H" in e["text"] for e in of_type(events, "conversion"))


def test_s24_3_read_as_his_attacks_the_pair_shifts_his_results() -> None:
    """F11, option two_weapon_results = "attack": the Dimachaeri's S against a shield is a P (a
    drop roll, no shield damage); by default it stays a shield hit."""
    for reading, parried in (("attack", True), ("defence", False)):
        state = arena("dimachaeri", "secutor", two_weapon_results=reading)
        to_combat(state)
        dice = RiggedDice(1, {CRT: [(1, 2, 3)], "§13.1.1": [(6, 6, 6)], "§12.2": [(1, 1)]})
        events = play(state, dice, red="A4:groin", blue="D5:arms")
        assert bool(of_type(events, "drop_roll")) is parried, reading
        assert bool(of_type(events, "shield_damage_roll")) is not parried, reading


def test_s24_4_two_handed_weapons_and_flails_are_never_one_of_a_pair() -> None:
    """§24.4, A23, F6: a Dimachaeri with one sword may take up an axe, not a maul, pike, spear or
    flail."""
    state = arena("dimachaeri", "secutor")
    red = state.gladiators["red"]
    red.weapons = ("sword",)
    for kind, ok in (("axe", True), ("maul", False), ("pike", False), ("spear", False)):
        assert may_pick_up(red, GroundItem("weapon", "blue", HERE, kind=kind)) is ok, kind
    assert not may_pick_up(red, GroundItem("weapon", "blue", HERE, kind="flail"))
