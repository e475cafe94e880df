"""§22 special attacks and defences (Advanced Game, T20, rulings S1-S10): the allocation offers them
with their prerequisites, one of each kind a phase; each T20 entry with rigged dice; the probes a
careless reading gets wrong; a seeded match of random bots in which they happen. Part 4 lists no
worked example or numeric note for §22: the numbers of the text (−(8 + 2 × H bonus), 4 CF + H
bonus, 2D6 + 2 × H bonus, 2D3 + H bonus, 2 CF) are each a test here."""

from __future__ import annotations

import random
from typing import Any

import pytest

from colosseum_helpers import RULES, RiggedDice, of_type, play
from colosseum_styles_helpers import arena, to_combat
from gladiator.bots import make_bot
from gladiator.core.decisions import Distribute, IllegalOrder, Slot, SlotGroup
from gladiator.core.match import Match
from gladiator.rules.colosseum.combat.allocation import allocation_choice
from gladiator.rules.colosseum.combat.cf_allocation import format_allocation, parse_allocation
from gladiator.rules.colosseum.options import ColosseumOptions
from gladiator.rules.colosseum.state import ColosseumState

CRT = "§9.5.1"
WOUND = "§10.1"
DROP = "§13.1.1"
SPECIAL = "§22.2"


def ready(red: str = "myrmillo", blue: str = "secutor", **options: Any) -> ColosseumState:
    """Red (bare, large shield, sword) toe to toe with blue (A5 B4 - B4 A3, large shield), both
    13 CF, at the allocation."""
    state = arena(red, blue, **options)
    to_combat(state)
    assert state.step == "allocate"
    return state


def crts(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return of_type(events, "crt")  # type: ignore[return-value]


def refusal(state: ColosseumState, seat: str, order: str) -> str:
    with pytest.raises(IllegalOrder) as exc:
        allocation_choice(state.gladiators[seat], state).validate(order)
    return str(exc.value)


# --- the allocation (§22.1-§22.3, S2) ------------------------------------------------------------


def test_s9_3_2_1_s22_2_the_code_letters_are_written_in_the_boxes() -> None:
    """S2: `A3:arms/A` (the short form, as the log sheet's box reads) and the slot form name the
    same allocation; the record keeps the slot form."""
    al = parse_allocation("A3:arms/A A2:head D2:head/D D1:legs", 13)
    assert al.special_attack == ("arms", "A") and al.special_defence == ("head", "D")
    assert format_allocation(al) == "A3:arms/A A2:head D2:head/D D1:legs"
    slots = format_allocation(al, "slots")
    assert slots == "A-ARMS-DISARM:3 A-HEAD:2 D-HEAD-DUCK:2 D-LEGS:1"
    assert parse_allocation(slots, 13) == al
    assert parse_allocation("A3:arms/DISARM", 13).special_attack == ("arms", "A")


def test_s22_2_each_special_attack_has_its_area_but_the_feint() -> None:
    state = ready()
    assert "arms box, not the head" in refusal(state, "red", "A3:head/A")
    assert "legs box" in refusal(state, "red", "A3:arms/S")
    for area in ("head", "chest", "groin", "arms", "legs"):
        assert allocation_choice(state.gladiators["red"], state).validate(f"A3:{area}/F")


def test_s22_1_one_special_attack_and_one_special_defence_a_phase() -> None:
    state = ready()
    assert "one special attack a phase" in refusal(state, "red", "A3:arms/A A3:legs/S")
    assert "one special defence a phase" in refusal(state, "red", "D2:head/D D2:legs/L")
    # one attack per area: a Disarm and a normal arms attack are two attacks on the arms
    assert "named twice" in refusal(state, "red", "A3:arms/A A2:arms")
    d = allocation_choice(state.gladiators["red"], state)
    assert d.validate("A3:arms/A D2:head/D") == "A-ARMS-DISARM:3 D-HEAD-DUCK:2"


def test_s9_3_3_1_s22_3_a_special_defence_takes_2_cf() -> None:
    """§22.3: "in place of a 2 CF defense": the box is worth 2 CF, counted in the budget and in
    §18.3's defence total; a Duck with 3 CF, or a 1-CF lot, is refused."""
    state = ready()
    d = allocation_choice(state.gladiators["blue"], state)
    assert d.validate("D2:head/D D11:chest")
    assert "only 13 are available" in refusal(state, "blue", "D2:head/D D12:chest")
    assert "2 CF there, not 3" in refusal(state, "blue", "D3:head/D")
    slot = next(s for s in d.slots if s.name == "D-HEAD-DUCK")
    assert (slot.maximum, slot.step) == (2, 2)
    play(state, RiggedDice(1, {}), red="-", blue="D2:head/D D3:chest")
    assert state.gladiators["blue"].defence_used == 5


def test_s22_3_no_special_defence_without_2_cf_of_defence() -> None:
    """§10.3.3: with 12 of his 13 CF from PA, 1 CF may defend: no special defence."""
    state = ready()
    blue = state.gladiators["blue"]
    blue.pa = 12
    assert "takes 2 CF of defence (§22.3)" in refusal(state, "blue", "D2:head/D")


def test_s22_basic_game_offers_no_specials() -> None:
    """S1: with `advanced` off, the decision is the Basic Game's, and a letter is refused."""
    state = arena("myrmillo", "secutor")
    state.options["advanced"] = False
    to_combat(state)
    d = allocation_choice(state.gladiators["red"], state)
    assert all(s.name.count("-") == 1 for s in d.slots)
    assert "Advanced Game rules" in refusal(state, "red", "A3:arms/A")


def test_s22_option_specials_off_leaves_them_out() -> None:
    state = ready(specials=False)
    assert all(s.name.count("-") == 1 for s in allocation_choice(state.gladiators["red"]).slots)
    assert "Advanced Game rules" in refusal(state, "red", "D2:head/D")


def test_s22_readings_are_advanced_game_options() -> None:
    with pytest.raises(ValueError, match="advanced = true"):
        ColosseumOptions(sand_loss="reference")
    assert ColosseumOptions(advanced=True, block_result="reference").block_result == "reference"


# --- prerequisites (§22.2, §22.3, S9) -------------------------------------------------------------


def test_s22_2_feint_needs_him_on_his_feet() -> None:
    state = ready()
    state.gladiators["red"].posture = "kneeling"
    assert "Feint (F) needs red to be on his feet (§22.2)" in refusal(state, "red", "A3:head/F")


def test_s22_2_shield_bash_needs_a_shield() -> None:
    state = ready()
    state.gladiators["red"].has_shield = False
    assert "Shield Bash (H) needs red a shield" in refusal(state, "red", "A3:chest/H")


def test_s22_2_sand_only_in_the_2_hex_front() -> None:
    """A pike reaches a man three hexes off (§21.9): he may attack him, but not with sand."""
    state = arena("cataphractarius", "secutor", gap=3)
    to_combat(state)
    assert state.gladiators["red"].may_attack
    assert "in red's 2-hex front" in refusal(state, "red", "A3:head/T")
    assert allocation_choice(state.gladiators["red"], state).validate("A3:head")


def test_s22_2_s10_sand_flies_two_hexes_of_its_own_whatever_he_holds() -> None:
    """S10: the reference sheet's "Sand (T): Head attack (Rch = 2-hex)" and the text's "The
    defender must be in within the 2-hex combat front of the attacker": Sand has a reach of its
    own. Two swordsmen two hexes apart come to a combat step, and each may throw sand, and only
    sand, at the other; a pikeman toe to toe (§21.9: no pike at range 1) may throw sand too."""
    spear = arena("hoplomachus", "secutor", gap=2)
    to_combat(spear)
    assert spear.step == "allocate" and spear.gladiators["red"].may_attack
    choice = allocation_choice(spear.gladiators["red"], spear)
    assert choice.validate("A3:head/T") == "A-HEAD-SAND:3"
    swords = arena("myrmillo", "secutor", gap=2)
    to_combat(swords)
    assert swords.step == "allocate"
    assert swords.gladiators["red"].may_attack and swords.gladiators["blue"].may_attack
    choice = allocation_choice(swords.gladiators["red"], swords)
    assert choice.validate("A3:head/T D4:chest") == "A-HEAD-SAND:3 D-CHEST:4"
    with pytest.raises(IllegalOrder):
        choice.validate("A3:head")  # his sword does not reach
    assert "within reach of red's weapon" in refusal(swords, "red", "A3:arms/A")
    pike = arena("cataphractarius", "secutor")
    to_combat(pike)
    assert allocation_choice(pike.gladiators["red"], pike).validate("A3:head/T")
    assert "within reach of red's weapon" in refusal(pike, "red", "A3:arms/A")


def test_s22_2_s10_sand_in_the_eyes_from_two_hexes() -> None:
    """S10 with S6: the swordsman's sand from two hexes off: column 3 against no head defence,
    17: H: blue loses 2D3 (scripted 2) + 0 CF for the rest of the phase."""
    swords = arena("myrmillo", "secutor", gap=2)
    to_combat(swords)
    dice = RiggedDice(1, {"§9.5.1": [(5, 6, 6)], "§22.2": [(2, 2)]})
    events = play(swords, dice, red="A3:head/T", blue="D5:chest")
    (sand,) = [e for e in of_type(events, "special_attack") if "sand in" in e["text"]]
    assert sand["amount"] == 2 and "2D3 2 +0 = 2" in sand["text"]


def test_s22_2_s10_sand_beyond_his_weapon_is_thrown_by_hand_at_full_cf() -> None:
    """S10: a dagger (§21.3: half CF, −1 Spd) does not reach two hexes; the sand thrown there
    comes from his hand, 4 CF whole in round 3, not the dagger's 2 in round 2."""
    state = arena("myrmillo", "secutor", gap=2, weapons=("dagger", ""))
    to_combat(state)
    dice = RiggedDice(1, {"§9.5.1": [(5, 6, 6)], "§22.2": [(2, 2)]})
    events = play(state, dice, red="A4:head/T", blue="D5:chest")
    (attack,) = crts(events)
    assert attack["round"] == 3 and "4 CF against 0 defence" in attack["text"]
    assert not of_type(events, "half_cf")


def test_s22_2_s10_option_weapon_sand_only_where_his_weapon_strikes() -> None:
    """S10, option sand_reach = "weapon": Sand goes only where a normal attack of his could, so
    two swordsmen two hexes apart have no combat step."""
    spear = arena("hoplomachus", "secutor", gap=2, sand_reach="weapon")
    to_combat(spear)
    assert allocation_choice(spear.gladiators["red"], spear).validate("A3:head/T")
    swords = arena("myrmillo", "secutor", gap=2, sand_reach="weapon")
    to_combat(swords)
    assert swords.step != "allocate"
    assert not swords.gladiators["red"].may_attack
    pike = arena("cataphractarius", "secutor", sand_reach="weapon")
    to_combat(pike)
    assert "red may not attack this phase" in refusal(pike, "red", "A3:head/T")


def test_s22_2_no_special_attack_when_he_may_not_attack() -> None:
    # the pike cannot strike at range 1, and sand goes only where it could (S10's option)
    state = arena("cataphractarius", "secutor", sand_reach="weapon")
    to_combat(state)
    assert "red may not attack this phase" in refusal(state, "red", "A3:arms/A")
    assert allocation_choice(state.gladiators["red"], state).validate("D2:head/D")


def test_s22_3_duck_not_while_stunned() -> None:
    state = ready()
    blue = state.gladiators["blue"]
    blue.sheet, _ = blue.sheet.with_stun(1, turn=1, phase=1)
    assert "Duck (D) needs blue not to be Stunned" in refusal(state, "blue", "D2:head/D")


def test_s22_3_block_needs_a_shield() -> None:
    state = ready()
    state.gladiators["blue"].has_shield = False
    assert "Block (B) needs blue a shield" in refusal(state, "blue", "D2:chest/B")


def test_s22_3_back_step_not_while_stumbling() -> None:
    state = ready()
    state.gladiators["blue"].stumbling = True
    assert "Back Step (K) needs blue not to be Stumbling" in refusal(state, "blue", "D2:groin/K")


def test_s22_3_parry_needs_a_weapon_and_fewer_than_3_cf_lost_from_the_arms() -> None:
    state = ready()
    blue = state.gladiators["blue"]
    blue.has_weapon = False
    assert "Parry (P) needs blue a weapon" in refusal(state, "blue", "D2:arms/P")
    blue.has_weapon = True
    blue.sheet, _ = blue.sheet.with_wounds("arms", 11)
    assert blue.sheet.cf_lost_to_wounds("arms") >= 3
    assert "fewer than 3 CF lost from the arms" in refusal(state, "blue", "D2:arms/P")


def test_s22_3_leap_needs_fewer_than_3_cf_lost_to_endurance() -> None:
    state = ready()
    blue = state.gladiators["blue"]
    assert allocation_choice(blue, state).validate("D2:legs/L")
    blue.sheet, _ = blue.sheet.with_endurance_loss(1, 3)
    assert "fewer than 3 CF lost from the endurance" in refusal(state, "blue", "D2:legs/L")


# --- the special attacks (§22.2, T20) -------------------------------------------------------------


def test_s22_2_disarm_an_h_is_a_p_with_drop_drm_minus_8_plus_twice_the_h_bonus() -> None:
    """Probe: H+2 on a Disarm wounds nobody; the drop roll gets −(8 + 2 × 2) = −12: 18 − 8 − ST
    2 − 12 = −4 drops the weapon that an ordinary P (18 − 10 = 8) would leave in his hand."""
    state = ready()
    dice = RiggedDice(1, {CRT: [(5, 5, 5)], DROP: [(6, 6, 6)]})
    events = play(state, dice, red="A8:arms/A", blue="-")
    assert crts(events)[0]["result"] == "H+2"
    assert WOUND not in dice.rules()
    (drop,) = of_type(events, "drop_roll")
    assert drop["drm"] == -12 and "drops his weapon" in drop["text"]
    assert not state.gladiators["blue"].has_weapon


def test_s22_2_disarm_with_a_negative_h_bonus() -> None:
    """S8: H−2 gives −(8 − 4) = −4: 17 − 8 − 2 − 4 = 3, he keeps it."""
    state = ready()
    dice = RiggedDice(1, {CRT: [(1, 3, 3)], DROP: [(6, 6, 5)]})
    events = play(state, dice, red="A8:arms/A", blue="-")
    assert crts(events)[0]["result"] == "H-2"
    assert of_type(events, "drop_roll")[0]["drm"] == -4
    assert state.gladiators["blue"].has_weapon


def test_s22_2_feint_no_damage_then_a_counter_with_4_cf_plus_the_h_bonus() -> None:
    """S4: 8 CF against 1, H+2: no wound from the feint; 6 CF at once on the least defended
    area (the arms)."""
    state = ready()
    dice = RiggedDice(1, {CRT: [(6, 5, 5), (1, 1, 1)]})
    events = play(state, dice, red="A8:head/F", blue="D1:head D3:chest D3:groin D3:legs")
    (counter,) = of_type(events, "feint_counter")
    assert (counter["area"], counter["cf"]) == ("arms", 6)
    first, second = crts(events)
    assert first["result"] == "H+2" and "Feint (F)" in first["text"]
    assert "6 CF against 0 defence" in second["text"]
    assert second["result"] == "S"  # the counter is an attack like any other: a shield hit
    assert WOUND not in dice.rules()


def test_s22_2_feint_counter_avoids_a_duck() -> None:
    """S4: the head has no defence CF but a Duck: the counter goes to the next-weakest area."""
    state = ready()
    dice = RiggedDice(1, {CRT: [(5, 5, 5), (1, 1, 1)]})
    events = play(state, dice, red="A8:chest/F", blue="D2:head/D D3:chest D3:groin D3:arms")
    assert of_type(events, "feint_counter")[0]["area"] == "legs"


def test_s22_2_feint_other_results_are_normal() -> None:
    state = ready()
    events = play(state, RiggedDice(1, {CRT: [(1, 2, 3)]}), red="A8:chest/F", blue="-")
    assert crts(events)[0]["result"] == "P*" and not of_type(events, "feint_counter")


def test_s22_2_sweep_half_damage_and_a_stumble_check_less_the_h_bonus() -> None:
    """H+2 on the legs (A3 missed: BLACK 4): WHITE 14 + 2 = 16, 5 wounds, the critical roll's
    deep cut (RED 1 + BLACK 4 + 5 = 10: "1") makes 6, halved to 3 (S5); then 1D6 2 − 0 Stun − 2
    = 0, below 1: he must Stumble."""
    state = ready()
    dice = RiggedDice(1, {CRT: [(5, 5, 5)], WOUND: [(5, 5, 4, 4, 1)], "§15.2.1": [2]})
    events = play(state, dice, red="A8:legs/S", blue="-")
    (half,) = of_type(events, "half_damage")
    assert "6 → 3 wounds" in half["text"]
    assert state.gladiators["blue"].sheet.wounds_in("legs") == 3
    (check,) = [e for e in of_type(events, "stumble_check") if e["rule"] == SPECIAL]
    assert check["stumbled"] and "-2 = 0" in check["text"]
    assert state.gladiators["blue"].must_stumble


def test_s22_2_shield_bash_half_damage_and_stun_2d6_plus_twice_the_h_bonus() -> None:
    """H+2 on the chest (B4 missed: BLACK 5): WHITE 13 + 2 = 15, 4 wounds and a deep cut, 5
    halved to 2; Stun 2D6 (1, 1) + 4 = 6 on T7's Stun row."""
    state = ready()
    dice = RiggedDice(1, {CRT: [(5, 5, 5)], WOUND: [(4, 4, 5, 5, 1)], SPECIAL: [(1, 1)]})
    events = play(state, dice, red="A8:chest/H", blue="-")
    assert "5 → 2 wounds" in of_type(events, "half_damage")[0]["text"]
    assert state.gladiators["blue"].sheet.wounds_in("chest") == 2
    stun = [r for r in dice.log if r.rule == SPECIAL]
    assert len(stun) == 1 and stun[0].purpose.startswith("shield bash")
    assert any("shield bash" in e["text"] for e in of_type(events, "stun"))


def test_s22_2_sand_the_defender_loses_2d3_plus_the_h_bonus_for_the_phase() -> None:
    """S6 (Q8): H+2: 2D3 (6, 6 → 3 + 3) + 2 = 8 CF off blue's next attack (2 CF: cancelled), the
    rest without effect; no wound, and his log sheet's CF is unchanged."""
    state = ready()
    before = state.gladiators["blue"].sheet.current_cf
    dice = RiggedDice(1, {CRT: [(5, 5, 5)], SPECIAL: [(6, 6)]})
    events = play(state, dice, red="A8:head/T", blue="A2:chest")
    (sand,) = [e for e in of_type(events, "special_attack") if e.get("amount") is not None]
    assert sand["amount"] == 8
    assert any(e["type"] == "attack_cancelled" and e["side"] == 1 for e in events)
    assert WOUND not in dice.rules()
    assert state.gladiators["blue"].sheet.current_cf == before


def test_s22_2_sand_reference_sheet_1d3() -> None:
    state = ready(sand_loss="reference")
    dice = RiggedDice(1, {CRT: [(5, 5, 5)], SPECIAL: [(6,)]})
    events = play(state, dice, red="A8:head/T", blue="-")
    assert [r.notation for r in dice.log if r.rule == SPECIAL] == ["1D3"]
    assert next(e for e in of_type(events, "special_attack") if e.get("amount"))["amount"] == 5


def test_s22_2_sand_other_results_have_no_effect() -> None:
    """A P on a Sand throw: no weapon drop roll."""
    state = ready()
    dice = RiggedDice(1, {CRT: [(1, 1, 2)]})
    events = play(state, dice, red="A8:head/T", blue="-")
    assert crts(events)[0]["result"] == "P" and DROP not in dice.rules()
    assert "no effect" in of_type(events, "special_attack")[-1]["text"]


# --- the special defences (§22.3, T20) ------------------------------------------------------------


def test_s9_5_2_s22_3_duck_every_head_attack_is_no_effect() -> None:
    state = ready()
    dice = RiggedDice(1, {})
    events = play(state, dice, red="A8:head", blue="D2:head/D")
    assert CRT not in dice.rules()
    (auto,) = [e for e in of_type(events, "special_defence") if e.get("result")]
    assert auto["result"] == "-" and "no roll" in auto["text"]


def test_s22_3_duck_does_nothing_for_the_chest() -> None:
    """Probe: a Duck guards the head only: the chest attack is rolled and hits."""
    state = ready()
    dice = RiggedDice(1, {CRT: [(5, 5, 5)]})
    events = play(state, dice, red="A8:chest", blue="D2:head/D")
    assert crts(events)[0]["result"] == "H+2" and WOUND in dice.rules()


def test_s22_3_duck_beats_sand() -> None:
    """S3: Sand at a Duck's head is No Effect: no H, so no CF loss."""
    state = ready()
    dice = RiggedDice(1, {})
    events = play(state, dice, red="A8:head/T", blue="D2:head/D")
    assert SPECIAL not in dice.rules() and CRT not in dice.rules()
    assert not of_type(events, "cf_loss")


def test_s22_3_block_chest_attacks_are_an_automatic_s() -> None:
    """S7 (Q9): an S with shield damage checked (§12.2), at 5 − 2 = 3 modified CF."""
    state = ready()
    dice = RiggedDice(1, {})
    events = play(state, dice, red="A5:chest", blue="D2:chest/B")
    (auto,) = [e for e in of_type(events, "special_defence") if e.get("result")]
    assert auto["result"] == "S" and auto["modified_cf"] == 3
    assert CRT not in dice.rules() and any(r.rule.startswith("§12") for r in dice.log)


def test_s22_3_block_reference_reading_no_effect() -> None:
    state = ready(block_result="reference")
    dice = RiggedDice(1, {})
    events = play(state, dice, red="A5:chest", blue="D2:chest/B")
    assert next(e for e in of_type(events, "special_defence") if e.get("result"))["result"] == "-"
    assert not any(r.rule.startswith("§12") for r in dice.log)


def test_s22_3_back_step_groin_attacks_are_no_effect() -> None:
    state = ready()
    dice = RiggedDice(1, {})
    play(state, dice, red="A8:groin", blue="D2:groin/K")
    assert CRT not in dice.rules() and WOUND not in dice.rules()


def test_s22_3_parry_arm_attacks_are_an_automatic_p_with_the_drop_roll() -> None:
    state = ready()
    dice = RiggedDice(1, {DROP: [(6, 6, 6)]})
    events = play(state, dice, red="A8:arms", blue="D2:arms/P")
    assert CRT not in dice.rules() and DROP in dice.rules()
    assert "he keeps it" in of_type(events, "drop_roll")[0]["text"]


def test_s22_3_parry_beats_disarm() -> None:
    """S3: against a Parry the Disarm gets a P, not an H: the drop roll has no −8 DRM."""
    state = ready()
    dice = RiggedDice(1, {DROP: [(6, 6, 6)]})
    events = play(state, dice, red="A8:arms/A", blue="D2:arms/P")
    assert "drm" not in of_type(events, "drop_roll")[0]


def test_s22_3_leap_leg_attacks_are_no_effect() -> None:
    state = ready()
    dice = RiggedDice(1, {})
    play(state, dice, red="A8:legs/S", blue="D2:legs/L")
    assert CRT not in dice.rules() and not state.gladiators["blue"].must_stumble


def test_s22_3_the_2_cf_take_a_waiting_loss_like_any_defence() -> None:
    """S2, S3: a loss waiting (§9.4.7) comes off the next area attacked, even a Duck's: the
    head's 2 CF go to 0 and the Duck still holds."""
    state = ready()
    dice = RiggedDice(1, {CRT: [(1, 3, 3)], WOUND: [(5, 5, 5, 6, 1)]})
    events = play(state, dice, red="A8:chest A1:head", blue="D2:head/D")
    assert any(e["type"] == "defence_reduced" and e["area"] == "head" for e in events)
    assert next(e for e in of_type(events, "special_defence") if e.get("result"))["result"] == "-"


# --- the core: steps and groups that cap how many slots are used ---------------------------------


def test_distribute_steps_and_group_max_used() -> None:
    d = Distribute(
        prompt="p",
        budget=6,
        slots=(Slot("A", 4), Slot("B", 4), Slot("C", 2, step=2)),
        groups=(SlotGroup(("A", "B"), 6, "one of them", max_used=1),),
    )
    assert d.validate("A:3 C:2") == "A:3 C:2"
    with pytest.raises(IllegalOrder, match="2 at a time"):
        d.validate("C:1")
    with pytest.raises(IllegalOrder, match="at most 1 of A, B"):
        d.validate("A:1 B:1")
    legal = d.legal() or []
    assert "A:1 B:1" not in legal and "C:1" not in legal and "A:4 C:2" in legal
    rng = random.Random(3)
    for _ in range(200):
        assert d.sample(rng) in legal
    assert d.to_dict()["slots"][2]["step"] == 2 and d.to_dict()["groups"][0]["max_used"] == 1


def test_s22_random_allocations_are_legal_and_use_specials() -> None:
    state = ready()
    d = allocation_choice(state.gladiators["red"], state)
    rng = random.Random(5)
    orders = [d.sample(rng) for _ in range(300)]
    for order in orders:
        assert d.validate(order) == order
    assert sum("-FEINT" in o or "-DISARM" in o or "-SAND" in o for o in orders) > 30
    assert sum(o.count("-") - o.count(" ") > 1 for o in orders) > 30


# --- the centurion (§29.6, T30, C12) --------------------------------------------------------------


def test_s29_6_1_1_the_centurions_first_two_defence_cf_buy_a_special_defence() -> None:
    from gladiator.bots.centurion_combat import allocation_order

    class Script(random.Random):
        def __init__(self, *faces: int) -> None:
            super().__init__(0)
            self.faces = list(faces)

        def randint(self, a: int, b: int) -> int:
            return self.faces.pop(0)

        def choice(self, seq: Any) -> Any:
            return seq[0]

    state = ready()
    blue = state.gladiators["blue"]
    rng = Script(4, 5, 1, 2, 6, 1, 3, 1, 2, 3, 1, 2, 3, 4, 5)
    # 13 CF, defence (4 − 1) + (5 − 1) = 7; attack 6: head, chest, a 6 buys Disarm (1) on the
    # arms, groin, head, chest; the 7 defence: 2 buy Back Step (3, the 3rd of T20's D B K P L),
    # then 1 2 3 (the groin's box is taken: the weakest armour of the others, the chest's B4)
    # 4 5.
    text = allocation_order(blue, allocation_choice(blue, state), 0, rng)
    assert text == "A2:head A2:chest A1:arms/A A1:groin D1:head D2:chest D2:groin/K D1:arms D1:legs"
    assert not rng.faces
    assert allocation_choice(blue, state).validate(text)


# --- a whole match ------------------------------------------------------------------------------


def test_s22_random_bots_use_specials_in_a_seeded_advanced_match() -> None:
    # Seed 22: 31 (before it 19) played other matches once Sand flew its own 2 hexes (S10,
    # issue 37) and the net's N12 (issue 27) came in.
    m = Match(RULES, {"advanced": True, "max_turns": 10}, seed=22, nonce="n")
    bots = {s: make_bot("random") for s in ("red", "blue")}
    rng = random.Random(22)
    kinds: list[str] = []
    while not m.finished:
        orders = {
            s: bots[s].choose(RULES, RULES.determinize(m.state, s, rng), s, d, rng)
            for s, d in m.pending().items()
        }
        kinds += [e["type"] for e in m.apply_step(orders)]
    assert kinds.count("special_attack") >= 3 and kinds.count("special_defence") >= 3
    assert "feint_counter" in kinds
    again = Match.replay(m.record(), RULES)
    assert RULES.state_hash(again.state) == RULES.state_hash(m.state)
