"""Campaign steps: bad input refused in one line with the state untouched, the settlement of a
bout (§31, §32, §35.5, §37.3, §37.4, the ten victories), the auction (§37.5), who is out
(§37.6) and who wins (§37.7)."""

from __future__ import annotations

from typing import Any

import pytest

from campaign_helpers import create, refused, reports_for
from gladiator.campaign import CampaignError, CampaignState, apply_step
from gladiator.campaign.ledger import BANK
from gladiator.campaign.state import Bout


def _opened(seed: int = 3, **options: Any) -> CampaignState:
    return apply_step(create(seed=seed, **options), {"kind": "munus_open"}).state


def _lanista_bout(seed: int = 3, **options: Any) -> tuple[CampaignState, Bout]:
    """A munus with a bout between l1 and l2 (the first seed from `seed` that has one)."""
    for s in range(seed, seed + 40):
        state = _opened(s, **options)
        for bout in state.munus_bouts():
            if sorted(bout.lanistas()) == ["l1", "l2"] and bout.type != "consecutive":
                return state, bout
    raise AssertionError("no lanista bout")


# --- bad input -----------------------------------------------------------------------------------


def test_s37_4_a_wager_over_the_purse_isrefused() -> None:
    state, bout = _lanista_bout()
    state.lanistas["l2"].purse = 50  # l2 cannot stake the 1,600 of 5-1
    offerer = bout.sides[0].lanista
    other = bout.sides[1].lanista
    assert offerer and other
    state.lanistas[other].purse = 50
    step = {"kind": "offer_odds", "actor": offerer, "bout": bout.id, "odds": 5}
    refused(state, step, "over lanista .*'s purse")


def test_s30_2_a_dead_gladiator_cannot_be_entered() -> None:
    state = create(seed=4)
    gid = state.stable("l1")[0].id
    state.gladiators[gid].status = "dead"
    refused(state, {"kind": "munus_open", "entries": {"l1": [gid]}}, "is dead")


def test_a_lanista_acting_for_another_isrefused() -> None:
    state = create(seed=4)
    theirs = state.stable("l2")[0]
    theirs.xp = 100
    step = {
        "kind": "spend_xp",
        "actor": "l1",
        "gladiator": theirs.id,
        "purchases": [{"what": "tr"}],
    }
    refused(state, step, "not lanista l1's gladiator")
    refused(state, {"kind": "munus_open", "entries": {"l1": [theirs.id]}}, "not lanista l1's")


def test_s30_2_note_a_gladiator_in_two_bouts_of_a_munus_isrefused() -> None:
    state = create(seed=4)
    gid = state.stable("l1")[0].id
    refused(state, {"kind": "munus_open", "entries": {"l1": [gid, gid]}}, "entered twice")


def test_steps_out_of_order_and_unknown_kinds_arerefused() -> None:
    state = create(seed=4)
    refused(state, {"kind": "munus_close"}, "not allowed while the campaign is 'between'")
    refused(state, {"kind": "nope"}, "unknown step kind")
    refused(state, {"kind": "munus_open", "actor": "l1"}, "the arena's, not a lanista's")
    opened = _opened(4)
    refused(opened, {"kind": "munus_close"}, "bouts not yet fought")


def test_a_malformed_report_isrefused() -> None:
    state, bout = _lanista_bout()
    good = reports_for(bout, 0)
    bad = [{**good[0], "purple": good[0]["red"]}]
    refused(state, {"kind": "bout_result", "bout": bout.id, "reports": bad}, "seat 'purple'")
    broken = [{**good[0], "red": {**good[0]["red"], "result": "won"}}]
    refused(state, {"kind": "bout_result", "bout": bout.id, "reports": broken}, "report of seat")


# --- the wager and the settlement ----------------------------------------------------------------


def _settle(state: CampaignState, bout: Bout, winner: int | None, **kw: Any) -> Any:
    return apply_step(
        state, {"kind": "bout_result", "bout": bout.id, "reports": reports_for(bout, winner, **kw)}
    )


def test_s37_4_minimum_bets_go_into_escrow_and_the_winner_takes_both() -> None:
    state, bout = _lanista_bout()
    assert bout.wager is not None
    assert bout.wager.stakes == {"lanista:l1": 100, "lanista:l2": 100}
    a, b = bout.sides[0].lanista, bout.sides[1].lanista
    assert a and b
    purse_a, purse_b = state.lanistas[a].purse, state.lanistas[b].purse
    result = _settle(state, bout, 0)
    bonus = 1000 if state.meta.arena_size == 1 else 0
    assert result.state.lanistas[a].purse == purse_a + 200 + bonus
    assert result.state.lanistas[b].purse == purse_b + bonus
    assert sum(e.amount for e in result.ledger if e.account == f"escrow:{bout.id}") == -200


def test_s37_4_q47_odds_stakes_and_payout() -> None:
    state, bout = _lanista_bout()
    a, b = bout.sides[0].lanista, bout.sides[1].lanista
    assert a and b
    offered = apply_step(state, {"kind": "offer_odds", "actor": a, "bout": bout.id, "odds": 2})
    wager = offered.state.bouts[bout.id].wager
    assert wager is not None
    assert wager.stakes == {f"lanista:{b}": 200, f"lanista:{a}": 400}
    before_b = offered.state.lanistas[b].purse
    settled = _settle(offered.state, offered.state.bouts[bout.id], 1)
    bonus = 1000 if state.meta.arena_size == 1 else 0
    assert settled.state.lanistas[b].purse == before_b + 600 + bonus
    refused(
        offered.state,
        {"kind": "offer_odds", "actor": b, "bout": bout.id, "odds": 3},
        "already offered",
    )
    refused(
        offered.state, {"kind": "offer_odds", "actor": a, "bout": bout.id, "odds": 2}, "must rise"
    )


def test_s37_4_l1_even_payout() -> None:
    state, bout = _lanista_bout(wager_payout="even")
    a = bout.sides[0].lanista
    offered = apply_step(state, {"kind": "offer_odds", "actor": a, "bout": bout.id, "odds": 3})
    wager = offered.state.bouts[bout.id].wager
    assert wager is not None and sorted(wager.stakes.values()) == [400, 400]


def test_s37_4_a_draw_returns_the_stakes() -> None:
    state, bout = _lanista_bout()
    result = _settle(state, bout, None)
    bonus = 1000 if state.meta.arena_size == 1 else 0
    for lid in ("l1", "l2"):
        assert result.state.lanistas[lid].purse == state.lanistas[lid].purse + 100 + bonus


def test_s37_3_1_the_colosseum_pays_each_lanista_1000_per_match() -> None:
    state, bout = _lanista_bout()
    state.meta.arena_size = 1
    result = _settle(state, bout, None)
    for lid in ("l1", "l2"):
        assert result.state.lanistas[lid].purse == state.lanistas[lid].purse + 100 + 1000
    state.meta.arena_size = 2
    result = _settle(state, bout, None)
    assert result.state.lanistas["l1"].purse == state.lanistas["l1"].purse + 100


def test_s31_s32_s35_the_settlement_applies_xp_injuries_and_prestige() -> None:
    state, bout = _lanista_bout()
    state.meta.arena_size = 2
    winner = bout.sides[0].gladiators[0]
    before = state.gladiators[winner].model_copy(deep=True)
    kill = {"victim": "blue", "turn": 2, "kind": "quick"}
    result = _settle(state, bout, 0, attack_cf=70, defense_cf=40, kills=[kill], cleaved=True)
    after = result.state.gladiators[winner]
    assert after.xp == before.xp + 29  # R-31-xp
    assert after.record.victories == before.record.victories + 1
    loser = result.state.gladiators[bout.sides[1].gladiators[0]]
    assert loser.record.defeats == 1
    assert after.prestige >= before.prestige + 1  # cleaved (§35.5.2), maybe +1 more
    rules = [r["rule"] for r in result.rolls]
    assert "§35.5" in rules and "§32.2" not in rules  # no wounds, no injury roll


def test_s30_a_dead_gladiator_is_lost_and_his_school_offers_one_for_sale() -> None:
    state, bout = _lanista_bout()
    reports = reports_for(bout, 0)
    loser_seat = next(s for s, g in bout.seats[0].items() if g in bout.sides[1].gladiators)
    reports[0][loser_seat]["alive"] = False
    settled = apply_step(state, {"kind": "bout_result", "bout": bout.id, "reports": reports})
    dead = settled.state.gladiators[bout.seats[0][loser_seat]]
    assert dead.status == "dead"
    later = settled.state
    for other in later.munus_bouts():
        if other.status == "scheduled":
            later = apply_step(
                later, {"kind": "bout_result", "bout": other.id, "reports": reports_for(other, 0)}
            ).state
    closed = apply_step(later, {"kind": "munus_close"}).state
    assert len(closed.meta.lots) >= 1
    lot = closed.meta.lots[0].gladiator
    assert closed.gladiators[lot].status == "for_sale"
    # §37.5, L12: sealed bids, the highest wins and pays the bank.
    s = apply_step(closed, {"kind": "bid", "actor": "l1", "gladiator": lot, "amount": 300}).state
    s = apply_step(s, {"kind": "bid", "actor": "l2", "gladiator": lot, "amount": 250}).state
    refused(s, {"kind": "munus_open"}, "auction is still open")
    refused(s, {"kind": "bid", "actor": "l2", "gladiator": lot, "amount": 50}, "at least 100")
    sold = apply_step(s, {"kind": "auction"})
    assert sold.state.gladiators[lot].lanista == "l1"
    assert sold.state.lanistas["l1"].purse == s.lanistas["l1"].purse - 300
    assert (BANK, 300) in [(e.account, e.amount) for e in sold.ledger]


def test_the_10_victory_rule_frees_him_and_pays_10000() -> None:
    """NOTE-campaign-victory: the tenth victory frees him, even won with a mortal wound."""
    state, bout = _lanista_bout(goal="freedom")
    state.meta.arena_size = 2
    hero = bout.sides[0].gladiators[0]
    lid = state.gladiators[hero].lanista
    assert lid
    state.gladiators[hero].record.victories = 9
    result = _settle(state, bout, 0, alive=False, mortal=True)
    g = result.state.gladiators[hero]
    assert g.record.victories == 10 and g.status == "dead"  # he dies a free man
    assert result.state.lanistas[lid].purse == state.lanistas[lid].purse + 200 + 10000
    assert result.state.meta.winner == lid and result.state.meta.phase == "over"
    assert any(e["kind"] == "freedom" for e in result.events)
    # Probe: nine victories are not enough.
    state.gladiators[hero].record.victories = 8
    assert _settle(state, bout, 0).state.gladiators[hero].status == "alive"


def test_s37_3_2_with_the_fortune_goal_the_game_goes_on() -> None:
    state, bout = _lanista_bout()
    hero = bout.sides[0].gladiators[0]
    state.gladiators[hero].record.victories = 9
    result = _settle(state, bout, 0)
    assert result.state.gladiators[hero].status == "free"
    assert result.state.meta.phase == "munus" and result.state.meta.winner is None


# --- creation, out, winner -----------------------------------------------------------------------


def test_s37_2_rolled_stables_five_and_2000() -> None:
    state = create(seed=9, lanistas=3)
    for lid in ("l1", "l2", "l3"):
        assert state.lanistas[lid].purse == 2000 and len(state.stable(lid)) == 5


def test_s37_2_1_bought_stables_4000_less_the_chart_prices() -> None:
    state = create(seed=9, stables="bought")
    assert state.lanistas["l1"].purse == 4000 - 4 * 400
    assert {g.bought_as for g in state.stable("l1")} == {"gallus"}
    step = {
        "kind": "create",
        "id": "c",
        "seed": 1,
        "options": {"stables": "bought"},
        "lanistas": [{"id": "a", "name": "A"}],
        "purchases": {"a": ["gallus"] * 3},
    }
    with pytest.raises(CampaignError, match="must buy 4 to 6"):
        apply_step(None, step)
    step["purchases"] = {"a": ["crupellarius"] * 5 + ["venator"]}
    with pytest.raises(CampaignError, match="not styles of the Gladiator chart"):
        apply_step(None, step)
    # Six of the dearest cost 3,000: the 4,000 always buys six (1,000 runs the school).
    step["purchases"] = {"a": ["crupellarius"] * 6}
    assert apply_step(None, step).state.lanistas["a"].purse == 1000


def test_s37_6_a_lanista_without_money_or_gladiators_is_out() -> None:
    state = create(seed=9, lanistas=3)
    state.lanistas["l2"].purse = 50
    for g in state.stable("l3"):
        g.status = "dead"
    opened = apply_step(state, {"kind": "munus_open"}).state
    assert opened.lanistas["l2"].out == "cannot cover a bet"
    assert opened.lanistas["l3"].out == "no living gladiator left"
    assert opened.lanistas["l1"].out is None


def test_s37_7_the_last_lanista_with_five_wins() -> None:
    state = create(seed=9)
    for g in state.stable("l2"):
        g.status = "dead"
    result = apply_step(state, {"kind": "munus_open"})
    assert result.state.meta.winner == "l1" and result.state.meta.phase == "over"
    refused(result.state, {"kind": "munus_open"}, "the campaign is over")


def test_s37_7_the_richest_after_the_set_number_of_munera() -> None:
    state = _opened(3, munera=1)
    for bout in state.munus_bouts():
        state = apply_step(
            state, {"kind": "bout_result", "bout": bout.id, "reports": reports_for(bout, 0)}
        ).state
    state.lanistas["l2"].purse += 10_000  # as if he had won it
    closed = apply_step(state, {"kind": "munus_close"}).state
    assert closed.meta.phase == "over" and closed.meta.winner == "l2"


def test_s34_3_the_lanista_pays_for_armour_within_the_allowance() -> None:
    for seed in range(1, 40):
        state = _opened(seed, custom_armour=True)
        found = [
            (b, g)
            for b in state.munus_bouts()
            for g in b.gladiators()
            if b.styles.get(g) == "gallus" and state.gladiators[g].lanista
        ]
        if found:
            break
    bout, gid = found[0]
    lid = state.gladiators[gid].lanista
    assert lid
    kit = ["A4", "A", "B", "C4", "B4"]
    step = {"kind": "buy_armour", "actor": lid, "bout": bout.id, "gladiator": gid, "armour": kit}
    result = apply_step(state, step)
    assert result.state.lanistas[lid].purse == state.lanistas[lid].purse - 1060
    fight = result.state.bouts[bout.id].fights[0]
    seat = next(i for i, g in enumerate(bout.seats[0].values()) if g == gid)
    assert fight["entrants"][seat]["armour"] == kit and fight["entrants"][seat]["shield"] == "large"
    refused(result.state, step, "bought already")
    plain = _opened(seed)
    refused(plain, step, "option the campaign does not use")


def test_l18_the_appearance_fee_pays_each_lanistas_man_who_fought() -> None:
    """L18 (design option): the editor pays `appearance_fee` per man of a lanista in a bout,
    win or lose; 0 (the book) pays nothing."""
    for fee in (0, 250):
        state, bout = _lanista_bout(appearance_fee=fee)
        state.meta.arena_size = 2  # no §37.3.1 bonus in the sums
        before = {lid: state.lanistas[lid].purse for lid in ("l1", "l2")}
        result = _settle(state, bout, 0)
        men = {s.lanista: len(s.gladiators) for s in bout.sides}
        stake = 100  # the 1-1 minimum each side has in escrow (§37.4)
        assert result.state.lanistas["l1"].purse == before["l1"] + 2 * stake + fee * men["l1"]
        assert result.state.lanistas["l2"].purse == before["l2"] + fee * men["l2"]
        assert sum(e.amount for e in result.ledger) == 0
