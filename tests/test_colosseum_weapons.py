"""§21 optional weapons and the trident (§20.9) in combat (Advanced Game): Spd (§9.4.5), reach and
the combat front (§6.2, §9.1, F8), the halvings (F10), the weapon notes (F12-F14), breakage (A10,
F7), throws (§13.3, A9) and what a lost weapon leaves (F5, F6). Every probe is a duel set up by
hand with the dice that decide it scripted."""

from __future__ import annotations

from typing import Any

from colosseum_helpers import RiggedDice, ScriptedDice, of_type, place, play
from colosseum_styles_helpers import HERE, arena, to_combat
from gladiator.core.hexgrid import neighbor
from gladiator.rules.colosseum.combat.allocation import allocation_choice
from gladiator.rules.colosseum.combat.engage import engage
from gladiator.rules.colosseum.combat.sequence import attack_schedule
from gladiator.rules.colosseum.combat.weapon_combat import break_check, front_region
from gladiator.rules.colosseum.kit.weapons import BROKEN, BROKEN_TRIDENT, may_pick_up, weapon
from gladiator.rules.colosseum.state import GroundItem

CRT = "§9.5.1"


def crt(events: list[dict[str, Any]], side: int = 0) -> list[dict[str, Any]]:
    return [e for e in of_type(events, "crt") if e["side"] == side]


def texts(events: list[dict[str, Any]]) -> str:
    return "\n".join(e["text"] for e in events)


# --- Spd (§9.4.5) ---------------------------------------------------------------------------------


def test_s9_4_5_an_axe_making_two_attacks_strikes_in_rounds_3_and_5() -> None:
    """§9.4.5 EXAMPLE: +1 Spd shifts T10's rounds 2, 4 to 3, 5; in a duel the axe-armed
    Myrmillo's head and chest attacks come in rounds 3 and 5."""
    assert attack_schedule(2, 1) == (3, 5)
    state = arena("myrmillo", "secutor", weapons=("axe", ""))
    to_combat(state)
    events = play(
        state, RiggedDice(1, {CRT: [(1, 1, 3), (1, 1, 3)]}), red="A2:head A2:chest", blue="D5:arms"
    )
    assert [e["round"] for e in crt(events)] == [3, 5]


def test_s21_3_a_dagger_strikes_a_round_earlier_at_half_cf() -> None:
    """§21.3, F10: a Myrmillo's dagger: one attack in round 2 (3 − 1), its 6 CF halved to 3."""
    state = arena("myrmillo", "secutor", weapons=("dagger", ""))
    to_combat(state)
    events = play(state, RiggedDice(1, {CRT: [(1, 1, 2)]}), red="A6:groin", blue="D5:arms")
    (attack,) = crt(events)
    assert attack["round"] == 2 and "3 CF against 0 defence" in attack["text"]
    assert "the dagger" in of_type(events, "half_cf")[0]["text"]


# --- reach (§6.2, §9.1, §20.9.1, §21.7-§21.9, F8) -------------------------------------------------


def test_s21_9_a_pike_cannot_strike_at_range_1_but_defends_as_normal() -> None:
    """§21.9 EXAMPLE: a Cataphractarius toe to toe with a Secutor may not attack (his allocation
    has no attack slot) but defends; the Secutor attacks him."""
    state = arena("cataphractarius", "secutor", sand_reach="weapon")  # S10: no sand either
    to_combat(state)
    red, blue = state.gladiators["red"], state.gladiators["blue"]
    assert (red.may_attack, blue.may_attack) == (False, True)
    # the allocation decision caps every attack slot at 0
    slots = {s.name: s.maximum for s in allocation_choice(red).slots}
    assert all(v == 0 for k, v in slots.items() if k.startswith("A-"))
    assert slots["D-HEAD"] > 0


def test_s21_9_a_pike_reaches_2_and_3_hexes_but_no_further() -> None:
    """§21.9, T40: the pike's front is the 15-hex front: range 2 and 3 straight ahead, not 4."""
    for gap, able in ((2, True), (3, True), (4, False)):
        state = arena("cataphractarius", "secutor", gap=gap, sand_reach="weapon")  # S10
        events = to_combat(state)
        assert state.gladiators["red"].may_attack is able, gap
        assert not state.gladiators["blue"].may_attack  # the sword reaches 1 only
        if not able:
            assert state.step == "plot" and not of_type(events, "available")


def test_s21_7_a_scimitar_reaches_2_hexes_at_half_cf_and_1_hex_at_full() -> None:
    """§21.7, F10: the Thracian's 6-CF attack is halved at range 2, whole at range 1; +1 Spd
    puts his single attack in round 4."""
    for gap, shown in ((2, "3 CF against 0"), (1, "6 CF against 0")):
        state = arena("thracian", "secutor", gap=gap)
        to_combat(state)
        assert front_region(state.gladiators["red"]) == "two_hex"
        events = play(state, RiggedDice(1, {CRT: [(1, 1, 2)]}), red="A6:groin", blue="D5:arms")
        (attack,) = crt(events)
        assert shown in attack["text"] and attack["round"] == 4, gap


def test_s9_1_2_a_long_weapon_turns_a_defender_struck_from_two_hexes_behind() -> None:
    """§9.1.2, F8: a Hoplomachus two hexes behind a Secutor who faces away may strike him with
    his spear: the Secutor turns to face him (forced rotation), the spearman keeps the PA of the
    hex he struck from (T11 straight behind at range 2: +6) and the Secutor gets none and cannot
    strike back (his sword reaches 1 hex)."""
    state = arena("hoplomachus", "secutor", gap=2, sand_reach="weapon")  # F8 alone
    blue = state.gladiators["blue"]
    blue.facing = 0  # facing away from red, who stands two hexes behind him
    events = to_combat(state)
    (turn,) = of_type(events, "forced_rotation")
    red = state.gladiators["red"]
    assert blue.facing == 3 and turn["seat"] == "blue"
    assert (red.may_attack, red.pa, blue.may_attack, blue.pa) == (True, 6, False, 0)


def test_s9_1_2_the_defenders_own_long_front_decides_whether_he_turns() -> None:
    """§9.1.2, F8: the defender turns only if the attacker is outside *his* combat front, which
    his weapon sets. A Hoplomachus two hexes off at the left-front of a Prone man (who cannot
    strike back, §16.3) who faces 3: red is at that man's FL2. A Prone Hoplomachus there holds
    red in his spear's 2-hex front and keeps his facing; a Prone Secutor, whose sword's front is
    the 1-hex front, is turned to face red (facing 2)."""
    spot = neighbor(neighbor(HERE, 5), 5)  # red's FL2, so red is at its FL2 when it faces 3
    for blue_style, facing, turned in (("hoplomachus", 3, False), ("secutor", 2, True)):
        state = arena("hoplomachus", blue_style, sand_reach="weapon")  # F8 alone
        place(state, blue=(spot, 3))
        blue = state.gladiators["blue"]
        blue.posture = "prone"
        events: list[dict[str, Any]] = []
        assert engage(state, events)
        assert state.gladiators["red"].may_attack and not blue.may_attack
        assert (blue.facing, bool(of_type(events, "forced_rotation"))) == (facing, turned)


def test_s20_9_1_the_trident_reaches_the_2_hex_front() -> None:
    """§20.9.1: a Retiarius strikes a Secutor two hexes ahead; the Secutor cannot answer."""
    state = arena("retiarius", "secutor", gap=2, sand_reach="weapon")  # F8 alone
    to_combat(state)
    assert (state.gladiators["red"].may_attack, state.gladiators["blue"].may_attack) == (
        True,
        False,
    )


# --- halvings of one-handed two-handed weapons (§20.9.2, §21.10.1, F10) ---------------------------


def test_s20_9_2_the_trident_is_at_half_cf_while_he_holds_the_net() -> None:
    """§20.9.2 (the net's own rules are §20's): with the net in hand every trident attack is at
    half CF; without net and shield (both hands on the shaft) at full CF."""
    for net, shown in ((True, "3 CF against 0"), (False, "6 CF against 0")):
        state = arena("retiarius", "secutor")
        state.gladiators["red"].net = net
        to_combat(state)
        events = play(state, RiggedDice(1, {CRT: [(1, 1, 2)]}), red="A6:groin", blue="D5:arms")
        assert shown in crt(events)[0]["text"], net


def test_s21_10_1_a_hoplomachus_uses_his_spear_one_handed_with_his_small_shield() -> None:
    """§19.4.1, §21.10.1: spear with a shield: half CF; the spear has no Spd (round 3)."""
    state = arena("hoplomachus", "secutor")
    to_combat(state)
    events = play(state, RiggedDice(1, {CRT: [(1, 1, 2)]}), red="A6:groin", blue="D5:arms")
    (attack,) = crt(events)
    assert "3 CF against 0" in attack["text"] and attack["round"] == 3
    assert "one-handed, with a shield" in of_type(events, "half_cf")[0]["text"]


# --- the notes (§21.2, §21.4, §21.8, §21.9; F12, F13) ---------------------------------------------


def test_s21_2_the_axe_adds_2_to_the_wound_roll() -> None:
    """§21.2: column 4, roll 15: H; WHITE 3+3+3 = 9 + 2 (axe) on the bare groin: 11, 2 wounds."""
    state = arena("myrmillo", "secutor", weapons=("axe", ""))
    to_combat(state)
    dice = RiggedDice(1, {CRT: [(5, 5, 5)], "§10.1": [(3, 3, 3, 1, 1)]})
    events = play(state, dice, red="A4:groin", blue="D5:arms")
    (roll,) = of_type(events, "wound_roll")
    assert "weapon +2" in roll["text"] and "→ 11" in roll["text"]
    assert state.gladiators["blue"].sheet.wounds_in("groin") == 2


def test_s21_4_a_flail_against_a_shield_turns_a_shield_hit_into_a_parry() -> None:
    """§21.4, F12: column 4, roll 6 is an S; the flail moves it two steps to P: a weapon-drop
    roll for the Secutor, and no shield damage roll at all."""
    state = arena("myrmillo", "secutor", weapons=("flail", ""))
    to_combat(state)
    dice = RiggedDice(1, {CRT: [(1, 2, 3)], "§13.1.1": [(6, 6, 6)]})
    events = play(state, dice, red="A4:groin", blue="D5:arms")
    (shift,) = [e for e in of_type(events, "conversion") if e["rule"] == "§21.4"]
    assert "S becomes P" in shift["text"]
    assert of_type(events, "drop_roll") and not of_type(events, "shield_damage_roll")
    assert state.gladiators["blue"].sheet.shield_marked == 0


def test_s21_4_the_flail_shifts_the_result_before_the_defenders_kit_converts_it() -> None:
    """F12: against a Dimachaeri (two swords, no shield) an S is shifted to P by the flail and he
    parries it: a drop roll, no wound. (Converting first, S→P for no shield, then shifting P→H,
    would wound him.) An S* goes to P*, which his missing shield makes an H (§9.6)."""
    state = arena("myrmillo", "dimachaeri", weapons=("flail", ""))
    to_combat(state)
    dice = RiggedDice(1, {CRT: [(1, 2, 3)], "§13.1.1": [(6, 6, 6)]})
    events = play(state, dice, red="A4:groin", blue="D5:arms")
    assert of_type(events, "drop_roll") and not of_type(events, "wound_roll")
    state = arena("myrmillo", "dimachaeri", weapons=("flail", ""))
    to_combat(state)
    dice = RiggedDice(1, {CRT: [(1, 2, 4)], "§10.1": [(1, 1, 1, 1, 1)]})  # column 4, 7: S*
    events = play(state, dice, red="A4:groin", blue="D5:arms")
    conv = [e["text"] for e in of_type(events, "conversion")]
    assert any("S* becomes P*" in t for t in conv) and any("P* becomes H" in t for t in conv)
    assert of_type(events, "wound_roll")


def test_s21_8_1_a_maul_hit_also_stuns() -> None:
    """§21.8.1, F13: column 4, roll 15: H; WHITE 9 on the bare groin, 1 wound; then 2D6 11 on
    T7's Stun row: Stun 3. The maul is two-handed and the Gallus left his shield (F2): full CF."""
    state = arena("gallus", "secutor", weapons=("maul", ""))
    assert not state.gladiators["red"].has_shield
    to_combat(state)
    dice = RiggedDice(1, {CRT: [(5, 5, 5)], "§10.1": [(3, 3, 3, 1, 1)], "§21.8.1": [(6, 5)]})
    events = play(state, dice, red="A4:groin", blue="D5:arms")
    blue = state.gladiators["blue"].sheet
    assert blue.wounds_in("groin") == 1 and blue.stun_in_effect == 3
    assert "4 CF against 0" in crt(events)[0]["text"]
    assert crt(events)[0]["round"] == 5  # T10 round 3, +2 Spd (§21.8.3)


def test_s21_8_the_maul_adds_3_to_his_st_in_a_shield_hit() -> None:
    """§21.8, F13: an S (column 4, roll 6): shield damage 2D6 + ST 2 + 3 (maul) + modified CF 4."""
    state = arena("gallus", "secutor", weapons=("maul", ""))
    to_combat(state)
    dice = RiggedDice(1, {CRT: [(1, 2, 3)], "§12.2": [(1, 1)]})
    events = play(state, dice, red="A4:groin", blue="D5:arms")
    (roll,) = of_type(events, "shield_damage_roll")
    assert "attacker ST 5 + modified CF 4 = 11" in roll["text"]


def test_s21_9_the_pike_adds_6_to_the_shield_damage_roll() -> None:
    """§21.9: two hexes off, column 4, roll 6: S; 2D6 2 + ST 2 + modified CF 4 + 6 = 14."""
    state = arena("cataphractarius", "secutor", gap=2)
    to_combat(state)
    dice = RiggedDice(1, {CRT: [(1, 2, 3)], "§12.2": [(1, 1)]})
    events = play(state, dice, red="A4:groin", blue="D5:arms")
    (roll,) = of_type(events, "shield_damage_roll")
    assert "+6 (§21.9) = 14" in roll["text"]


# --- breakage (§20.9.3, §21.6.1, A10, F7, F14) ----------------------------------------------------


def test_s21_6_1_a_velites_javelin_breaks_when_he_parries_with_weapon_and_shield() -> None:
    """§21.6.1, A10 (a): the Secutor's attack comes out P* (column 4, 10) against the Velite: 2D6
    2 + 2 + the Secutor's ST 2 = 6 > 5: the javelin breaks, useless: no drop roll, nothing on the
    floor, and his next javelin comes to hand (F5)."""
    state = arena("velite", "secutor")
    to_combat(state)
    dice = RiggedDice(1, {CRT: [(3, 3, 4)], "§21.6": [(2, 2)]})
    events = play(state, dice, red="D5:arms", blue="A4:groin")
    red = state.gladiators["red"]
    assert "it breaks" in of_type(events, "break_check")[0]["text"]
    assert not of_type(events, "drop_roll") and not state.items
    assert red.weapons == ("javelin",) and len(red.spare) == 4 and red.has_weapon
    # 2D6 1 + 1 + 2 = 4 is not above 5: it holds, and the drop roll follows.
    state = arena("velite", "secutor")
    to_combat(state)
    dice = RiggedDice(1, {CRT: [(3, 3, 4)], "§21.6": [(1, 1)], "§13.1.1": [(6, 6, 6)]})
    events = play(state, dice, red="D5:arms", blue="A4:groin")
    assert "it holds" in of_type(events, "break_check")[0]["text"] and of_type(events, "drop_roll")


def test_s20_9_3_a_trident_without_a_shield_never_sees_a_p_star() -> None:
    """§9.6, Q52: a Retiarius has no shield, so a P* against him is an H and no break is
    checked (column 4, 10: P* → H)."""
    state = arena("secutor", "retiarius")
    to_combat(state)
    dice = RiggedDice(1, {CRT: [(3, 3, 4)], "§10.1": [(1, 1, 1, 1, 1)]})
    events = play(state, dice, red="A4:groin", blue="D5:arms")
    assert not of_type(events, "break_check") and of_type(events, "wound_roll")


def test_s20_9_3_a_broken_trident_falls_and_works_at_1_hex_on_5_or_6() -> None:
    """§20.9.3.1, §20.9.3.2, F7: 2D6 6 + 6 + ST 0 > 11 breaks it; 1D6 5: the piece works, and
    falls as a dropped weapon; 1D6 4: useless. The piece reaches the 1-hex front only."""
    state = arena("retiarius", "secutor")
    red = state.gladiators["red"]
    events: list[dict[str, Any]] = []
    dice = ScriptedDice(("§20.9", (6, 6)), ("§20.9.3.2", 5))
    assert break_check(red, 0, dice, events) == (BROKEN_TRIDENT, True)
    dice = ScriptedDice(("§20.9", (6, 6)), ("§20.9.3.2", 4))
    assert break_check(red, 0, dice, events) == (BROKEN, False)
    dice = ScriptedDice(("§20.9", (6, 5)))
    assert break_check(red, 0, dice, events) is None  # 11 is not above 11
    assert weapon(BROKEN_TRIDENT).reach == 1 and weapon("trident").reach == 2


# --- throws (§13.3, T19, A9) ----------------------------------------------------------------------


def test_s13_3_a_javelin_is_thrown_with_thr_6_and_hits_on_crt_7() -> None:
    """§13.3, T19 (A9, I3): a Velite four hexes off throws a javelin: 1D6 1 + Thr 6 = 7 > 4, it
    hits; read on CRT column 7 (§13.3.1.1). His next javelin is in his hand at once (F5)."""
    state = arena("velite", "secutor", gap=4)
    dice = RiggedDice(1, {"§13.3": [1], "§13.3.1.1": [2, (1, 1, 1)]})
    events = play(state, dice, red="X +TW-HEAD", blue="X")
    (throw,) = [e for e in of_type(events, "throw") if e.get("hit")]
    assert "1D6 1 + Thr 6 = 7" in throw["text"]
    assert "column 7" in of_type(events, "crt")[0]["text"]
    red = state.gladiators["red"]
    assert red.weapons == ("javelin",) and len(red.spare) == 4
    assert state.items == [
        GroundItem("weapon", "red", state.gladiators["blue"].hex, kind="javelin")
    ]


# --- a weapon lost, a weapon found (F5, F6) -------------------------------------------------------


def test_w5_a_hoplomachus_draws_his_sword_when_the_spear_is_gone() -> None:
    """F5: a P (column 4, 8) makes the Hoplomachus drop his spear (3D6 3 − 4 − 2 < 1); the sword
    comes to hand at once: he is still armed, and the spear lies on the sand."""
    state = arena("hoplomachus", "secutor")
    to_combat(state)
    dice = RiggedDice(1, {CRT: [(2, 3, 3)], "§13.1.1": [(1, 1, 1)], "§13.2.1": [1], "§13.2.2": [1]})
    events = play(state, dice, red="D5:arms", blue="A4:groin")
    red = state.gladiators["red"]
    assert red.weapons == ("sword",) and red.spare == () and red.has_weapon
    assert [(i.item, i.kind) for i in state.items] == [("weapon", "spear")]
    assert of_type(events, "item_lost")


def test_w6_what_a_gladiator_may_pick_up() -> None:
    """F6, §24.2.2, §24.4: a swordsman without a shield may take up a second sword (a pair) but
    not an axe (untrained: identical only); a Dimachaeri with one sword may take up an axe but not
    a maul; a man with a shield and a sword takes no second weapon; a Velite takes up javelins
    into his stock; a style without a shield never takes one up."""
    here = HERE
    sword = GroundItem("weapon", "blue", here, kind="sword")
    axe = GroundItem("weapon", "blue", here, kind="axe")
    maul = GroundItem("weapon", "blue", here, kind="maul")
    shield = GroundItem("shield", "blue", here)
    state = arena("myrmillo", "dimachaeri")
    red, blue = state.gladiators["red"], state.gladiators["blue"]
    assert not may_pick_up(red, sword)  # sword and shield in his hands
    red.has_shield = False
    assert may_pick_up(red, sword) and not may_pick_up(red, axe)
    blue.weapons = ("sword",)
    assert may_pick_up(blue, axe) and not may_pick_up(blue, maul)
    assert not may_pick_up(blue, shield)  # a Dimachaeri carries no shield
    state = arena("velite", "secutor")
    red = state.gladiators["red"]
    javelin = GroundItem("weapon", "red", here, kind="javelin")
    assert not may_pick_up(red, javelin)  # six already: one in hand, five carried
    red.spare = ("javelin",) * 4
    assert may_pick_up(red, javelin) and may_pick_up(red, sword) is False


def test_w5_a_thrown_sword_leaves_a_myrmillo_unarmed_who_may_then_strike_bare_handed() -> None:
    """F5, §23.1: with nothing carried, a thrown sword leaves him empty-handed; adjacent to his
    man he may still attack, unarmed (E4 gives way to §23 in the Advanced Game)."""
    state = arena("myrmillo", "secutor")
    blue = state.gladiators["blue"]
    place(state, blue=(neighbor(HERE, 0), 3))
    dice = RiggedDice(1, {"§13.3": [6], "§13.3.1.1": [2, (1, 1, 1)]})
    play(state, dice, red="X +TW-HEAD", blue="X")
    red = state.gladiators["red"]
    assert red.weapons == () and not red.has_weapon
    assert red.may_attack and blue.may_attack
