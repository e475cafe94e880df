"""Between the munera: spending XP (§31.3) and the auction of new gladiators (§37.5).

L12: the auction is by sealed bids. Each lanista may bid once per lot (a new bid replaces his
old one), at least 100 and no more than his purse can pay together with his other bids; the
`auction` step sells each lot to the highest bid, equal bids rolling 1D6 off, and the buyer pays
the bank, or the lanista who sold him (L20). A lot nobody bid for goes back to the school
(retired), or to the lanista who sold him.
"""

from __future__ import annotations

from typing import cast

from gladiator.campaign.context import StepContext
from gladiator.campaign.errors import CampaignError
from gladiator.campaign.experience import Purchase, apply_purchase
from gladiator.campaign.ledger import BANK, lanista_account
from gladiator.campaign.tables import campaign_tables

__all__ = ["auction", "bid", "spend_xp"]

_PURCHASES = ("tr", "st", "ag", "cn", "w", "talent")


def spend_xp(ctx: StepContext) -> None:
    """§31.3: XP spent after a match, on ratings or talent rolls (`purchases`, in order, each
    {"what": "tr"|"st"|"ag"|"cn"|"w"|"talent", "extra": 10-XP steps on a talent roll})."""
    actor = ctx.actor()
    career = ctx.own_gladiator(actor, ctx.field("gladiator", str))
    if any(
        b.status == "scheduled" and career.id in b.gladiators() for b in ctx.state.bouts.values()
    ):
        raise CampaignError(f"{career.name} spends XP after his match, not before it (§31.3)")
    purchases = ctx.field("purchases", list)
    if not purchases:
        raise CampaignError("spend_xp needs at least one purchase")
    for item in purchases:
        if not isinstance(item, dict) or item.get("what") not in _PURCHASES:
            raise CampaignError(f"a purchase is {{'what': one of {', '.join(_PURCHASES)}}}")
        extra = item.get("extra", 0)
        if not isinstance(extra, int) or isinstance(extra, bool):
            raise CampaignError("a talent roll's 'extra' is a whole number of 10-XP steps")
        got = apply_purchase(career, cast(Purchase, item["what"]), ctx.dice, extra)
        ctx.event("xp", f"{career.name}: {got}", "§31.3", gladiator=career.id)


def bid(ctx: StepContext) -> None:
    ctx.phase("between")
    actor = ctx.actor()
    gid = ctx.field("gladiator", str)
    amount = ctx.field("amount", int)
    lot = next((lot for lot in ctx.state.meta.lots if lot.gladiator == gid), None)
    if lot is None:
        raise CampaignError(f"{gid} is not for sale (§37.5)")
    if lot.seller == actor.id:
        raise CampaignError(f"lanista {actor.id} sells {gid}: he does not bid for him (L20)")
    minimum = campaign_tables().lanistas.auction_min_bid
    if amount < minimum:
        raise CampaignError(f"a bid is at least {minimum} sesterces (L12)")
    others = sum(other.bids.get(actor.id, 0) for other in ctx.state.meta.lots if other is not lot)
    if amount + others > actor.purse:
        raise CampaignError(
            f"bids of {amount + others} are over lanista {actor.id}'s purse of {actor.purse}"
        )
    lot.bids[actor.id] = amount
    ctx.event("bid", f"{actor.name} bids {amount} for {gid}", "§37.5", lot=gid)


def auction(ctx: StepContext) -> None:
    ctx.no_actor()
    ctx.phase("between")
    state = ctx.state
    for lot in state.meta.lots:
        career = state.gladiators[lot.gladiator]
        bids = {lid: n for lid, n in lot.bids.items() if state.lanistas[lid].out is None}
        bids = {lid: n for lid, n in bids.items() if n <= state.lanistas[lid].purse}
        if not bids:
            # L20: an unsold man goes back to the lanista who sold him, else to the school
            career.status = "alive" if lot.seller else "retired"
            ctx.event("unsold", f"nobody buys {career.name}", "§37.5", lot=career.id)
            continue
        top = max(bids.values())
        buyers = [lid for lid, n in bids.items() if n == top]
        while len(buyers) > 1:
            rolls = {lid: ctx.dice.d(6, f"auction tie, {lid}", "§37.5") for lid in buyers}
            best = max(rolls.values())
            buyers = [lid for lid in buyers if rolls[lid] == best]
        buyer = buyers[0]
        paid = lanista_account(lot.seller) if lot.seller else BANK
        ctx.ledger.pay(buyer, paid, top, f"{career.name} bought at auction (§37.5)")
        career.lanista, career.status = buyer, "alive"
        ctx.event("sold", f"{state.lanistas[buyer].name} buys {career.name} for {top}", "§37.5")
    state.meta.lots = []
