"""§37.4.1 side bets (L19): offered at any odds, taken by another lanista, settled with the bout
in the double-entry ledger; refused in one line where the rules say no."""

from __future__ import annotations

from typing import Any

from campaign_helpers import create, refused, reports_for
from gladiator.campaign import CampaignState, apply_step
from gladiator.campaign.bot import bot_takes_side_bet, side_chance
from gladiator.campaign.driver import next_move
from gladiator.campaign.state import Bout


def _munus(seed: int = 3) -> tuple[CampaignState, Bout]:
    """Munus 1 of three lanistas, with a bout of l1 (side 0) against l2 (side 1): l3 looks on."""
    for s in range(seed, seed + 60):
        state = apply_step(create(seed=s, lanistas=3), {"kind": "munus_open"}).state
        for bout in state.munus_bouts():
            if [side.lanista for side in bout.sides] == ["l1", "l2"] and bout.type != "consecutive":
                return state, bout
    raise AssertionError("no bout of l1 against l2")


def _step(state: CampaignState, **step: Any) -> CampaignState:
    result = apply_step(state, step)
    assert sum(e.amount for e in result.ledger) == 0
    return result.state


def _settle(state: CampaignState, bout: Bout, winner: int | None) -> CampaignState:
    reports = reports_for(bout, winner)
    return _step(state, kind="bout_result", bout=bout.id, reports=reports)


def _offer(state: CampaignState, bout: Bout, actor: str, backs: int, **kw: Any) -> CampaignState:
    step = {"kind": "offer_side_bet", "actor": actor, "bout": bout.id, "backs": backs}
    return _step(state, **(step | {"stake": 300, "takes": 200} | kw))


def test_s37_4_1_the_winner_of_a_side_bet_takes_both_stakes() -> None:
    state, bout = _munus()
    purses = {lid: state.lanistas[lid].purse for lid in ("l1", "l2", "l3")}
    state = _offer(state, bout, "l3", 0)  # l3 backs l1's man: 300 against 200
    bet = state.bouts[bout.id].side_bets[0]
    assert (bet.id, bet.status, bet.stake, bet.takes) == (f"{bout.id}-s1", "offered", 300, 200)
    assert state.lanistas["l3"].purse == purses["l3"] - 300
    state = _step(state, kind="take_side_bet", actor="l2", bet=bet.id)
    assert state.lanistas["l2"].purse == purses["l2"] - 200
    after = _settle(state, state.bouts[bout.id], 0)
    assert after.bouts[bout.id].side_bets[0].status == "won"
    assert after.lanistas["l3"].purse == purses["l3"] + 200
    # l2 lost his side bet (200) and the bout's forced bet was already in escrow
    bonus = 1000 if after.meta.arena_size == 1 else 0
    assert after.lanistas["l2"].purse == state.lanistas["l2"].purse + bonus


def test_s37_4_1_the_taker_wins_when_the_other_side_wins() -> None:
    state, bout = _munus()
    l3 = state.lanistas["l3"].purse
    state = _offer(state, bout, "l3", 0, stake=100, takes=500)
    state = _step(state, kind="take_side_bet", actor="l2", bet=f"{bout.id}-s1")
    l2 = state.lanistas["l2"].purse
    after = _settle(state, state.bouts[bout.id], 1)
    assert after.bouts[bout.id].side_bets[0].status == "lost"
    assert after.lanistas["l3"].purse == l3 - 100
    bonus = 1000 if after.meta.arena_size == 1 else 0
    assert after.lanistas["l2"].purse == l2 + 600 + 200 + bonus  # the side bet and the wager


def test_s37_4_1_a_draw_or_an_offer_nobody_took_returns_the_stakes() -> None:
    state, bout = _munus()
    l1, l3 = state.lanistas["l1"].purse, state.lanistas["l3"].purse
    state = _offer(state, bout, "l3", 1)
    state = _offer(state, bout, "l1", 0, stake=50, takes=50)
    state = _step(state, kind="take_side_bet", actor="l3", bet=f"{bout.id}-s2")
    drawn = _settle(state, state.bouts[bout.id], None)
    assert [b.status for b in drawn.bouts[bout.id].side_bets] == ["returned", "returned"]
    bonus = 1000 if drawn.meta.arena_size == 1 else 0
    assert drawn.lanistas["l3"].purse == l3
    assert drawn.lanistas["l1"].purse == l1 + 100 + bonus  # his forced bet (§37.4) returned too
    # and an offer withdrawn before anyone took it comes back at once
    state, bout = _munus()
    l3 = state.lanistas["l3"].purse
    state = _offer(state, bout, "l3", 0)
    state = _step(state, kind="withdraw_side_bet", actor="l3", bet=f"{bout.id}-s1")
    assert state.lanistas["l3"].purse == l3
    assert state.bouts[bout.id].side_bets[0].status == "withdrawn"


def test_l19_side_bets_the_rules_refuse() -> None:
    state, bout = _munus()
    offer = {"kind": "offer_side_bet", "bout": bout.id, "stake": 100, "takes": 100}
    refused(state, offer | {"actor": "l1", "backs": 1}, "never bets against his own men")
    refused(state, offer | {"actor": "l3", "backs": 2}, "side 0 or side 1")
    refused(state, offer | {"actor": "l3", "backs": 0, "stake": 0}, "1 to 100000")
    # JSON's true is not a number of sesterces, nor a side
    refused(state, offer | {"actor": "l3", "backs": 0, "stake": True}, "wrong type")
    refused(state, offer | {"actor": "l3", "backs": True}, "wrong type")
    big = state.lanistas["l3"].purse + 1
    refused(state, offer | {"actor": "l3", "backs": 0, "stake": big}, "his purse holds")
    refused(state, offer | {"actor": "l3", "backs": 0, "to": "l3"}, "another lanista")
    state = _step(state, **(offer | {"actor": "l3", "backs": 0, "to": "l2"}))
    bet = f"{bout.id}-s1"
    refused(state, {"kind": "take_side_bet", "actor": "l3", "bet": bet}, "his own side bet")
    refused(state, {"kind": "take_side_bet", "actor": "l1", "bet": bet}, "to lanista l2 only")
    refused(state, {"kind": "take_side_bet", "actor": "l2", "bet": "b0-s9"}, "no side bet")
    refused(state, {"kind": "withdraw_side_bet", "actor": "l2", "bet": bet}, "l3's to withdraw")
    state = _step(state, **(offer | {"actor": "l3", "backs": 1}))
    taking = {"kind": "take_side_bet", "actor": "l2", "bet": f"{bout.id}-s2"}
    refused(state, taking, "never bets against his own men")
    # L15: a lanista who said he is ready offers nothing more; once all are, the games begin
    ready = _step(state, kind="ready", actor="l3")
    refused(ready, offer | {"actor": "l3", "backs": 0}, "said he is ready")
    for lid in ("l1", "l2"):
        ready = _step(ready, kind="ready", actor=lid)
    refused(ready, {"kind": "take_side_bet", "actor": "l2", "bet": bet}, "the games have begun")


def test_s37_4_1_a_bot_takes_the_side_bets_he_expects_to_win_and_declines_the_rest() -> None:
    state, bout = _munus()
    q = side_chance(state, bout, 1)  # l2's side
    # l3 (played as a human here, so the bots act around him) offers l2 two bets on l1's man:
    # one that pays l2 far more than his chance is worth, one that pays him far less
    state.lanistas["l3"].kind = "human"
    generous = {"stake": 400, "takes": max(1, int(400 * q / (1 - q) / 4))}
    stingy = {"stake": 10, "takes": max(20, int(10 * q / (1 - q) * 4))}
    state = _offer(state, bout, "l3", 0, to="l2", **generous)
    state = _offer(state, bout, "l3", 0, to="l2", **stingy)
    good, bad = state.bouts[bout.id].side_bets
    assert bot_takes_side_bet(state, "l2", bout, good)
    assert not bot_takes_side_bet(state, "l2", bout, bad)
    answers = []
    while (move := next_move(state)).step is not None and move.step["kind"] != "munus_close":
        if move.step["kind"] in ("take_side_bet", "decline_side_bet"):
            answers.append((move.step["kind"], move.step["bet"]))
        state = apply_step(state, move.step).state
    assert answers == [("take_side_bet", good.id), ("decline_side_bet", bad.id)]
    assert move.waiting == ("l3",)  # L19: no bout is fought before he too is ready
    assert all(b.status == "scheduled" for b in state.munus_bouts())


def test_l19_a_lanista_has_at_most_five_side_bets_on_offer() -> None:
    state, bout = _munus()
    for _ in range(5):
        state = _offer(state, bout, "l3", 0, stake=1, takes=1)
    offer = {"kind": "offer_side_bet", "actor": "l3", "bout": bout.id, "backs": 0}
    refused(state, offer | {"stake": 1, "takes": 1}, "5 side bets on offer")
    state = _step(state, kind="withdraw_side_bet", actor="l3", bet=f"{bout.id}-s1")
    _offer(state, bout, "l3", 0, stake=1, takes=1)
