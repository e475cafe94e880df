"""Properties of campaigns where a human lanista (l1) does whatever the campaign page lets him
try, at random, among three bot lanistas: side bets offered, taken and withdrawn (§37.4.1),
Unique Matches set up (§30.2.1.1), bouts left to a bot, men sold and retired (L20), styles named
(§30.2.3.1), bids, XP, entries. Every step is applied whole or refused in one line with nothing
changed; money is conserved through every account, escrows included; and the steps replay to
the same campaign."""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from campaign_helpers import fake_play
from gladiator.campaign import CampaignError, CampaignState, apply_step, state_digest
from gladiator.campaign.driver import next_move
from gladiator.campaign.simulate import bout_reports
from gladiator.campaign.tables import chart

HUMAN = "l1"
MAX_STEPS = 600


def _create(seed: int, options: dict[str, Any]) -> dict[str, Any]:
    lanistas = [{"id": HUMAN, "name": "You", "kind": "human", "bot": None}]
    lanistas += [{"id": f"l{i}", "name": f"Bot {i}"} for i in (2, 3, 4)]
    return {
        "kind": "create",
        "id": "c1",
        "name": "Ludus",
        "seed": seed,
        "options": {"munera": 3, **options},
        "lanistas": lanistas,
    }


def _munus_try(state: CampaignState, rng: random.Random) -> dict[str, Any]:
    bouts = [b for b in state.munus_bouts() if b.status == "scheduled"]
    mine = [b for b in bouts if HUMAN in b.lanistas()]
    bets = [bet for b in bouts for bet in b.side_bets]
    pick = rng.randrange(9)  # a few tries in each munus before he says he is ready
    if pick <= 2 and bouts:
        step: dict[str, Any] = {
            "kind": "offer_side_bet",
            "bout": rng.choice(bouts).id,
            "backs": rng.choice([0, 1, 2]),
            "stake": rng.choice([0, 1, 50, 300, 5000]),
            "takes": rng.choice([1, 40, 300]),
        }
        if rng.random() < 0.3:
            step["to"] = rng.choice(["l2", "l3", "l4", HUMAN])
        return step
    if pick in (3, 4) and bets:
        kind = rng.choice(["take_side_bet", "withdraw_side_bet", "decline_side_bet"])
        return {"kind": kind, "bet": rng.choice(bets).id}
    if pick == 5 and mine:
        match = {"men": rng.randint(0, 7), rng.choice(["opponents", "beasts"]): rng.randint(0, 4)}
        match["sine_missione"] = rng.random() < 0.3
        return {"kind": "set_unique", "bout": rng.choice(mine).id, "match": match}
    if pick == 6 and mine:
        return {"kind": "bot_fight", "bout": rng.choice(mine).id}
    if pick == 7 and mine:
        return {"kind": "offer_odds", "bout": rng.choice(mine).id, "odds": rng.randint(1, 6)}
    return {"kind": "ready"}


def _between_try(state: CampaignState, rng: random.Random) -> dict[str, Any]:
    men = [g.id for g in state.gladiators.values() if g.lanista == HUMAN]
    pick = rng.randrange(7)
    if pick == 0:
        styles = rng.sample(list(chart()), 4) if rng.random() < 0.9 else ["tiger"] * 4
        return {"kind": "buy_stable", "styles": styles}
    if pick in (1, 2) and men:
        return {"kind": rng.choice(["sell", "retire"]), "gladiator": rng.choice(men)}
    if pick == 3 and men:
        styles = rng.sample(list(chart()), rng.randint(0, 3))
        return {"kind": "prefer_styles", "gladiator": rng.choice(men), "styles": styles}
    if pick == 4 and state.meta.lots:
        lot = rng.choice(state.meta.lots).gladiator
        return {"kind": "bid", "gladiator": lot, "amount": rng.choice([50, 100, 400, 99_999])}
    if pick == 5 and men:
        what = rng.choice(["tr", "st", "talent"])
        return {"kind": "spend_xp", "gladiator": rng.choice(men), "purchases": [{"what": what}]}
    entries = [g for g in men if rng.random() < 0.7]
    return {"kind": "ready", "entries": entries} if rng.random() < 0.8 else {"kind": "ready"}


def _next(state: CampaignState, rng: random.Random, play: Any) -> dict[str, Any] | None:
    move = next_move(state, frozenset({HUMAN}))
    if move.fight is not None:
        reports = bout_reports(state, move.fight, play)
        return {"kind": "bout_result", "bout": move.fight, "reports": reports}
    if move.step is not None:
        return move.step
    if not move.waiting:
        return None
    tried = _munus_try(state, rng) if state.meta.phase == "munus" else _between_try(state, rng)
    return {**tried, "actor": HUMAN}


def _check_money(state: CampaignState, accounts: dict[str, int]) -> None:
    assert sum(accounts.values()) == 0
    for lanista in state.lanistas.values():
        assert lanista.purse == accounts[f"lanista:{lanista.id}"] >= 0
    for bout in state.bouts.values():
        held = sum(bout.wager.stakes.values()) if bout.wager and bout.status == "scheduled" else 0
        assert accounts.get(f"escrow:{bout.id}", 0) == held
        for bet in bout.side_bets:
            expected = {"offered": bet.stake, "taken": bet.stake + bet.takes}.get(bet.status, 0)
            assert accounts.get(f"side:{bet.id}", 0) == expected, bet


OPTIONS = st.fixed_dictionaries(
    {
        "stables": st.sampled_from(["rolled", "bought"]),
        "custom_armour": st.booleans(),
        "choose_style": st.booleans(),
        "wager_payout": st.sampled_from(["odds", "even"]),
    }
)


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 10_000), options=OPTIONS)
def test_l19_l20_whatever_a_human_lanista_tries_the_money_balances(
    seed: int, moves: int, options: dict[str, Any]
) -> None:
    rng = random.Random(moves)
    play = fake_play(moves)
    create = _create(seed, options)
    state = apply_step(None, create).state
    accounts: dict[str, int] = defaultdict(int)
    for lanista in state.lanistas.values():
        accounts[f"lanista:{lanista.id}"] = lanista.purse
    accounts["bank"] = -sum(accounts.values())
    applied = [create]
    refused = 0
    for _ in range(MAX_STEPS):
        step = _next(state, rng, play)
        if step is None:
            break
        before = state_digest(state)
        try:
            result = apply_step(state, step)
        except CampaignError as exc:
            assert step.get("actor") == HUMAN, (step, exc)  # the bots and the arena never err
            assert "\n" not in str(exc) and state_digest(state) == before
            refused += 1
            continue
        for entry in result.ledger:
            accounts[entry.account] += entry.amount
        state = result.state
        applied.append(step)
        _check_money(state, accounts)
    assert state.meta.phase == "over" or state.meta.munus >= 1
    replayed = apply_step(None, applied[0]).state
    for step in applied[1:]:
        replayed = apply_step(replayed, step).state
    assert state_digest(replayed) == state_digest(state)
