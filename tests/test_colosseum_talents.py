"""§36 talents in the match engine (Campaign Game, option `talents`, rulings TL1-TL9): each talent's
effect with scripted dice, and the probes a careless reading gets wrong."""

from __future__ import annotations

from typing import Any

import pytest

from colosseum_helpers import RULES, RiggedDice, of_type, play
from colosseum_styles_helpers import arena, to_combat
from gladiator.core.decisions import IllegalOrder
from gladiator.core.dice import Dice
from gladiator.rules.colosseum.combat.allocation import allocation_choice
from gladiator.rules.colosseum.combat.available import cfs_available
from gladiator.rules.colosseum.kit.talents import parse_talents
from gladiator.rules.colosseum.plots.plot_decision import plot_decision
from gladiator.rules.colosseum.plots.plots import parse_plot
from gladiator.rules.colosseum.setup.talent_setup import with_talents
from gladiator.rules.colosseum.state import ColosseumState

CRT = "§9.5.1"


def talented(red: str, blue: str, red_talents: str = "", blue_talents: str = "", **kw: Any) -> Any:
    """An Advanced duel of two styles on hand-made sheets (arena), with these talents."""
    state = arena(red, blue, talents=[red_talents, blue_talents], **kw)
    for i, seat in enumerate(("red", "blue")):
        with_talents(state.gladiators[seat], state.options, i)  # the hand-made sheet too (TG)
    return state


def refusal(**options: Any) -> str:
    with pytest.raises(ValueError) as err:
        RULES.normalise_options(options)
    assert "\n" not in str(err.value)
    return str(err.value)


# --- the option (TL1, TL2) ------------------------------------------------------------------------


def test_s36_3_talent_codes_are_read_in_any_case_and_stored_in_t36_order() -> None:
    entry = "ms:Sword, fa,WS:axe,ws:dagger"
    o = RULES.normalise_options({"advanced": True, "talents": [entry, ""]})
    assert o["talents"] == ["WS:axe,WS:dagger,FA,MS:sword", ""]
    assert parse_talents(o["talents"][0]) == {"WS:axe", "WS:dagger", "FA", "MS:sword"}
    cli = RULES.normalise_options({"advanced": True, "talents": "blue:SP+WS:pike"})
    assert cli["talents"] == ["", "WS:pike,SP"]


@pytest.mark.parametrize(
    ("entry", "says"),
    [
        ("XX", "not a T36 talent"),
        ("FA,FA", "written twice"),
        ("WS:axe,WS:axe", "written twice"),
        ("WS", "names a T19 weapon"),
        ("MS:club", "names a T19 weapon"),
        ("FA:sword", "names no weapon"),
        ("MS:sword,MS:axe", "learned once, for one weapon"),
    ],
)
def test_s36_3_each_talent_once_ws_once_per_weapon(entry: str, says: str) -> None:
    assert says in refusal(advanced=True, talents=[entry, ""])


def test_s36_talents_are_the_advanced_games_and_left_out_of_every_other_record() -> None:
    assert "advanced = true" in refusal(talents=["FA", ""])
    plain = RULES.normalise_options({"advanced": True})
    assert "talents" not in plain and "talent_prerequisites" not in plain  # records unchanged
    state = talented("myrmillo", "secutor")
    assert all(not g.talents and "talents" not in g.to_dict() for g in state.gladiators.values())
    state = talented("myrmillo", "secutor", "TG,HG")
    assert state.gladiators["red"].to_dict()["talents"] == ["HG", "TG"]


def test_s36_3_prerequisites_retiarius_needs_sr_and_dimachaeri_sd() -> None:
    on = {"advanced": True, "talent_prerequisites": True}
    assert "Retiarius Style talent (SR" in refusal(**on, styles=["retiarius", "secutor"])
    assert "Dimachaeri Style talent (SD" in refusal(**on, styles=["myrmillo", "dimachaeri"])
    RULES.normalise_options({**on, "styles": ["retiarius", "secutor"], "talents": ["SR", ""]})
    # Off (the default), any style may be played, as before.
    RULES.normalise_options({"advanced": True, "styles": ["retiarius", "secutor"]})


def test_s21_1_1_prerequisites_an_optional_weapon_needs_its_weapon_skill() -> None:
    on = {"advanced": True, "talent_prerequisites": True}
    msg = refusal(**on, styles=["myrmillo", "secutor"], weapons=["axe", ""])
    assert "WS:axe" in msg and "§36.3" in msg
    # Probe: WS is per weapon: WS:maul does not cover the axe.
    assert "WS:axe" in refusal(
        **on, styles=["myrmillo", "secutor"], weapons=["axe", ""], talents=["WS:maul", ""]
    )
    RULES.normalise_options(
        {**on, "styles": ["myrmillo", "secutor"], "weapons": ["axe", ""], "talents": ["WS:axe", ""]}
    )
    # The chart's weapons need nothing: a Dimachaeri's two swords, a Thracian's scimitar.
    RULES.normalise_options(
        {
            **on,
            "styles": ["thracian", "dimachaeri"],
            "weapons": ["", "sword,sword"],
            "talents": ["", "SD"],
        }
    )
    # The Retiarius's optional dagger is an optional weapon (TL2).
    assert "WS:dagger" in refusal(
        **on, styles=["retiarius", "secutor"], weapons=["trident,dagger", ""], talents=["SR", ""]
    )


# --- FA Fast Attack (§9.4.5, TL3) -----------------------------------------------------------------


def test_s36_3_fast_attack_only_his_first_attack_is_one_round_earlier() -> None:
    """T10 for two attacks: rounds 2 and 4; FA: the first (his own order) in 1, the second in 4."""
    state = talented("myrmillo", "secutor", "FA")
    to_combat(state)
    events = play(state, RiggedDice(1, {CRT: [(3, 3, 4)] * 4}), red="A2:chest A2:head", blue="-")
    rounds = {e["area"]: e["round"] for e in of_type(events, "crt") if e.get("side") == 0}
    assert rounds == {"chest": 1, "head": 4}


def test_s36_3_fast_attack_without_the_talent_the_rounds_are_t10s() -> None:
    state = talented("myrmillo", "secutor")
    to_combat(state)
    events = play(state, RiggedDice(1, {CRT: [(3, 3, 4)] * 4}), red="A2:chest A2:head", blue="-")
    rounds = {e["area"]: e["round"] for e in of_type(events, "crt") if e.get("side") == 0}
    assert rounds == {"chest": 2, "head": 4}


# --- MS Weapon Mastery (TL4) ----------------------------------------------------------------------


def test_s36_3_weapon_mastery_adds_3_cf_available_with_the_weapon_in_hand() -> None:
    state = talented("myrmillo", "secutor", "MS:sword", "MS:axe")
    red, blue = state.gladiators["red"], state.gladiators["blue"]
    avail, notes = cfs_available(red)
    assert avail == 13 + 3 and any("Weapon Mastery +3" in n for n in notes)
    assert cfs_available(blue)[0] == 13  # probe: the axe mastered, the sword in hand
    red.weapons, red.has_weapon = (), False  # dropped: nothing to master
    assert cfs_available(red)[0] == 13


# --- SU Unarmed Style (§23, TL5) ------------------------------------------------------------------


def _bare_attack(talents: str) -> list[dict[str, Any]]:
    state = talented("myrmillo", "secutor", talents)
    g = state.gladiators["red"]
    g.weapons, g.spare, g.has_weapon = (), (), False
    to_combat(state)
    return play(state, RiggedDice(1, {CRT: [(1, 1, 3)]}), red="A4:head", blue="D5:arms")


def test_s36_3_unarmed_style_strikes_at_full_cf_with_no_plus_1_spd() -> None:
    (attack,) = of_type(_bare_attack("SU"), "crt")
    assert attack["round"] == 3 and "4 CF against 0 defence" in attack["text"]


def test_s36_3_unarmed_style_probe_untrained_fists_are_halved_and_slow() -> None:
    events = _bare_attack("")
    (attack,) = of_type(events, "crt")
    assert attack["round"] == 4 and "2 CF against 0 defence" in attack["text"]


# --- TG Toughness (Q50) --------------------------------------------------------------------------


def test_s36_3_toughness_ignores_the_first_category_of_a_fresh_area_only() -> None:
    """W 12: chest categories begin at boxes 12, 8 and 4 (P1). 1 wound to a fresh chest: no CF;
    3 more (box 8): −1 as usual; the first wound of the legs again nothing."""
    state = talented("myrmillo", "secutor", "TG")
    s = state.gladiators["red"].sheet
    assert s.toughness and s.current_cf == 13
    s, events = s.with_wounds("chest", 1)
    assert s.current_cf == 13 and any("Toughness" in e.text for e in events)
    s, _ = s.with_wounds("chest", 4)  # boxes 11-8: the next category counts
    assert s.current_cf == 12
    s, _ = s.with_wounds("legs", 1)
    assert s.current_cf == 12


def test_s36_3_toughness_probe_two_categories_at_once_lose_one() -> None:
    state = talented("myrmillo", "secutor", "TG", "")
    tough, plain = (state.gladiators[s].sheet for s in ("red", "blue"))
    before = plain.cf_lost_to_wounds()
    tough, _ = tough.with_wounds("chest", 6)
    plain, _ = plain.with_wounds("chest", 6)
    assert plain.cf_lost_to_wounds() - before == 2 and tough.cf_lost_to_wounds() == 1
    assert "toughness" in tough.to_dict() and "toughness" not in plain.to_dict()


# --- TH Throwing (§13.3) -------------------------------------------------------------------------


def _throw(talents: str) -> str:
    state = talented("myrmillo", "secutor", talents, gap=3)
    dice = RiggedDice(1, {"§13.3": [1]})
    events = play(state, dice, red="X +TW-HEAD", blue="X")
    (throw,) = [e for e in of_type(events, "throw") if e.get("seat") == "red"]
    return str(throw["text"])


def test_s36_3_throwing_adds_3_to_the_throw() -> None:
    """Range 3: 1D6 1 + Thr 3 = 4 hits anyway; with TH 1 + 3 + 3 = 7."""
    assert "+ 3 Throwing (§36.3) = 7" in _throw("TH")
    assert "Throwing" not in _throw("") and "= 4" in _throw("")


# --- HG Hold Ground (§8.4) -----------------------------------------------------------------------


def _impacts(talents: str) -> dict[str, Any]:
    state = talented("myrmillo", "secutor", talents, gap=2)
    events = play(state, RiggedDice(1, {"§8.4": [3, 3]}), red="F", blue="F")
    return {e["figure"]: e for e in of_type(events, "impact_factor")}


def test_s36_3_hold_ground_adds_3_to_his_collision_if() -> None:
    held, plain = _impacts("HG"), _impacts("")
    assert "+3 hold_ground" in held["red"]["text"]
    assert held["red"]["total"] == plain["red"]["total"] + 3
    assert "hold_ground" not in held["blue"]["text"]  # probe: only his own
    assert held["blue"]["total"] == plain["blue"]["total"]


# --- SP Sprinting (Q48, TL7) ----------------------------------------------------------------------


def _texts(state: ColosseumState, seat: str = "red") -> set[str]:
    return {o.text for o in plot_decision(state, state.gladiators[seat]).options}


def test_s36_3_sprinting_offers_three_f_sfl_sfr_actions() -> None:
    state = talented("myrmillo", "secutor", "SP", gap=5)
    red, blue = _texts(state), _texts(state, "blue")
    assert {"F F F", "SFL F SFR", "F(R) F(R) F(R)"} <= red
    assert not any(len(parse_plot(t).actions) == 3 for t in blue)  # probe: no talent, no sprint
    assert blue <= red


def test_s36_3_sprinting_probe_no_fourth_action_and_no_backward_step() -> None:
    state = talented("myrmillo", "secutor", "SP", gap=5)
    choice = plot_decision(state, state.gladiators["red"])
    for order in ("F F F F", "F F B", "F SBL F", "F F C"):
        with pytest.raises(IllegalOrder):
            choice.validate(order)
    assert choice.validate("f f sfr") == "F F SFR"


def test_s36_3_sprinting_moves_three_hexes_in_one_movement_phase_and_checks_stumble() -> None:
    state = talented("myrmillo", "secutor", "SP", gap=6)
    start = state.gladiators["red"].hex
    red = state.gladiators["red"]
    red.sheet, _ = red.sheet.with_stun(2, turn=1, phase=1)
    events = play(state, RiggedDice(1, {"§15.2.1": [2]}), red="F F F", blue="X")
    assert red.moves_used == 1 and red.hex != start
    from gladiator.core.hexgrid import distance

    assert distance(start, red.hex) == 3
    (check,) = [e for e in of_type(events, "stumble_check") if e["figure"] == "red"]
    assert check["rule"] == "§36.3" and check["stumbled"]  # 1D6 2 − 2 Stun = 0, below 1
    assert red.must_stumble


def test_s36_3_sprinting_probe_two_actions_are_no_sprint_and_check_nothing() -> None:
    state = talented("myrmillo", "secutor", "SP", gap=6)
    events = play(state, Dice(1), red="F F", blue="X")
    assert not [e for e in of_type(events, "stumble_check") if e["figure"] == "red"]


# --- FW Find Weakness (Q49, TL6) ------------------------------------------------------------------


def test_s36_3_find_weakness_offers_a_slot_per_area_and_reads_both_notations() -> None:
    state = talented("myrmillo", "secutor", "FW")
    to_combat(state)
    d = allocation_choice(state.gladiators["red"], state)
    assert {"A-CHEST-FW", "A-LEGS-FW"} <= set(d.names())
    assert d.validate("A3:chest/FW A4:head") == d.validate("A-CHEST-FW:3 A-HEAD:4")
    assert "A-CHEST-FW:3" in d.validate("A3:chest/FW A4:head")
    with pytest.raises(IllegalOrder, match="one attack given up"):
        d.validate("A3:chest/FW A4:head/FW")
    with pytest.raises(IllegalOrder):  # one attack on an area: not the chest twice
        d.validate("A-CHEST-FW:3 A-CHEST:2")
    plain = allocation_choice(state.gladiators["blue"], state)
    assert not any(n.endswith("-FW") for n in plain.names())  # probe: no talent, no slot


def test_s36_3_find_weakness_lowers_the_next_area_attacked() -> None:
    """Red (TR 10) gives up his chest attack (round 2 of two) and finds 1D3 − 1 + 10//4: a D3 of
    2 (face 3) gives 3 off blue's head defence (5 → 2); the chest attack rolls no CRT."""
    state = talented("myrmillo", "secutor", "FW")
    to_combat(state)
    dice = RiggedDice(1, {"§36.3": [3], CRT: [(1, 1, 1)]})
    order = RULES.pending(state)["red"].validate("A3:chest/FW A4:head")
    events = play(state, dice, red=order, blue="D5:head")
    (found,) = [e for e in of_type(events, "find_weakness") if "gives up" in e["text"]]
    assert found["amount"] == 3 and "3 CF lost" in found["text"]
    (crt,) = [e for e in of_type(events, "crt") if e.get("side") == 0]
    assert crt["area"] == "head" and "4 CF against 2 defence" in crt["text"]
    assert dice.spent()


def test_s36_3_find_weakness_probe_a_finding_with_no_attack_after_it_is_lost() -> None:
    """The given-up attack is his last (legs in round 4): nothing is lowered, no CRT for it."""
    state = talented("myrmillo", "secutor", "FW")
    to_combat(state)
    dice = RiggedDice(1, {"§36.3": [3], CRT: [(3, 3, 4)]})
    events = play(state, dice, red="A2:head A3:legs/FW", blue="D5:head")
    assert len([e for e in of_type(events, "find_weakness")]) == 1
    (crt,) = [e for e in of_type(events, "crt") if e.get("side") == 0]
    assert crt["area"] == "head" and "against 5 defence" in crt["text"]
