"""§30: arranging a munus (T31, the death roll, T32, styles, challengers, opponents of other
lanistas) and the engine options of its fights."""

from __future__ import annotations

from typing import Any

import pytest

from campaign_helpers import Rigged, career, create, reports_for
from gladiator.campaign import apply_step, next_fight
from gladiator.campaign.errors import CampaignError
from gladiator.campaign.munus import arrange_munus
from gladiator.campaign.pairing import career_styles, roll_match, roll_pairing
from gladiator.campaign.state import CampaignState


def _arrange(state: CampaignState, script: dict[str, list[int]], entries: list[str]) -> Any:
    return arrange_munus(state, Rigged(script, seed=3), entries, 3)


def test_s30_2_2_q32_a_roll_equal_to_the_death_value_is_a_death_match() -> None:
    g = career()
    assert roll_match(Rigged({"§30.2.1": [36], "§30.2.2": [3]}), g).sine_missione
    assert not roll_match(Rigged({"§30.2.1": [36], "§30.2.2": [2]}), g).sine_missione
    # Probe: with ">" a Matched Pair (Death 6) could never be to the death.
    assert roll_match(Rigged({"§30.2.1": [11], "§30.2.2": [6]}), g).sine_missione


def test_s30_2_1_1_beast_fights_roll_neither_death_nor_pairing() -> None:
    dice = Rigged({"§30.2.1": [54]})
    m = roll_match(dice, career())
    assert m.row.type == "venatores" and m.categories is None and not m.sine_missione
    assert [r.rule for r in dice.log] == ["§30.2.1"]


def test_s30_2_3_q33_any_rerolls_the_category_on_1d6_six_again() -> None:
    assert roll_pairing(Rigged({"§30.2.3": [33, 6, 2]}), career(), "x") == ("I", "II")


def test_s30_2_3_q33_contra_retiarius_v_any_meets_a_retiarius() -> None:
    assert roll_pairing(Rigged({"§30.2.3": [66]}), career(), "x") == ("V", "IV")


def test_s30_2_3_1_l2_a_retiarius_pairing_is_rerolled_without_sr() -> None:
    """Category IV is the Retiarius alone: a gladiator without SR rolls the pairing again."""
    assert roll_pairing(Rigged({"§30.2.3": [53, 11]}), career(), "x") == ("I", "I")
    assert roll_pairing(Rigged({"§30.2.3": [53]}), career(talents=["SR"]), "x") == ("IV", "I")
    assert "dimachaeri" not in career_styles(career(), "I")
    assert "dimachaeri" in career_styles(career(talents=["SD"]), "I")
    assert "dimachaeri" in career_styles(career(bought_as="dimachaeri"), "I")


def test_s19_5_l8_a_bought_retiarius_or_dimachaeri_cannot_switch_styles() -> None:
    """§19.5: Retiarius and Dimachaeri need special training and cannot switch styles (except
    with SR/SD, §36.3); the other styles change from match to match."""
    assert career_styles(career(bought_as="dimachaeri"), "I") == ["dimachaeri"]
    assert career_styles(career(bought_as="dimachaeri"), "II") == []
    assert career_styles(career(bought_as="retiarius"), None) == ["retiarius"]
    trained = career(bought_as="retiarius", talents=["SR"])
    assert {"retiarius", "myrmillo"} <= set(career_styles(trained, None))
    assert "myrmillo" in career_styles(career(bought_as="secutor"), None)
    # T32 is rolled again until his category holds his style (L2): IV is the Retiarius's.
    dice = Rigged({"§30.2.3": [11, 53]})
    assert roll_pairing(dice, career(bought_as="retiarius"), "x") == ("IV", "I")


def test_s30_2_one_match_per_munus() -> None:
    """NOTE-30.2: every entered gladiator is in exactly one bout of the munus."""
    state = create(seed=5, lanistas=3)
    state = apply_step(state, {"kind": "munus_open"}).state
    seen = [g for b in state.munus_bouts() for g in b.gladiators()]
    assert len(seen) == len(set(seen))
    entered = {g.id for lid in state.lanistas for g in state.stable(lid)}
    assert entered <= set(seen)


def test_s30_2_l2_a_matched_pair_draws_the_other_lanistas_man() -> None:
    state = create(seed=2)
    first, rival = state.stable("l1")[0].id, state.stable("l2")[0].id
    bouts = _arrange(state, {"§30.2.1": [11], "§30.2.2": [1], "§30.2.3": [11]}, [first, rival])
    assert len(bouts) == 1
    bout = bouts[0]
    assert [s.lanista for s in bout.sides] == ["l1", "l2"]
    assert bout.sides[1].gladiators == [rival]
    assert bout.seats[0] == {"red": first, "blue": rival}


def test_s30_3_champion_opponents_are_the_houses_with_100_xp() -> None:
    state = create(seed=2)
    first, rival = state.stable("l1")[0].id, state.stable("l2")[0].id
    bouts = _arrange(
        state,
        {"§30.2.1": [41, 11], "§30.2.2": [1, 1], "§30.2.3": [11, 11], "§30.3": [4]},
        [first, rival],
    )
    champ = state.gladiators[bouts[0].sides[1].gladiators[0]]
    assert bouts[0].sides[1].lanista is None and champ.champion
    assert champ.lanista is None and champ.record.victories == 0  # 4 - 4 + 0
    assert len(bouts) == 2  # the rival found his own match


def test_s30_2_1_1_consecutive_plans_1d3_plus_1_fights_and_carries_wounds() -> None:
    state = create(seed=2)
    first = state.stable("l1")[0].id
    bouts = _arrange(
        state, {"§30.2.1": [35], "§30.2.2": [1], "§30.2.3": [11], "§30.2.1.1": [3]}, [first]
    )
    bout = bouts[0]
    assert bout.type == "consecutive" and len(bout.fights) == 4  # 1D3 = 3, + 1
    assert all(seats["red"] == first for seats in bout.seats)
    reports = reports_for(bout, 0)
    fight2 = next_fight(bout, reports[:1])
    assert fight2 is not None
    assert fight2["entrants"][0]["carry"]["wounds"] == [1, 0, 0, 0, 0]
    assert fight2["entrants"][1]["name"] == state.gladiators[bout.seats[1]["blue"]].name
    lost = reports_for(bout, 1)
    assert next_fight(bout, lost[:1]) is None  # the run ends with a defeat
    assert next_fight(bout, reports) is None


def test_s30_2_1_1_beasts_are_1d3_of_p3() -> None:
    state = create(seed=2)
    first = state.stable("l1")[0].id
    script = {"§30.2.1": [62], "§30.2.1.1": [1, 6, 3]}  # 1D3 = 1 beast; P3 6, then 3
    bouts = _arrange(state, script, [first])
    options = bouts[0].fights[0]
    assert bouts[0].styles[first] == "bestiarius"
    assert options["beasts"] == "blue:lion"  # P3: 6 re-rolled, 3 Lion
    assert "teams" not in options


def test_s30_2_1_1_two_pairs_seats_alternate_and_build_teams() -> None:
    state = create(seed=2)
    a = [g.id for g in state.stable("l1")[:2]]
    b = [g.id for g in state.stable("l2")[:2]]
    bouts = _arrange(
        state, {"§30.2.1": [43], "§30.2.2": [1], "§30.2.3": [11]}, [a[0], b[0], a[1], b[1]]
    )
    bout = bouts[0]
    assert bout.sides[0].gladiators == a and bout.sides[1].gladiators == b
    assert bout.fights[0]["teams"] == "red+green:blue+gold"
    assert bout.fights[0]["advanced"] and bout.fights[0]["talent_prerequisites"]
    assert len(bout.fights[0]["entrants"]) == 4


def test_s30_2_battle_has_2d3_a_side_and_no_contra_retiarius() -> None:
    state = create(seed=2)
    first = state.stable("l1")[0].id
    bouts = _arrange(state, {"§30.2.1": [51], "§30.2.2": [1], "§30.2.1.1": [3]}, [first])
    bout = bouts[0]
    assert len(bout.sides[0].gladiators) == len(bout.sides[1].gladiators) == 3
    assert "contra_retiarius" not in bout.styles.values()
    assert len(bout.fights[0]["teams"].replace(":", "+").split("+")) == 6


def test_entrants_carry_the_career_and_its_prestige() -> None:
    """§35.3, §35.4: PR rides into the engine as the entrant's prestige."""
    state = create(seed=2)
    state = apply_step(state, {"kind": "munus_open"}).state
    bout = state.munus_bouts()[0]
    gid = bout.seats[0]["red"]
    g = state.gladiators[gid]
    entrant = bout.fights[0]["entrants"][0]
    assert entrant == {
        "name": g.name,
        "tr": g.tr,
        "st": g.st,
        "ag": g.ag,
        "cn": g.cn,
        "w": g.w,
        "prestige": g.prestige,
    }
    assert bout.fights[0]["talents"][0] == ",".join(g.talents)
    assert bout.fights[0]["arena_size"] == state.meta.arena_size


def test_s32_1_ordinary_wounds_heal_every_match_starts_unwounded() -> None:
    state = create(seed=2)
    state = apply_step(state, {"kind": "munus_open"}).state
    for bout in state.munus_bouts():
        for entrant in bout.fights[0]["entrants"]:
            assert "carry" not in entrant


def test_s30_2_3_1_note_chosen_styles_need_the_option() -> None:
    state = create(seed=2)
    with pytest.raises(CampaignError, match="choose_style"):
        apply_step(state, {"kind": "munus_open", "preferences": {"g1": ["gallus"]}})
    checked = 0
    for seed in range(1, 6):
        state = create(seed=seed, choose_style=True)
        gids = [g.id for g in state.stable("l1")]
        prefs = {g: ["crupellarius", "gallus", "myrmillo"] for g in gids}
        after = apply_step(state, {"kind": "munus_open", "preferences": prefs}).state
        for bout in after.munus_bouts():
            if not bout.categories:
                continue
            for side, category in zip(bout.sides, bout.categories, strict=True):
                for g in set(gids) & set(side.gladiators):
                    fits = [
                        p for p in prefs[g] if p in career_styles(after.gladiators[g], category)
                    ]
                    if fits:
                        assert bout.styles[g] == fits[0]
                        checked += 1
    assert checked
