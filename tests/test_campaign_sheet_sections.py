"""The log sheet's Campaign boxes (§3.7 talents, §3.8 experience, §3.13.1 the PB box) and the
Colosseum's lanista bonus (§25.2.1), as the campaign keeps them from match to match."""

from __future__ import annotations

from typing import Any

from campaign_helpers import create
from gladiator.campaign import apply_step
from gladiator.campaign.fights import build_fight
from gladiator.campaign.state import CampaignState
from gladiator.campaign_service.fights import play_fight


def _opened(seed: int = 3) -> CampaignState:
    state = create(seed=seed)
    entries = {lid: [g.id for g in state.stable(lid)] for lid in state.lanistas}
    return apply_step(state, {"kind": "munus_open", "entries": entries}).state


def _duel(state: CampaignState) -> Any:
    return next(b for b in state.munus_bouts() if b.type in ("matched_pair", "champion"))


def test_s3_7_his_talents_go_on_the_sheet_of_every_match() -> None:
    state = _opened()
    bout = _duel(state)
    red = bout.sides[0].gladiators[0]
    state.gladiators[red].talents = ["FA", "HG"]
    seats, options = build_fight(state, bout, bout.sides[0].gladiators, bout.sides[1].gladiators, 2)
    assert seats["red"] == red
    assert options["talents"][0].split(",")[:2] == ["FA", "HG"]
    # and the engine gives them to the gladiator it makes of him
    from gladiator.core.dice import Dice
    from gladiator.registry import get

    ruleset: Any = get("colosseum")
    match_state, _ = ruleset.initial_state(ruleset.normalise_options(options), Dice(1))
    assert {"FA", "HG"} <= set(match_state.gladiators["red"].talents)


def test_s3_8_experience_is_kept_on_his_career_between_matches() -> None:
    state = _opened()
    bout = _duel(state)
    hero = bout.sides[0].gladiators[0]
    xp = state.gladiators[hero].xp
    for seed in range(5, 40):  # the first fight he survives
        report = play_fight(bout.fights[0], seed, "random").report
        step = {"kind": "bout_result", "bout": bout.id, "reports": [report]}
        after = apply_step(state, step).state.gladiators[hero]
        if after.status == "alive":
            break
    assert after.status == "alive"
    earned = after.history[-1]["xp"]
    assert after.xp == xp + earned and earned == after.xp - xp >= 0


def test_s3_13_1_the_top_box_holds_the_pb_of_the_match() -> None:
    from gladiator.core.dice import Dice
    from gladiator.registry import get

    ruleset: Any = get("colosseum")
    entrants = [
        {"name": "A", "tr": 10, "st": 1, "ag": 1, "cn": 3, "w": 11, "prestige": 6},
        {"name": "B", "tr": 10, "st": 1, "ag": 1, "cn": 3, "w": 11, "prestige": -3},
    ]
    options = ruleset.normalise_options({"advanced": True, "entrants": entrants})
    state, _ = ruleset.initial_state(options, Dice(2))
    # 1D3 + 6 always beats 1D3 - 3: the PB is 7 to 11 in red's top box, none in blue's
    assert 7 <= state.gladiators["red"].sheet.pb <= 11
    assert state.gladiators["blue"].sheet.pb == 0


def test_s25_2_1_size_1_the_colosseum_pays_lanistas_more() -> None:
    state = _opened()
    bout = next(b for b in state.munus_bouts() if len(set(b.lanistas())) == 2)
    report = play_fight(bout.fights[0], 5, "random").report
    paid = {}
    for size in (1, 3):
        state.meta.arena_size = size
        result = apply_step(state, {"kind": "bout_result", "bout": bout.id, "reports": [report]})
        paid[size] = sum(e.amount for e in result.ledger if e.account.startswith("lanista:"))
    assert paid[1] - paid[3] == 2 * 1000  # §37.3.1: 1,000 to each of the bout's two lanistas


def test_s36_3_weapon_skill_arms_a_sword_style_with_his_weapon() -> None:
    """§36.3 WS, L7: a Myrmillo skilled in the axe fights with it; the engine (TL2) accepts it
    because he has the talent. Probe: a Retiarius keeps his net and trident."""
    from gladiator.campaign.fights import skilled_weapon
    from gladiator.core.dice import Dice
    from gladiator.registry import get

    state = _opened()
    bout = _duel(state)
    red, blue = bout.sides[0].gladiators[0], bout.sides[1].gladiators[0]
    state.gladiators[red].talents = ["WS:axe"]
    state.gladiators[blue].talents = []
    bout.styles[red], bout.styles[blue] = "myrmillo", "secutor"
    assert skilled_weapon(state.gladiators[red], "retiarius") == ""
    _, options = build_fight(state, bout, [red], [blue], 2)
    assert options["weapons"] == ["axe", ""]
    ruleset: Any = get("colosseum")
    match_state, _ = ruleset.initial_state(ruleset.normalise_options(options), Dice(3))
    assert "axe" in str(match_state.gladiators["red"].weapons).lower()
    state.gladiators[red].talents = []  # without the talent: the chart's sword
    assert build_fight(state, bout, [red], [blue], 2)[1]["weapons"] == ["", ""]
