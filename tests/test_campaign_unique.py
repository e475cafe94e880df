"""§30.2.1.1 Unique Match (L4, P4): the match-maker's choice off its menu, a lanista's own
set-up, played by the engine and settled."""

from __future__ import annotations

from typing import Any

from campaign_helpers import create, refused, reports_for
from gladiator.campaign import CampaignState, apply_step
from gladiator.campaign.fights import BEAST
from gladiator.campaign.state import Bout
from gladiator.campaign.tables import campaign_tables
from gladiator.campaign_service.fights import play_fight

SEED = 4  # munus 1 gives l1's first man a Unique Match: the match-maker rolls "One against three"


def _unique() -> tuple[CampaignState, Bout]:
    state = apply_step(create(seed=SEED, lanistas=4), {"kind": "munus_open"}).state
    bout = next(b for b in state.munus_bouts() if b.type == "unique")
    return state, bout


def _set(state: CampaignState, bout: Bout, **match: Any) -> CampaignState:
    step = {"kind": "set_unique", "actor": "l1", "bout": bout.id, "match": match}
    return apply_step(state, step).state


def test_s30_2_1_1_p4_the_match_maker_chooses_off_the_menu() -> None:
    state, bout = _unique()
    assert bout.unique is not None and bout.unique.by is None
    row = next(r for r in campaign_tables().unique.rows if r.name == bout.unique.name)
    assert (row.name, row.men, row.opponents) == ("One against three", 1, 3)
    assert [len(side.gladiators) for side in bout.sides] == [1, 3]
    assert bout.sides[0].lanista == "l1" and bout.sides[1].lanista is None  # the house's (L4)
    assert all(state.gladiators[g].lanista is None for g in bout.sides[1].gladiators)
    assert bout.fights[0]["teams"] == "red:blue+green+gold"


def test_l4_his_lanista_sets_up_his_own_match_against_men_or_beasts() -> None:
    state, bout = _unique()
    gid = bout.sides[0].gladiators[0]
    old = bout.sides[1].gladiators
    pairs = _set(state, bout, name="Pairs", men=2, opponents=2, sine_missione=True)
    made = pairs.bouts[bout.id]
    assert made.unique is not None and (made.unique.name, made.unique.by) == ("Pairs", "l1")
    assert made.sine_missione and made.fights[0]["sine_missione"]
    assert made.sides[0].gladiators[0] == gid and len(made.sides[0].gladiators) == 2
    assert len(made.sides[1].gladiators) == 2 and len(made.seats[0]) == 4
    assert made.styles[gid] == bout.styles[gid]  # he keeps the style he was matched in
    # the house's men of the old set-up never fight: back to the school
    assert all(pairs.gladiators[g].status == "retired" for g in old)
    hunt = _set(state, bout, men=1, beasts=2).bouts[bout.id]
    assert hunt.sides[1].gladiators == [] and not hunt.sine_missione
    assert sum(m.startswith(BEAST) for m in hunt.seats[0].values()) == 2
    assert "beasts" in hunt.fights[0] and "teams" not in hunt.fights[0]


def test_l4_a_unique_match_the_rules_do_not_allow_is_refused() -> None:
    state, bout = _unique()
    step = {"kind": "set_unique", "actor": "l1", "bout": bout.id}
    refused(state, step | {"match": {"men": 0, "opponents": 1}}, "Match's men")
    refused(state, step | {"match": {"men": 7, "opponents": 1}}, "1 to 6 men")
    refused(state, step | {"match": {"men": 1, "opponents": 2, "beasts": 1}}, "one of the two")
    refused(state, step | {"match": {"men": 1, "opponents": 0}}, "one of the two")
    refused(state, step | {"match": {"men": 1, "beasts": 4}}, "at most 3 beasts")
    refused(state, step | {"match": {"men": 2, "beasts": 1}}, "one man, not a team")
    refused(state, step | {"match": {"men": 1, "beasts": 1, "sine_missione": True}}, "no death")
    refused(state, step | {"match": {"men": 1, "opponents": 1, "extra": 1}}, "extra")
    refused(state, step | {"actor": "l2", "match": {"men": 1, "opponents": 1}}, "lanista")
    other = next(b for b in state.munus_bouts() if b.type != "unique")
    refused(state, step | {"bout": other.id, "match": {"men": 1, "opponents": 1}}, "not a Unique")
    ready = apply_step(state, {"kind": "ready", "actor": "l1"}).state
    refused(ready, step | {"match": {"men": 1, "opponents": 1}}, "is ready")


def test_l4_a_unique_match_against_beasts_is_played_and_settled() -> None:
    state, bout = _unique()
    state = _set(state, bout, men=1, beasts=2)
    bout = state.bouts[bout.id]
    fight = play_fight(bout.fights[0], seed=11)
    assert fight.report["red"]["result"] in ("victory", "defeat", "draw")
    settled = apply_step(state, {"kind": "bout_result", "bout": bout.id, "reports": [fight.report]})
    assert settled.state.bouts[bout.id].status == "settled"
    # a lost beast fight is the beasts' (side 1), not a draw
    lost = apply_step(
        state, {"kind": "bout_result", "bout": bout.id, "reports": reports_for(bout, 1)}
    )
    assert lost.state.bouts[bout.id].outcome == "side1"


def test_l4_a_unique_match_is_set_up_once_and_its_house_men_earn_no_fee() -> None:
    """One set-up (no re-rolling the house's men until they are weak); L18's fee is paid for
    the lanista's own men only, not the house's teammates he asked for."""
    state = apply_step(
        create(seed=SEED, lanistas=4, appearance_fee=1000), {"kind": "munus_open"}
    ).state
    bout = next(b for b in state.munus_bouts() if b.type == "unique")
    state = _set(state, bout, men=6, opponents=1)
    step = {"kind": "set_unique", "actor": "l1", "bout": bout.id}
    refused(state, step | {"match": {"men": 1, "opponents": 1}}, "set up already")
    bout = state.bouts[bout.id]
    purse = state.lanistas["l1"].purse
    settled = apply_step(
        state, {"kind": "bout_result", "bout": bout.id, "reports": reports_for(bout, None)}
    ).state
    bonus = 1000 if settled.meta.arena_size == 1 else 0
    assert settled.lanistas["l1"].purse == purse + 100 + 1000 + bonus  # his bet back, one fee
