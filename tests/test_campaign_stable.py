"""A lanista's stable: bought at the start (§37.2.1), a man retired or sold (§37.5, L20), and
the styles his men would fight in (§30.2.3.1 NOTE)."""

from __future__ import annotations

from typing import Any

from campaign_helpers import create, refused
from gladiator.campaign import CampaignState, apply_step
from gladiator.campaign.bot import bot_purchases
from gladiator.campaign.pairing import career_styles
from gladiator.campaign.tables import chart


def _with_human(**options: Any) -> CampaignState:
    step = {
        "kind": "create",
        "id": "c1",
        "name": "Ludus",
        "seed": 5,
        "options": options,
        "lanistas": [
            {"id": "l1", "name": "Ann", "kind": "human", "bot": None},
            {"id": "l2", "name": "Bot"},
        ],
    }
    return apply_step(None, step).state


def _step(state: CampaignState, **step: Any) -> CampaignState:
    return apply_step(state, step).state


def test_s37_2_1_a_human_buys_his_own_stable_before_the_first_munus() -> None:
    state = _with_human(stables="bought")
    assert state.stable("l1") == [] and state.lanistas["l1"].purse == 4000
    bot_cost = sum(chart()[s].cost or 0 for s in bot_purchases())
    assert len(state.stable("l2")) == len(bot_purchases())  # the bot buys his policy's men
    assert state.lanistas["l2"].purse == 4000 - bot_cost
    refused(state, {"kind": "ready", "actor": "l1"}, "buys his stable first")
    refused(state, {"kind": "buy_stable", "actor": "l1", "styles": ["gallus"] * 3}, "4 to 6")
    refused(state, {"kind": "buy_stable", "actor": "l1", "styles": ["nobody"] * 4}, "T37")
    # nothing but the chart's names: no free man (None), no traceback (a list, a dict)
    for bad in ([None] * 4, ["gallus", None, None, None], [["gallus"]] * 4, [{"a": 1}] * 4):
        refused(state, {"kind": "buy_stable", "actor": "l1", "styles": bad}, "style names")
    styles = ["retiarius", "gallus", "secutor", "myrmillo"]
    bought = _step(state, kind="buy_stable", actor="l1", styles=styles)
    men = bought.stable("l1")
    assert [g.bought_as for g in men] == styles
    assert bought.lanistas["l1"].purse == 4000 - sum(chart()[s].cost or 0 for s in styles)
    refused(bought, {"kind": "buy_stable", "actor": "l1", "styles": styles}, "bought once")
    _step(bought, kind="ready", actor="l1")


def _between(seed: int = 3) -> CampaignState:
    """Between munera (before the first) in a campaign of two bot lanistas."""
    return create(seed=seed)


def test_a_retired_man_leaves_the_arena_and_no_man_is_offered_for_him() -> None:
    state = _between()
    gid = state.stable("l1")[0].id
    retired = _step(state, kind="retire", actor="l1", gladiator=gid)
    assert retired.gladiators[gid].status == "retired"
    assert retired.meta.lots == []  # §37.5: only a man lost in the arena is replaced
    refused(retired, {"kind": "retire", "actor": "l1", "gladiator": gid}, "is retired")
    refused(state, {"kind": "retire", "actor": "l2", "gladiator": gid}, "acts only for his own")
    # a man entered, then retired, is no longer entered: the munus still opens
    entered = _step(state, kind="ready", actor="l1", entries=[gid])
    entered = _step(entered, kind="retire", actor="l1", gladiator=gid)
    assert entered.meta.entries["l1"] == []
    _step(entered, kind="munus_open")
    opened = _step(retired, kind="munus_open")
    assert gid not in {g for b in opened.munus_bouts() for g in b.gladiators()}
    other = {"kind": "retire", "actor": "l1", "gladiator": state.stable("l1")[1].id}
    refused(opened, other, "not allowed while the campaign is 'munus'")


def test_l20_a_man_sold_at_auction_pays_his_lanista_and_an_unsold_one_comes_back() -> None:
    state = _between()
    first, second = (g.id for g in state.stable("l1")[:2])
    state = _step(state, kind="sell", actor="l1", gladiator=first)
    state = _step(state, kind="sell", actor="l1", gladiator=second)
    assert [(lot.gladiator, lot.seller) for lot in state.meta.lots] == [
        (first, "l1"),
        (second, "l1"),
    ]
    refused(state, {"kind": "bid", "actor": "l1", "gladiator": first, "amount": 100}, "L20")
    purses = {lid: state.lanistas[lid].purse for lid in ("l1", "l2")}
    state = _step(state, kind="bid", actor="l2", gladiator=first, amount=300)
    result = apply_step(state, {"kind": "auction"})
    sold = result.state
    assert sold.gladiators[first].lanista == "l2" and sold.gladiators[first].status == "alive"
    assert sold.lanistas["l1"].purse == purses["l1"] + 300
    assert sold.lanistas["l2"].purse == purses["l2"] - 300
    assert sum(e.amount for e in result.ledger) == 0
    assert sold.gladiators[second].lanista == "l1" and sold.gladiators[second].status == "alive"


def test_s30_2_3_1_note_a_lanista_names_the_styles_his_men_fight_in() -> None:
    refused(
        create(seed=3),
        {"kind": "prefer_styles", "actor": "l1", "gladiator": "g1", "styles": ["gallus"]},
        "choose_style",
    )
    state = create(seed=3, choose_style=True)
    refused(
        state,
        {"kind": "prefer_styles", "actor": "l1", "gladiator": "g1", "styles": ["tiger"]},
        "T37",
    )
    refused(
        state,
        {"kind": "prefer_styles", "actor": "l1", "gladiator": "g1", "styles": [{"a": 1}]},
        "style names",
    )
    wanted = ["thracian", "provocator", "velite", "retiarius"]  # one per category I-IV
    for career in state.stable("l1"):
        state = _step(state, kind="prefer_styles", actor="l1", gladiator=career.id, styles=wanted)
    opened = _step(state, kind="munus_open")
    chosen = 0
    for bout in opened.munus_bouts():
        if bout.type in ("venatores", "bestiarii", "unique"):
            continue
        for gid, style in bout.styles.items():
            career = opened.gladiators[gid]
            if career.lanista != "l1":
                continue
            side = 0 if gid in bout.sides[0].gladiators else 1
            category = bout.categories[side] if bout.categories else None
            # the first he may fight in his category (a Retiarius needs SR, §19.5)
            allowed = [s for s in wanted if s in career_styles(career, category)]
            if allowed:
                assert style == allowed[0], (gid, category, style)
                chosen += 1
    assert chosen > 0


def test_l13_entries_his_purse_no_longer_covers_are_cut_not_refused() -> None:
    """Entries named between munera, before the auction took his money: the munus opens with
    the first men whose bets he can cover (§37.6), and the step's payload is left as given."""
    state = _between()
    men = [g.id for g in state.stable("l1")]
    state = _step(state, kind="ready", actor="l1", entries=men)
    state.lanistas["l1"].purse = 250  # as if the auction had taken the rest
    step = {"kind": "munus_open", "entries": {"l1": list(men), "l2": []}}
    result = apply_step(state, step)
    fighting = {g for b in result.state.munus_bouts() for g in b.gladiators()}
    assert set(men[:2]) <= fighting and not set(men[2:]) & fighting
    assert any(e["kind"] == "entries" and e["lanista"] == "l1" for e in result.events)
    assert step["entries"]["l1"] == men


def test_s31_3_a_talent_rolls_extra_is_a_number_not_a_yes() -> None:
    state = create(seed=3)
    career = state.stable("l1")[0]
    career.xp = 100
    step = {"kind": "spend_xp", "actor": "l1", "gladiator": career.id}
    refused(state, step | {"purchases": [{"what": "talent", "extra": True}]}, "whole number")
