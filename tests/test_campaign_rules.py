"""The Campaign Game's rules one by one (§31-§37), from scripted dice: the worked examples and
numeric notes of Part 4 (R-31-xp, R-32-injury, R-35.4-intimidation, R-36.2-talent-rolls,
EX-37.4-wager-doubling) and a probe per rule for what a careless reading gets wrong."""

from __future__ import annotations

import pytest

from campaign_helpers import Rigged, career
from gladiator.campaign.armour import armour_cost
from gladiator.campaign.challengers import challenger_record, new_challenger
from gladiator.campaign.creation import new_gladiator, roll_ratings
from gladiator.campaign.errors import CampaignError
from gladiator.campaign.experience import apply_purchase, kill_bonus, match_xp, purchase_cost
from gladiator.campaign.injuries import apply_injuries, crippled, injury_loss
from gladiator.campaign.prestige import intimidation, prestige_change
from gladiator.campaign.reports import Kill, SeatReport
from gladiator.campaign.state import CampaignOptions
from gladiator.campaign.tables import campaign_tables
from gladiator.campaign.talents import creation_rolls, roll_talent
from gladiator.campaign.wagers import forced_stake, stakes


def _report(**kw: object) -> SeatReport:
    return SeatReport.model_validate({"seat": "red", "result": "victory", "alive": True, **kw})


# --- §31 experience ------------------------------------------------------------------------------


def test_s31_xp_r31_base_and_quick_kill_in_turn_2() -> None:
    """R-31-xp: attack 70, defense 40 -> 10; a quick kill in turn 2 adds 10 + 9 = 19 -> 29."""
    assert match_xp([_report(attack_cf=70, defense_cf=40)]) == 10
    kill = {"victim": "blue", "turn": 2, "kind": "quick"}
    assert match_xp([_report(attack_cf=70, defense_cf=40, kills=[kill])]) == 29


def test_s31_2_1_base_xp_rounds_down_and_is_never_negative() -> None:
    assert match_xp([_report(attack_cf=71, defense_cf=40)]) == 10
    assert match_xp([_report(attack_cf=10, defense_cf=40)]) == 0  # probe: not -10


def test_s31_2_1_a_consecutive_totals_its_fights_before_dividing() -> None:
    """Probe: 2 + 2 CF over two fights is 4 // 3 = 1, not 0 + 0."""
    assert match_xp([_report(attack_cf=2), _report(attack_cf=2)]) == 1


def test_s31_2_2_missus_bonus() -> None:
    assert match_xp([_report(missus=True)]) == 5


def test_s31_2_3_opponent_missus_bonus() -> None:
    assert match_xp([_report(opponent_missus=True)]) == 15


@pytest.mark.parametrize(
    ("kind", "bonuses"), [("slow", [30, 25, 20, 15, 10, 10]), ("quick", [22, 19, 16, 13, 10, 10])]
)
def test_s31_2_4_kill_bonus_by_turn(kind: str, bonuses: list[int]) -> None:
    """T33: slow 10 + (5 - turn) x 5 (§31.2.3.1, printed for 31.2.4.1), quick x 3 (§31.2.3.2);
    after turn 4 the bonus part is 0, not negative."""
    got = [kill_bonus(Kill(victim="blue", turn=t, kind=kind)) for t in range(1, 7)]  # type: ignore[arg-type]
    assert got == bonuses


def test_s31_3_costs() -> None:
    assert [purchase_cost(p) for p in ("tr", "st", "ag", "cn", "w", "talent")] == [
        25,
        35,
        35,
        50,
        50,
        25,
    ]
    assert purchase_cost("talent", 2) == 45
    with pytest.raises(CampaignError, match="only a talent roll"):
        purchase_cost("st", 1)


def test_s31_3_spending_needs_the_xp() -> None:
    g = career(xp=34)
    with pytest.raises(CampaignError, match="has 34 XP; st costs 35"):
        apply_purchase(g, "st", Rigged({}))
    assert apply_purchase(g, "tr", Rigged({})) == "+1 TR" and g.tr == 11 and g.xp == 9


# --- §32 injuries --------------------------------------------------------------------------------


def test_s32_injury_r32_chest_nine_wounds_roll_seven() -> None:
    """R-32-injury: chest took 9 wounds, 2D6 = 7 -> -2 -> W -2 permanently."""
    g = career(w=11)
    lost = apply_injuries(g, [0, 9, 0, 0, 0], Rigged({"§32.2": [7]}))
    assert g.w == 9 and lost == ["-2 W (chest)"]


def test_s32_2_each_area_lowers_its_own_rating() -> None:
    """§32.2.1-§32.2.4: head CN, chest and groin W, arms ST, legs AG."""
    g = career(cn=4, w=11, st=2, ag=1)
    apply_injuries(g, [5, 0, 4, 6, 7], Rigged({"§32.2": [2, 2, 3, 4]}))
    assert (g.cn, g.w, g.st, g.ag) == (1, 9, -1, -2)


def test_s32_2_a_result_of_exactly_0_leaves_no_damage() -> None:
    """Probe: 'below 0', so 2D6 equal to the wounds costs nothing."""
    assert injury_loss(7, 7) == 0 and injury_loss(6, 7) == 1


def test_s32_2_unwounded_areas_roll_nothing() -> None:
    dice = Rigged({})
    apply_injuries(career(), [0, 0, 0, 0, 0], dice)
    assert dice.log == []


def test_s32_l5_a_rating_below_play_cripples() -> None:
    assert not crippled(career(w=1, cn=1))
    assert crippled(career(w=0)) and crippled(career(cn=0))
    assert crippled(career(tr=7, st=-4, ag=-3))


# --- §33 social origin, §3.11 ratings, §35.2 ---------------------------------------------------


def test_s33_2_q13_the_drm_goes_on_the_3d6_roll_clamped() -> None:
    """A Slave (TR +1): TR 3D6 = 10 reads T4 at 11 -> TR 10; with "rating", 9 + 1 = 10 too, but a
    Soldier's +2 on ST 18 is clamped at 18 (ST 5) on the roll and 5 + 1 = 6 on the rating."""
    t34 = campaign_tables().t34
    soldier = t34.origin("soldier")
    rolls = {"§3.11.1": [10, 18, 10, 10, 10]}
    on_roll = roll_ratings(Rigged(rolls), soldier, "roll")
    on_rating = roll_ratings(Rigged({"§3.11.1": [10, 18, 10, 10, 10]}), soldier, "rating")
    assert on_roll["tr"] == 10 and on_rating["tr"] == 11  # T4 12 -> 10; T4 10 -> 9, + 2
    assert on_roll["st"] == 5 and on_rating["st"] == 6


def test_s35_2_prestige_is_1d3_plus_the_origin() -> None:
    dice = Rigged({"§33.2": [12], "§35.2": [1], "§36.2": [1] * 20})
    g = new_gladiator(dice, CampaignOptions(), id="g1", name="Senator", lanista="l1")
    assert g.origin == "senator" and g.prestige == 1 + 2  # 1D3 (die 1) + 2, a Senator


def test_s33_without_social_origin_nothing_is_rolled_on_t34() -> None:
    dice = Rigged({"§36.2": [1] * 20})
    g = new_gladiator(dice, CampaignOptions(social_origin=False), id="g", name="x", lanista="l")
    assert g.origin is None and not [r for r in dice.log if r.rule == "§33.2"]


# --- §35 prestige --------------------------------------------------------------------------------


def test_s35_5_prestige_rises_when_the_roll_beats_it() -> None:
    g = career(prestige=2)
    assert prestige_change(g, [0], Rigged({"§35.5": [3]}), missus=False, cleaved=False) == 1
    g = career(prestige=2)
    # Probe: "greater than", so 1D3 = 2 against PR 2 does not raise it.
    assert prestige_change(g, [0], Rigged({"§35.5": [2]}), missus=False, cleaved=False) == 0


def test_s35_5_each_opponent_of_higher_pr_adds_one() -> None:
    g = career(prestige=3)
    assert prestige_change(g, [4, 5, 1], Rigged({"§35.5": [2]}), missus=False, cleaved=False) == 1


def test_s35_5_1_and_35_5_2_missus_and_cleaving() -> None:
    g = career(prestige=5)
    assert prestige_change(g, [], Rigged({"§35.5": [1]}), missus=True, cleaved=False) == -1
    g = career(prestige=5)
    assert prestige_change(g, [], Rigged({"§35.5": [1]}), missus=False, cleaved=True) == 1


def test_s36_3_bravado_adds_one_to_the_change_roll() -> None:
    g = career(prestige=3, talents=["BR"])
    assert prestige_change(g, [], Rigged({"§35.5": [3]}), missus=False, cleaved=False) == 1


def test_s35_4_1_intimidation_r35_4() -> None:
    """R-35.4: side A (PR 2) rolls 3 -> 5, side B (PR 0) rolls 2 -> 2: each A man gets PB +3."""
    assert intimidation(2, 3, 0, 2) == (3, 0)
    assert intimidation(1, 1, 0, 2) == (0, 0)  # a tie: nobody is intimidated


# --- §36 talents ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("tr", "rolls"), [(7, 1), (8, 2), (11, 2), (12, 3), (13, 3)])
def test_s36_2_talent_rolls(tr: int, rolls: int) -> None:
    """R-36.2-talent-rolls: TR 7 -> 1 roll; TR 8-11 -> 2; TR 12-13 -> 3."""
    assert creation_rolls(tr) == rolls


def test_s36_3_a_repeat_is_rolled_again() -> None:
    g = career(talents=["FA"])
    dice = Rigged({"§36.2": [5, 1, 5, 3]})  # 51 FA (known) -> again: 53 TH
    assert roll_talent(g, dice) == "TH" and g.talents == ["FA", "TH"]


def test_s36_3_weapon_skill_is_learned_once_per_weapon() -> None:
    g = career(talents=["WS:spear"])
    assert roll_talent(g, Rigged({"§36.2": [4, 1]})) == "WS:axe"
    assert g.talents == ["WS:spear", "WS:axe"]


def test_s36_4_71_to_76_only_with_the_red_die_bonus() -> None:
    """§36.4 NOTE: without XP the RED die stops at 6 (a 6-6 is SD); +1 on it reads 76, MS."""
    assert roll_talent(career(), Rigged({"§36.2": [6, 6]})) == "SD"
    g = career()
    assert roll_talent(g, Rigged({"§36.4": [6, 6]}), red_bonus=1, rule="§36.4") == "MS:sword"
    # L6: a RED die pushed past 7 reads the 7x row.
    g = career()
    assert roll_talent(g, Rigged({"§36.4": [6, 2]}), red_bonus=3, rule="§36.4") == "BR"
    assert g.prestige == 2  # Bravado's +2 PR


def test_s31_3_a_talent_roll_bought_with_extra_xp() -> None:
    g = career(xp=45)
    assert apply_purchase(g, "talent", Rigged({"§36.4": [5, 3]}), extra=2) == "talent TG"
    assert g.xp == 0


# --- §30.3 challengers ---------------------------------------------------------------------------


def test_s30_3_challenger_record_is_1d6_minus_4_plus_the_opponents() -> None:
    assert challenger_record(6, 3) == 5
    assert challenger_record(1, 2) == 0  # never below 0


def test_s30_3_1_challenger_xp_record_x20_plus_100_for_a_champion() -> None:
    dice = Rigged({"§30.3": [6], "§3.11.1": [10] * 5, "§35.2": [1]})
    c = new_challenger(dice, id="g9", name="x", opponent_record=3, champion=True)
    # Record 5 -> 100 XP + 100: spent TR 25, ST 35, AG 35, W 50, CN 50 = 195; 5 left.
    assert c.record.victories == 5 and c.champion
    assert (c.tr, c.st, c.ag, c.w, c.cn, c.xp) == (10, 2, 1, 12, 4, 5)
    assert c.origin is None and c.talents == []


# --- §34 customised armour -----------------------------------------------------------------------


def test_s34_2_armour_costs_and_the_allowance() -> None:
    assert armour_cost("gallus", ["A4", "A", "B", "C4", "B4"], "large") == 1060
    with pytest.raises(CampaignError, match="over the heavy allowance of 1100"):
        armour_cost("gallus", ["A", "A", "A", "C4", "B4"], "large")


def test_s34_1_specialised_styles_may_not_customise() -> None:
    with pytest.raises(CampaignError, match="specialised"):
        armour_cost("retiarius", ["-", "B", "-", "-", "-"], "large")


def test_s34_t35_has_no_coverage_1() -> None:
    with pytest.raises(CampaignError, match="coverage 2-5"):
        armour_cost("myrmillo", ["C1", "-", "-", "-", "-"], "large")


# --- §37.4 wagers --------------------------------------------------------------------------------


def test_s37_4_wager_doubling() -> None:
    """EX-37.4: offering 2-1 forces 200; the series 100, 200, 400, 800, 1,600, never above."""
    assert forced_stake(2) == 200
    assert [forced_stake(k) for k in range(1, 6)] == [100, 200, 400, 800, 1600]
    with pytest.raises(CampaignError, match="1-1 to 5-1"):
        forced_stake(6)


def test_s37_4_q47_payout_and_the_even_reading() -> None:
    """L1: under Q47 at 3-1 the offeree stakes 400 and the offerer 1,200; "even": 400 each."""
    assert stakes(3, "odds") == (400, 1200)
    assert stakes(3, "even") == (400, 400)
    assert stakes(1, "odds") == (100, 100)
