"""`apply_step(state, step) -> StepResult`: the only way a campaign changes.

A step is a plain dict `{"kind": ..., "actor": lanista id or None, ...payload}`. It is applied
to a deep copy of the state with dice seeded from (campaign seed, step seq), so the same steps
give the same campaign; the ledger entries it makes sum to 0, and every lanista's purse moves
with his account. Bad input raises `CampaignError` (one line) and the state given is untouched.

Kinds: create (§37.2), munus_open (§30, §37.4 minimum stakes, §25.2 arena size), offer_odds
(§37.4), buy_armour (§34), bout_result (§31, §32, §35.5, §37.3, §37.4, the ten victories),
munus_close (§37.5 lots, §37.7), spend_xp (§31.3), bid and auction (§37.5), ready (L15),
side bets offered, taken, declined and withdrawn (§37.4.1, L19), bot_fight (a human lanista's
bout fought by a bot), set_unique (§30.2.1.1, L4), buy_stable (§37.2.1), retire, sell (§37.5,
L20) and prefer_styles (§30.2.3.1 NOTE).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from gladiator.campaign.bot import bot_purchases
from gladiator.campaign.context import StepContext
from gladiator.campaign.errors import CampaignError
from gladiator.campaign.ledger import BANK, Ledger, LedgerEntry, lanista_account
from gladiator.campaign.market import auction, bid, spend_xp
from gladiator.campaign.munus_steps import (
    bot_fight,
    buy_armour,
    munus_close,
    munus_open,
    offer_odds,
    ready,
    set_unique,
)
from gladiator.campaign.settlement import bout_result
from gladiator.campaign.side_bets import (
    decline_side_bet,
    offer_side_bet,
    take_side_bet,
    withdraw_side_bet,
)
from gladiator.campaign.stable_steps import (
    buy_stable,
    check_purchase,
    get_men,
    prefer_styles,
    retire,
    sell,
)
from gladiator.campaign.state import CampaignOptions, CampaignState, Lanista, Meta
from gladiator.campaign.step_dice import step_dice
from gladiator.campaign.tables import campaign_tables

__all__ = ["KINDS", "StepResult", "apply_step"]


@dataclass
class StepResult:
    state: CampaignState
    ledger: list[LedgerEntry]
    events: list[dict[str, Any]]
    rolls: list[dict[str, Any]] = field(default_factory=list)


Handler = Callable[[StepContext], None]


def _create(ctx: StepContext) -> None:
    """§37.2: each lanista's stable of five and 2,000 sesterces; §37.2.1 (option "bought"):
    4,000 and four to six gladiators bought at T37's prices (`purchases`, lanista -> styles; a
    bot buys his policy's, a human left out buys his own with `buy_stable`)."""
    state, lt = ctx.state, campaign_tables().lanistas
    bought = state.meta.options.stables == "bought"
    purchases = ctx.field("purchases", dict, {})
    for lanista in state.lanistas.values():
        purse = lt.bought_purse if bought else lt.purse
        ctx.ledger.move(BANK, lanista_account(lanista.id), purse, "starting purse (§37.2)")
        if not bought:
            get_men(ctx, lanista, [None] * lt.stable)
        elif lanista.id in purchases or lanista.kind == "bot":
            styles = purchases.get(lanista.id, bot_purchases())
            get_men(ctx, lanista, check_purchase(lanista.id, styles))
    state.meta.phase = "between"


def _new_state(step: dict[str, Any]) -> CampaignState:
    try:
        options = CampaignOptions.model_validate(step.get("options", {}))
        meta = Meta(
            id=str(step["id"]),
            name=str(step.get("name", step["id"])),
            seed=int(step["seed"]),
            options=options,
        )
        lanistas = [Lanista.model_validate(entry) for entry in step["lanistas"]]
    except KeyError as exc:
        raise CampaignError(f"step 'create' needs {exc.args[0]!r}") from None
    except (ValidationError, TypeError, ValueError) as exc:
        text = str(exc).splitlines()
        raise CampaignError(f"step 'create': {' '.join(text[:3])}") from None
    if not lanistas or len({lanista.id for lanista in lanistas}) != len(lanistas):
        raise CampaignError("step 'create' needs lanistas with distinct ids")
    for lanista in lanistas:
        lanista.purse = 0
    return CampaignState(meta=meta, lanistas={lanista.id: lanista for lanista in lanistas})


KINDS: dict[str, Handler] = {
    "create": _create,
    "munus_open": munus_open,
    "offer_odds": offer_odds,
    "buy_armour": buy_armour,
    "bout_result": bout_result,
    "munus_close": munus_close,
    "spend_xp": spend_xp,
    "bid": bid,
    "auction": auction,
    "ready": ready,
    "offer_side_bet": offer_side_bet,
    "take_side_bet": take_side_bet,
    "decline_side_bet": decline_side_bet,
    "withdraw_side_bet": withdraw_side_bet,
    "bot_fight": bot_fight,
    "set_unique": set_unique,
    "buy_stable": buy_stable,
    "retire": retire,
    "sell": sell,
    "prefer_styles": prefer_styles,
}


def apply_step(state: CampaignState | None, step: dict[str, Any]) -> StepResult:
    """Apply one step to a copy of `state` (None for `create`, step 0)."""
    if not isinstance(step, dict):
        raise CampaignError("a step is an object with a 'kind'")
    kind = step.get("kind")
    if kind not in KINDS:
        raise CampaignError(f"unknown step kind {kind!r} (one of {', '.join(KINDS)})")
    if kind == "create":
        if state is not None:
            raise CampaignError("a campaign is created once, from no state")
        new = _new_state(step)
        seq = 0
    else:
        if state is None:
            raise CampaignError(f"step {kind!r} needs a campaign: create it first")
        if state.meta.phase == "over":
            raise CampaignError("the campaign is over")
        new = state.model_copy(deep=True)
        seq = new.meta.seq + 1
    dice = step_dice(new.meta.seed, seq)
    ctx = StepContext(new, dice, step, Ledger(new))
    if kind != "create":
        KINDS[kind](ctx)
    else:
        ctx.no_actor()
        _create(ctx)
        new.meta.timeline.append(new.standing())
    new.meta.seq = seq
    if sum(e.amount for e in ctx.ledger.entries) != 0:
        raise AssertionError("a step's ledger entries must sum to 0")
    return StepResult(new, ctx.ledger.entries, ctx.events, [r.to_dict() for r in dice.log])
